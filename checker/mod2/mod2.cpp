// The mod-2 certificate's claim: ranges, the fields each kind may use (every
// other one must be empty or zero: fail closed), then the kind's own check.
#include "checker/mod2/mod2.hpp"

#include "checker/mod2/rules.hpp"

#include <capnp/serialize.h>

#include <ostream>

namespace qcert::checker {
namespace {

using namespace mod2;

// The claim's optional fields, one bit each.
enum Field : unsigned {
  kSequence = 1, kMoves = 2, kEnd = 4, kCount = 8, kStructure = 16, kExhaustive = 32, kTotals = 64,
  kClasses = 128, kOtherRule = 256, kStart = 512, kHeap = 1024, kOutcome = 2048, kGrundy = 4096, kReplies = 8192,
};

// Rejects the first field outside `uses` that is not empty or zero.
void requireUnused(Mod2Claim::Reader c, unsigned uses, const std::string& kind) {
  const struct { Field field; const char* name; bool empty; } fields[] = {
      {kSequence, "sequence", c.getSequence() == Mod2Sequence::EXPLICIT},
      {kMoves, "moves", c.getMoves().size() == 0},
      {kEnd, "end", c.getEnd() == Mod2End::COMPLETE},
      {kCount, "count", c.getCount() == 0},
      {kStructure, "structure", c.getStructure() == Mod2Structure::NO_COMPLETE},
      {kExhaustive, "exhaustive", c.getExhaustive() == Mod2Exhaustive::LEGAL_COUNT},
      {kTotals, "totals", c.getTotals().size() == 0},
      {kClasses, "classes", c.getClasses().size() == 0},
      {kOtherRule, "otherRule", c.getOtherRule() == Mod2Rule::STANDARD},
      {kStart, "start", c.getStart().size() == 0},
      {kHeap, "heap", c.getHeap() == 0},
      {kOutcome, "outcome", c.getOutcome() == Outcome::WIN},
      {kGrundy, "grundy", !c.getGrundy()},
      {kReplies, "replies", c.getReplies().size() == 0},
  };
  for (const auto& f : fields)
    if (!(uses & f.field) && !f.empty) throw Rejection("field " + std::string(f.name) + " must be empty or zero in a " + kind + " claim");
}

void requireSize(unsigned n, unsigned max, const std::string& kind) {
  if (n < 1 || n > max)
    throw Rejection("board size " + std::to_string(n) + " is outside 1.." + std::to_string(max) + " for " + kind + " claims");
}

}  // namespace

std::string verifyMod2Certificate(const Certificate& cert, std::ostream* announce) {
  // Lists are read once each; 2^22 replies of 2 words fit well inside this.
  capnp::ReaderOptions options;
  options.traversalLimitInWords = uint64_t(1) << 26;
  capnp::FlatArrayMessageReader reader(cert.header, options);
  const auto claim = reader.getRoot<Header>().getMod2();
  const unsigned n = claim.getBoardSize();
  const unsigned ruleValue = unsigned(claim.getRule());
  if (ruleValue > 2) throw Rejection("unknown mod-2 rule " + std::to_string(ruleValue));
  const Rule rule = Rule(ruleValue);
  auto standardOnly = [&](const std::string& kind) {
    if (rule != Rule::standard) throw Rejection("a " + kind + " claim is about the standard rule");
  };
  switch (claim.getKind()) {
    case Mod2Kind::PLAY:  // at most 1024 moves or n^2 generated ones: no announcement
      requireSize(n, 32, "play");
      standardOnly("play");
      requireUnused(claim, kSequence | kMoves | kEnd | kCount, "play");
      return verifyPlay(claim, n);
    case Mod2Kind::STRUCTURE:
      requireSize(n, 32, "structure");
      standardOnly("structure");
      requireUnused(claim, kStructure, "structure");
      return verifyStructure(claim, n);
    case Mod2Kind::EXHAUSTIVE: {
      unsigned uses = kExhaustive, max = 6;
      const char* name = "";
      switch (claim.getExhaustive()) {
        case Mod2Exhaustive::LEGAL_COUNT: uses |= kTotals | kClasses, name = "legalCount"; break;
        case Mod2Exhaustive::MOST_QUEENS: uses |= kCount, name = "mostQueens"; break;
        case Mod2Exhaustive::OUTCOME: uses |= kOutcome | kStart, name = "outcome"; break;
        case Mod2Exhaustive::FEWEST_LOCKING: uses |= kCount | kMoves, max = 8, name = "fewestLocking"; break;
        case Mod2Exhaustive::COMPLEMENT_MAP: uses |= kOtherRule, max = 4, name = "complementMap"; break;
        case Mod2Exhaustive::PLAY_COUNT: uses |= kTotals, max = 5, name = "playCount"; break;
        default: throw Rejection("unknown exhaustive claim " + std::to_string(unsigned(claim.getExhaustive())));
      }
      requireSize(n, max, name);
      if (claim.getExhaustive() == Mod2Exhaustive::OUTCOME) {
        if (rule == Rule::complementary) throw Rejection("an outcome claim is about the standard or the alternate-universe rule");
      } else if (claim.getExhaustive() != Mod2Exhaustive::COMPLEMENT_MAP) {
        standardOnly("legalCount, mostQueens, fewestLocking or playCount");
      }
      requireUnused(claim, uses, name);
      return verifyExhaustive(claim, n, announce);
    }
    case Mod2Kind::GAME:
      requireSize(n, 8, "game");
      requireUnused(claim, kStart | kHeap | kOutcome | kGrundy | kReplies, "game");
      return verifyGame(claim, n, rule, announce);
  }
  throw Rejection("unknown mod-2 claim kind " + std::to_string(unsigned(claim.getKind())));
}

}  // namespace qcert::checker
