// The checker's side of qcert replies (replies.hpp): only checker headers here.
// The checker library verifies the certificate in full; its read-only reply
// hook (checker/checker.hpp, ReplyObserver) is told every winner decision, and
// only those at the positions after the loser's first moves (or their images
// under the board's group) are kept.
#include <capnp/serialize.h>

#include <filesystem>
#include <mutex>
#include <sstream>
#include <unordered_map>

#include "checker/board.hpp"
#include "checker/certificate_file.hpp"
#include "checker/checker.hpp"
#include "ui/checker_run.hpp"
#include "checker/manifest.hpp"
#include "checker/parallel.hpp"
#include "ui/cert_positions.hpp"
#include "schema/qcert.capnp.h"
#include "ui/replies.hpp"

namespace qcert::ui {
using namespace checker;  // the checker side of the front end: checker headers only
namespace {

PositionKey keyOf(const Bits<8>& L, uint32_t h) { return PositionKey{L.w, h}; }

[[noreturn]] void fail(int status, const std::string& why) { throw CertificateError(status, why); }

// The token's move at (L, h): a square, or -1 - h'; nullopt for a token that names none.
std::optional<int> tokenMove(const Bits<8>& L, uint32_t h, uint32_t token) {
  const TokenMove move = decodeToken(L.w, h, token);
  if (move.kind == TokenMove::Kind::none) return std::nullopt;
  return move.observerMove();
}

// The winner's first decision at the root of a win claim, read before the
// check (the check then verifies it): a manifest's winBy, or the first token
// of the certificate (or of the plan's one shard), which the replay reads at
// the root when the root has more free squares than the cut-off.
std::optional<int> firstDecision(const Certificate& cert, const std::string& path, const Bits<8>& root, uint32_t heap) {
  if (cert.hasPlan) {
    capnp::ReaderOptions options;
    options.traversalLimitInWords = uint64_t(1) << 30;
    capnp::FlatArrayMessageReader reader(cert.header, options);
    const auto plan = reader.getRoot<Header>().getPlan();
    if (plan.isWinBy()) return tokenMove(root, heap, plan.getWinBy().getMove());
    if (!plan.isShard()) return std::nullopt;
    // Read before the check: only a path the checker's plan rule allows is
    // opened (the check then rejects the rest), and a shard that is itself a
    // manifest, which the checker rejects too, is not followed.
    const std::string shardPath = plan.getShard().getPath();
    if (!shardPathAllowed(shardPath)) return std::nullopt;
    const std::string dir = std::filesystem::path(path).parent_path().string();
    MappedFile shardFile((dir.empty() ? std::string(".") : dir) + "/" + shardPath);
    const Certificate shard = readCertificate(shardFile);
    if (shard.hasPlan || shard.parts) return std::nullopt;  // both rejected by the check: no first move from them
    return firstDecision(shard, path, root, heap);
  }
  if (cert.replyCount == 0 || root.count() <= cert.cutoff) return std::nullopt;
  TokenStream tokens(cert);
  return tokenMove(root, heap, tokens.next());
}

}  // namespace

bool isShardManifest(const std::string& path) {
  try {
    MappedFile file(path);
    return readCertificate(file).hasPlan;
  } catch (...) {
    return false;
  }
}

ReplyTable loadReplyTable(const std::string& path, unsigned jobs, double timeLimitSeconds, bool checkerProgress) {
  ReplyTable table;
  Certificate header;
  try {
    MappedFile file(path);
    header = readCertificate(file);
    if (header.isCount || header.isMod2 || header.isPartizan)
      fail(2, path + " is a " + (header.isCount ? "count" : header.isMod2 ? "mod-2 game" : "partizan game") +
                  " certificate; reply tables come from certificates of the placing game (prover prove or grundy)");
    if (header.board.rows * header.board.cols > 512) fail(2, "board too large");
    const Geometry<8> geo(header.board);
    Bits<8> root = geo.onBoard;
    for (unsigned q : header.queens) {
      if (q >= geo.squares || !root.test(q)) fail(1, "REJECTED: the claim's queens cannot be placed in order");
      root = root.without(geo.attack[q]);
    }
    table.before = header.queens;
    if (header.parts)
      table.noStoredMoves = "the certificate is a table of independent parts (docs/parts.md): it stores the Grundy values of "
                            "parts of positions, which the checker verifies, and no moves";
    else if (header.mirrorLemma)
      table.noStoredMoves = "the certificate proves the loss by the mirror lemma (docs/variants.md), whose conditions the checker "
                            "verifies on the board; it stores no moves";
    table.heap = header.heap;
    Bits<8> L = root;
    if (header.claimWin) {
      table.winnerMovesFirst = true;
      // Only a certificate of replies has a first decision: a table of parts
      // begins with an entry's size, which the checker reads as a size.
      if (!header.mirrorLemma && !header.parts) table.winnerFirst = firstDecision(header, path, root, header.heap);
      if (!table.winnerFirst) {
        // Not stored (the root is at or below the cut-off): the prover's side
        // finds the move; nothing of the loser's turn comes from the file.
      } else if (*table.winnerFirst >= 0) {
        table.winnerFirstFrom = FirstReply::From::certificate;
        table.before.push_back(unsigned(*table.winnerFirst));
        L = root.without(geo.attack[unsigned(*table.winnerFirst)]);
      } else {
        table.winnerFirstFrom = FirstReply::From::certificate;
        table.heap = uint32_t(-1 - *table.winnerFirst);
      }
    }
    // The loser's moves at (L, heap) in the checker's order, and every image
    // of the position each leaves.
    std::unordered_map<PositionKey, std::pair<size_t, size_t>, PositionKeyHash> wanted;  // image -> (row, g)
    if (!header.claimWin || table.winnerFirst) {
      for (int m : loserMovesInCheckerOrder(geo, L, table.heap)) {
        FirstReply row;
        row.move = m;
        const Bits<8> after = m >= 0 ? L.without(geo.attack[unsigned(m)]) : L;
        const uint32_t afterHeap = m >= 0 ? table.heap : uint32_t(-1 - m);
        row.belowCutoff = !header.hasPlan && after.count() <= header.cutoff;
        for (size_t g = 0; g < geo.sym.size(); ++g) wanted.emplace(keyOf(geo.image(g, after), afterHeap), std::make_pair(table.rows.size(), g));
        table.rows.push_back(row);
      }
    }
    std::mutex mutex;
    const ReplyObserver observer = [&](const uint64_t* words, unsigned count, uint32_t heap, int move) {
      const auto it = wanted.find(PositionKey::fromWords(words, count, heap));
      if (it == wanted.end()) return;
      std::lock_guard lock(mutex);
      FirstReply& row = table.rows[it->second.first];
      if (row.reply) return;
      int reply = move;
      if (move >= 0)  // the reply at g(P) answers P with g^-1(reply)
        for (unsigned s = 0; s < geo.squares; ++s)
          if (geo.sym[it->second.second][s] == unsigned(move)) reply = int(s);
      row.reply = reply;
      row.from = FirstReply::From::certificate;
    };
    CertifiedClaim& c = table.claim;
    c.statement = verifiedStatement(path, jobs, timeLimitSeconds, &observer, checkerProgress);
    c.rows = header.board.rows, c.cols = header.board.cols, c.torus = header.board.torus, c.piece = header.board.piece;
    c.holes = header.board.holes;
    c.queens = header.queens;
    c.heap = header.heap;
    c.win = header.claimWin;
    c.grundy = header.grundy;
    c.cutoff = header.hasPlan ? 0 : header.cutoff;
    for (const FirstReply& r : table.rows) c.replies += r.from == FirstReply::From::certificate;
    return table;
  } catch (const CertificateError&) {
    throw;
  } catch (...) {
    const Failure f = currentFailure();
    throw CertificateError(f.kind == FailureKind::rejected ? 1 : 2, f.kind == FailureKind::rejected ? "REJECTED: " + f.text : f.text);
  }
}

}  // namespace qcert::ui
