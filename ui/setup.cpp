#include "ui/setup.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <ostream>
#include <stdexcept>

#include "prover/board.hpp"
#include "ui/analysis.hpp"

namespace qcert::ui {
namespace {

std::vector<int> squaresOption(const Geometry& geo, const Values& v, const std::string& name) {
  if (!v.count(name)) return {};
  try {
    return parseSquareList(geo, v.at(name));
  } catch (const std::invalid_argument& e) {
    throw UsageError("--" + name + ": " + e.what());
  }
}

Variant variantOfCertificate(const CertifiedClaim& c) {
  Variant v;
  v.rows = int(c.rows), v.cols = int(c.cols), v.torus = c.torus;
  v.piece = Piece(c.piece);
  for (unsigned h : c.holes) v.holes.push_back(int(h));
  return v;
}

const char* kBoardWithCert[] = {"n", "board", "piece", "holes", "heap"};

}  // namespace

Variant variantOf(const Values& v, int defaultN) {
  Variant var;
  const std::string board = v.count("board") ? v.at("board") : "square";
  const bool haveN = v.count("n") > 0;
  const int n = haveN ? int(wholeNumber("n", v.at("n"), 1, kMaxBoard)) : defaultN;
  if (board == "square" || board == "torus") {
    if (n == 0) throw UsageError("no board given: use --n N (or --board MxN)");
    var.rows = var.cols = n;
    var.torus = board == "torus";
  } else {
    const size_t x = board.find('x');
    auto number = [](const std::string& t) {
      long k = 0;
      const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), k);
      return (t.empty() || ec != std::errc() || end != t.data() + t.size() || k < 1 || k > kMaxBoard) ? 0 : int(k);
    };
    const int rows = x == std::string::npos ? 0 : number(board.substr(0, x));
    const int cols = x == std::string::npos ? 0 : number(board.substr(x + 1));
    if (!rows || !cols)
      throw UsageError("--board must be square, torus or MxN (M ranks, N files, each 1.." + std::to_string(kMaxBoard) +
                       "), got '" + board + "'");
    if (haveN) throw UsageError("--n does not combine with --board MxN (the board gives the size)");
    var.rows = rows, var.cols = cols;
  }
  if (v.count("piece")) {
    const auto p = parsePiece(v.at("piece"));
    if (!p) throw UsageError("--piece must be queen, rook, bishop, king or knight, got '" + v.at("piece") + "'");
    var.piece = *p;
  }
  if (v.count("holes")) {
    const Geometry plain = variantGeometry(var);
    try {
      var.holes = parseSquareList(plain, v.at("holes"));
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--holes: ") + e.what());
    }
    std::sort(var.holes.begin(), var.holes.end());
    for (size_t i = 1; i < var.holes.size(); ++i)
      if (var.holes[i] == var.holes[i - 1]) throw UsageError("--holes names " + plain.squareName(var.holes[i]) + " twice");
    // Holes on every square are a game too, as the checker verifies it and
    // the prover proves it: the first player has no move and loses.
  }
  return var;
}

Setup setupOf(const Values& v, int defaultN, std::ostream& out) {
  Setup s;
  s.unicode = v.count("unicode") > 0;
  if (v.count("time-limit")) s.seconds = double(wholeNumber("time-limit", v.at("time-limit"), 1, 3600));
  if (v.count("cert")) {
    for (const char* o : kBoardWithCert)
      if (v.count(o)) throw UsageError(std::string("--") + o + " does not combine with --cert (the certificate names the board and position)");
    s.cert = Certified::load(v.at("cert"), 1, s.seconds);
    const CertifiedClaim& c = s.cert->claim();
    out << "Certificate " << v.at("cert") << ": VERIFIED by the checker library: " << c.statement << "\n";
    s.geo = variantGeometry(variantOfCertificate(c));
    for (unsigned q : c.queens) s.certPieces.push_back(int(q));
    s.pieces = s.certPieces;
    s.heap = c.grundy ? 0 : c.heap;
    if (c.grundy) s.certRootWins = c.heap != 0;
    else if (c.heap == 0) s.certRootWins = c.win;
  } else {
    Variant var;
    try {
      var = variantOf(v, defaultN);
      s.geo = variantGeometry(var);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
    if (v.count("heap")) s.heap = uint32_t(wholeNumber("heap", v.at("heap"), 0, 255));
  }
  const std::vector<int> more = squaresOption(s.geo, v, "queens");
  s.pieces.insert(s.pieces.end(), more.begin(), more.end());
  try {
    liveAfter(s.geo, s.pieces);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--queens: ") + e.what());
  }
  return s;
}

std::string listSquares(const Geometry& geo, const std::vector<int>& squares) {
  std::string s;
  for (size_t i = 0; i < squares.size(); ++i) s += (i ? ", " : "") + geo.squareName(squares[i]);
  return s;
}

std::string positionWords(const Setup& s) {
  std::string w = gameWords(s.geo.variant) + ", ";
  const char* piece = pieceName(s.geo.variant.piece, s.pieces.size() != 1);
  w += s.pieces.empty() ? std::string("empty") : "after " + std::string(piece) + " " + listSquares(s.geo, s.pieces);
  if (s.heap) w += ", with a Nim heap of " + std::to_string(s.heap);
  return w;
}

std::string seconds(double t) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f s", t);
  return text;
}

}  // namespace qcert::ui
