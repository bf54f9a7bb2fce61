// Partizan game certificates: Header{formatVersion, partizan}, Seal
// (docs/partizan-game.md, "Certificate file"), and the statement the checker
// prints for them.
#include <capnp/message.h>
#include <capnp/serialize.h>

#include "prover/partizan/partizan.hpp"
#include "prover/sealed_file.hpp"
#include "schema/qcert.capnp.h"

namespace qcert::partizan {

namespace {
::Piece toSchema(Piece p) {
  switch (p) {
    case Piece::queen: return ::Piece::QUEEN;
    case Piece::rook: return ::Piece::ROOK;
    case Piece::bishop: return ::Piece::BISHOP;
    case Piece::king: return ::Piece::KING;
    case Piece::knight: return ::Piece::KNIGHT;
  }
  return ::Piece::QUEEN;
}

std::string side(int n, Piece piece, const char* who, const std::vector<int>& squares) {
  std::string s = std::string(who) + "'s " + pieceName(piece, squares.size() != 1) + " on ";
  for (size_t i = 0; i < squares.size(); ++i) s += (i ? ", " : "") + squareName(n, squares[i]);
  return s;
}
}  // namespace

std::string gameText(const PartizanSpec& s) {
  const std::string board = std::to_string(s.n) + "x" + std::to_string(s.n) + " board";
  std::string text = std::string("the partizan ") + pieceName(s.piece, true) + " game on ";
  if (s.left.empty() && s.right.empty()) {
    text += "the empty " + board;
  } else {
    text += "the " + board + " with ";
    if (!s.left.empty()) text += side(s.n, s.piece, "Left", s.left);
    if (!s.left.empty() && !s.right.empty()) text += " and ";
    if (!s.right.empty()) text += side(s.n, s.piece, "Right", s.right);
  }
  if (s.rule == Rule::blocking) text += " (chess convention: lines stop at the first piece)";
  return text;
}

std::string statement(const PartizanSpec& s) {
  std::string lemma;
  if (s.mirror.map != 0)
    lemma = std::string(", by the mirror lemma (") + (s.mirror.centre >= 0 ? squareName(s.n, s.mirror.centre) + " first, then the " : "") +
            mirrorName(s.mirror.map) + ")";
  return std::string(playerName(s.toMove)) + ", moving first, " + (s.moverWins ? "wins " : "loses ") + gameText(s) + lemma;
}

uint64_t writePartizanCertificate(const std::string& path, const PartizanSpec& s, const std::string& producer) {
  capnp::MallocMessageBuilder msg;
  auto header = msg.initRoot<Header>();
  header.setFormatVersion(FORMAT_VERSION);
  header.setProducer(producer);
  auto c = header.initPartizan();
  c.setBoardSize(uint16_t(s.n));
  c.setPiece(toSchema(s.piece));
  c.setRule(s.rule == Rule::open ? ::PartizanRule::OPEN : ::PartizanRule::BLOCKING);
  auto l = c.initLeft(unsigned(s.left.size()));
  for (size_t i = 0; i < s.left.size(); ++i) l.set(unsigned(i), uint16_t(s.left[i]));
  auto r = c.initRight(unsigned(s.right.size()));
  for (size_t i = 0; i < s.right.size(); ++i) r.set(unsigned(i), uint16_t(s.right[i]));
  c.setToMove(s.toMove == Player::left ? ::Player::LEFT : ::Player::RIGHT);
  c.setMoverWins(s.moverWins);
  auto rep = c.initReplies(unsigned(s.replies.size()));
  for (size_t i = 0; i < s.replies.size(); ++i) {
    rep[unsigned(i)].setLeft(s.replies[i].left);
    rep[unsigned(i)].setRight(s.replies[i].right);
    rep[unsigned(i)].setMove(uint16_t(s.replies[i].move));
  }
  c.setMirror(::DefaultReply(s.mirror.map));
  c.setProducer(producer);
  auto words = capnp::messageToFlatArray(msg);
  const auto bytes = words.asBytes();
  return writeHeaderOnlyCertificate(path, bytes.begin(), bytes.size()).bytes;
}

}  // namespace qcert::partizan
