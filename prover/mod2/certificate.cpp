// Mod-2 game certificates: Header{formatVersion, mod2}, Seal
// (docs/mod2-game.md, "Certificate file"), and the statements the checker
// prints for them.
#include <capnp/message.h>
#include <capnp/serialize.h>

#include <numeric>
#include <stdexcept>

#include "prover/mod2/mod2.hpp"
#include "prover/sealed_file.hpp"
#include "schema/qcert.capnp.h"

namespace qcert::mod2 {

namespace {
::Mod2Rule toSchema(Rule r) {
  switch (r) {
    case Rule::standard: return ::Mod2Rule::STANDARD;
    case Rule::alternate: return ::Mod2Rule::ALTERNATE;
    case Rule::complementary: return ::Mod2Rule::COMPLEMENTARY;
  }
  return ::Mod2Rule::STANDARD;
}

std::string board(int n) { return std::to_string(n) + "x" + std::to_string(n) + " board"; }
std::string queensWord(uint64_t k) { return std::to_string(k) + (k == 1 ? " queen" : " queens"); }

std::string squares(int n, const std::vector<int>& v, size_t from = 0) {
  std::string s;
  for (size_t i = from; i < v.size(); ++i) s += (i > from ? ", " : "") + squareName(n, v[i]);
  return s;
}

std::string list(const std::vector<uint64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

std::vector<int> namedOrder(const Mod2Spec& s) {
  switch (s.sequence) {
    case Sequence::brownLadhaComplete: return brownLadhaCompleteOrder(s.n);
    case Sequence::brownLadhaLocked: return brownLadhaLockedOrder(s.n);
    default: return s.moves;
  }
}
}  // namespace

uint64_t writeMod2Certificate(const std::string& path, const Mod2Spec& s, const std::string& producer) {
  capnp::MallocMessageBuilder msg;
  auto header = msg.initRoot<Header>();
  header.setFormatVersion(FORMAT_VERSION);
  header.setProducer(producer);
  auto c = header.initMod2();
  c.setRule(toSchema(s.rule));
  c.setBoardSize(uint16_t(s.n));
  c.setProducer(producer);
  switch (s.kind) {
    case Mod2Spec::Kind::play: {
      c.setKind(::Mod2Kind::PLAY);
      c.setSequence(s.sequence == Sequence::explicitMoves        ? ::Mod2Sequence::EXPLICIT
                    : s.sequence == Sequence::brownLadhaComplete ? ::Mod2Sequence::BROWN_LADHA_COMPLETE
                                                                 : ::Mod2Sequence::BROWN_LADHA_LOCKED);
      if (s.sequence == Sequence::explicitMoves) {
        auto m = c.initMoves(unsigned(s.moves.size()));
        for (size_t i = 0; i < s.moves.size(); ++i) m.set(unsigned(i), uint16_t(s.moves[i]));
      }
      switch (s.end) {
        case End::complete: c.setEnd(::Mod2End::COMPLETE); break;
        case End::locked: c.setEnd(::Mod2End::LOCKED); break;
        case End::queens: c.setEnd(::Mod2End::QUEENS), c.setCount(s.count); break;
        case End::illegalAt: c.setEnd(::Mod2End::ILLEGAL_AT), c.setCount(s.count); break;
      }
      break;
    }
    case Mod2Spec::Kind::structure:
      c.setKind(::Mod2Kind::STRUCTURE);
      c.setStructure(s.atMostAllButTwo ? ::Mod2Structure::AT_MOST_ALL_BUT_TWO : ::Mod2Structure::NO_COMPLETE);
      break;
    case Mod2Spec::Kind::exhaustive:
      c.setKind(::Mod2Kind::EXHAUSTIVE);
      switch (s.exhaustive) {
        case Mod2Spec::Exhaustive::legalCount: {
          c.setExhaustive(::Mod2Exhaustive::LEGAL_COUNT);
          auto t = c.initTotals(unsigned(s.totals.size()));
          for (size_t i = 0; i < s.totals.size(); ++i) t.set(unsigned(i), s.totals[i]);
          auto k = c.initClasses(unsigned(s.classes.size()));
          for (size_t i = 0; i < s.classes.size(); ++i) k.set(unsigned(i), s.classes[i]);
          break;
        }
        case Mod2Spec::Exhaustive::mostQueens: c.setExhaustive(::Mod2Exhaustive::MOST_QUEENS), c.setCount(s.count); break;
        case Mod2Spec::Exhaustive::fewestLocking: {
          c.setExhaustive(::Mod2Exhaustive::FEWEST_LOCKING), c.setCount(s.count);
          auto m = c.initMoves(unsigned(s.moves.size()));  // the witness: a play locking with count queens
          for (size_t i = 0; i < s.moves.size(); ++i) m.set(unsigned(i), uint16_t(s.moves[i]));
          break;
        }
        case Mod2Spec::Exhaustive::playCount: {
          c.setExhaustive(::Mod2Exhaustive::PLAY_COUNT);
          auto t = c.initTotals(unsigned(s.totals.size()));
          for (size_t i = 0; i < s.totals.size(); ++i) t.set(unsigned(i), s.totals[i]);
          break;
        }
        case Mod2Spec::Exhaustive::complementMap:
          c.setExhaustive(::Mod2Exhaustive::COMPLEMENT_MAP), c.setOtherRule(toSchema(s.otherRule));
          break;
        case Mod2Spec::Exhaustive::outcome: {
          c.setExhaustive(::Mod2Exhaustive::OUTCOME), c.setOutcome(s.win ? ::Outcome::WIN : ::Outcome::LOSS);
          auto st = c.initStart(unsigned(s.start.size()));  // the alternate rule's given queen
          for (size_t i = 0; i < s.start.size(); ++i) st.set(unsigned(i), uint16_t(s.start[i]));
          break;
        }
      }
      break;
    case Mod2Spec::Kind::game: {
      c.setKind(::Mod2Kind::GAME);
      auto st = c.initStart(unsigned(s.start.size()));
      for (size_t i = 0; i < s.start.size(); ++i) st.set(unsigned(i), uint16_t(s.start[i]));
      c.setHeap(s.heap);
      c.setOutcome(s.win ? ::Outcome::WIN : ::Outcome::LOSS);
      c.setGrundy(s.grundy);
      auto rep = c.initReplies(unsigned(s.replies.size()));
      for (size_t i = 0; i < s.replies.size(); ++i) {
        rep[unsigned(i)].setQueens(s.replies[i].queens);
        rep[unsigned(i)].setHeap(s.replies[i].heap);
        rep[unsigned(i)].setMove(s.replies[i].move);
      }
      break;
    }
  }
  auto words = capnp::messageToFlatArray(msg);
  const auto bytes = words.asBytes();
  return writeHeaderOnlyCertificate(path, bytes.begin(), bytes.size()).bytes;
}

std::string statement(const Mod2Spec& s) {
  const int n = s.n;
  const std::string game = gameName(s.rule);
  switch (s.kind) {
    case Mod2Spec::Kind::play: {
      const std::vector<int> moves = namedOrder(s);
      const PlayOutcome p = replayStandard(n, moves);
      std::string lead;
      if (s.sequence == Sequence::brownLadhaComplete) lead = "the order of Brown-Ladha Claim 3.1 (Figure 3a as read by qcert, Steps 1-4)";
      if (s.sequence == Sequence::brownLadhaLocked) lead = "the order of Brown-Ladha Claim 4.1 (Figure 5's moves repeated, then the corner)";
      if (p.end == End::illegalAt) {
        const std::string why = "move " + std::to_string(p.failedMove) + ", " + squareName(n, p.failedSquare) + ", " + p.why;
        if (lead.empty()) return "the given sequence is not a legal play of the " + game + " on the " + board(n) + ": " + why;
        return lead + " is not a legal play on the " + board(n) + ": " + why;
      }
      std::string what;
      if (p.end == End::complete) what = "fills the " + board(n) + " (" + queensWord(uint64_t(p.queens)) + ")";
      else if (p.end == End::locked && s.end == End::locked) what = "locks the " + board(n) + " with " + queensWord(uint64_t(p.queens));
      else what = "places " + queensWord(uint64_t(p.queens)) + " on the " + board(n);
      if (lead.empty()) return "a legal play of the " + game + " " + what;
      return lead + " is a legal play that " + what;
    }
    case Mod2Spec::Kind::structure:
      if (s.atMostAllButTwo)
        return "no legal position of the " + game + " on the " + board(n) + " has more than " + std::to_string(n * n - 2) + " queens";
      return "no legal position of the " + game + " on the " + board(n) + " is complete";
    case Mod2Spec::Kind::exhaustive:
      switch (s.exhaustive) {
        case Mod2Spec::Exhaustive::legalCount: {
          const uint64_t T = std::accumulate(s.totals.begin(), s.totals.end(), uint64_t{0});
          const uint64_t C = std::accumulate(s.classes.begin(), s.classes.end(), uint64_t{0});
          return "the " + game + " on the " + board(n) + " has " + std::to_string(T) + " legal positions (" + std::to_string(C) +
                 " up to symmetry); by number of queens 0.." + std::to_string(n * n) + ": " + list(s.totals) +
                 "; up to symmetry: " + list(s.classes);
        }
        case Mod2Spec::Exhaustive::mostQueens:
          return "the most queens in a legal position of the " + game + " on the " + board(n) + " is " + std::to_string(s.count);
        case Mod2Spec::Exhaustive::fewestLocking:
          return "the fewest queens in a legal locked position of the " + game + " on the " + board(n) + " is " +
                 std::to_string(s.count);
        case Mod2Spec::Exhaustive::playCount:
          return "the " + game + " on the " + board(n) + " has " + std::to_string(s.totals.empty() ? 0 : s.totals[0]) +
                 (!s.totals.empty() && s.totals[0] == 1 ? " distinct play" : " distinct plays") + " from the empty board to a position with no move";
        case Mod2Spec::Exhaustive::complementMap:
          if (n % 2)
            return "the complement map is an isomorphism between the standard and the complementary mod-2 games on the " + board(n);
          return "the complement map is an isomorphism between the alternate-universe mod-2 game started with a queen on g and "
                 "the complementary mod-2 game started from the full board less g, for every square g of the " + board(n);
        case Mod2Spec::Exhaustive::outcome:
          return std::string("the player to move ") + (s.win ? "wins" : "loses") + " the " + game + " on the " + board(n) +
                 (s.rule == Rule::alternate && !s.start.empty() ? " started with a queen on " + squareName(n, s.start[0]) : "");
      }
      break;
    case Mod2Spec::Kind::game: {
      std::string where = game + " on the " + board(n);
      if (s.rule == Rule::alternate && !s.start.empty()) {
        where += " started with a queen on " + squareName(n, s.start[0]);
        if (s.start.size() > 1) where += " after " + squares(n, s.start, 1);
      } else if (s.rule == Rule::complementary && !s.start.empty()) {
        where += " after removing " + squares(n, s.start);
      } else if (!s.start.empty()) {
        where += " after " + squares(n, s.start);
      }
      if (s.grundy) return "the Grundy value of the " + where + " is " + std::to_string(s.heap);
      return std::string("the player to move ") + (s.win ? "wins" : "loses") + " the " + where +
             (s.heap ? " plus a Nim heap of " + std::to_string(s.heap) : "");
    }
  }
  return "";
}

}  // namespace qcert::mod2
