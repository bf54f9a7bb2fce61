// The checker's read-only reply hook (checker/checker.hpp, ReplyObserver),
// which qcert explain and play use: it is told every winner decision the
// check reads, each a legal move at the position given, and it changes
// nothing about the check. Checker code only.
#include <gtest/gtest.h>

#include <map>
#include <vector>
#include <sstream>

#include "checker/certificate_file.hpp"
#include "checker/checker.hpp"
#include "checker/manifest.hpp"
#include "checker/replay.hpp"

using namespace qcert::checker;

namespace {

const std::string kCerts = QCERT_CERTS_DIR;

struct Seen {
  uint64_t calls = 0, boardMoves = 0, notLive = 0;
};

ReplyObserver counter(Seen& seen) {
  return [&seen](const uint64_t* words, unsigned count, uint32_t heap, int move) {
    ++seen.calls;
    if (move < 0) {
      if (uint32_t(-1 - move) >= heap) ++seen.notLive;
      return;
    }
    ++seen.boardMoves;
    if (unsigned(move) / 64 >= count || !(words[move / 64] >> (move % 64) & 1)) ++seen.notLive;
  };
}

}  // namespace

TEST(ReplyObserver, SeesEveryTokenAsALegalMoveAndChangesNothing) {
  for (const char* name : {"jenrich-n8.qcert", "jenrich-n12.qcert", "noon-F6.0-n9-b1.qcert"}) {
    MappedFile file(kCerts + "/" + name);
    const Certificate cert = readCertificate(file);
    TokenStream plainTokens(cert);
    const ReplayStats plain = replayCertificate(cert, plainTokens);
    Seen seen;
    const ReplyObserver observer = counter(seen);
    TokenStream tokens(cert);
    const ReplayStats watched = replayCertificate(cert, tokens, &observer);
    EXPECT_EQ(seen.calls, cert.replyCount) << name;
    EXPECT_GT(seen.calls, 0u) << name;
    EXPECT_EQ(seen.notLive, 0u) << name;
    EXPECT_EQ(watched.nodes, plain.nodes) << name;
    EXPECT_EQ(watched.memoEntries, plain.memoEntries) << name;
  }
}

// Through the checker's entry (check), a manifest: every shard's replies.
TEST(ReplyObserver, ManifestShardsThroughRunCheck) {
  Seen seen;
  const ReplyObserver observer = counter(seen);
  CheckOptions o;
  o.path = kCerts + "/rudd-G14.qcert";
  o.quiet = true;
  o.jobs = 1;  // this observer is not thread-safe: one shard at a time
  o.observer = &observer;
  std::ostringstream err;
  const Verdict v = check(o, err);
  ASSERT_EQ(v.kind, Verdict::Kind::Verified) << v.line() << err.str();
  EXPECT_EQ(v.statement, "the Grundy value of the empty 14x14 board is 0 (queens game)");
  EXPECT_GT(seen.calls, 1000u);
  EXPECT_EQ(seen.notLive, 0u);
  EXPECT_EQ(seen.boardMoves, seen.calls);  // heap 0: no heap moves
}

// export-table's mode (CheckOptions::repliesOnly): the same replies, in the
// same order, as a full check, and a verdict that never says VERIFIED.
TEST(ReplyObserver, RepliesOnlySeesTheSameRepliesAndProvesNothing) {
  for (const char* name : {"jenrich-n12.qcert", "noon-F6.0-n9-b1.qcert", "rudd-G14.qcert"}) {
    std::map<bool, std::vector<uint64_t>> calls;  // per mode: each call's words, heap and move
    std::map<bool, Verdict> verdicts;
    for (const bool repliesOnly : {false, true}) {
      std::vector<uint64_t>& log = calls[repliesOnly];
      const ReplyObserver observer = [&log](const uint64_t* words, unsigned count, uint32_t heap, int move) {
        log.insert(log.end(), words, words + count);
        log.push_back(heap), log.push_back(uint64_t(int64_t(move)));
      };
      CheckOptions o;
      o.path = kCerts + "/" + name;
      o.quiet = true;
      o.jobs = 1;
      o.observer = &observer;
      o.repliesOnly = repliesOnly;
      std::ostringstream err;
      verdicts[repliesOnly] = check(o, err);
    }
    EXPECT_EQ(verdicts[false].kind, Verdict::Kind::Verified) << name;
    EXPECT_FALSE(verdicts[false].repliesRead) << name;
    EXPECT_EQ(verdicts[true].kind, Verdict::Kind::NotChecked) << name;
    EXPECT_NE(verdicts[true].line().rfind("NOT CHECKED: ", 0), std::string::npos) << verdicts[true].line();
    EXPECT_TRUE(verdicts[true].repliesRead) << name;
    EXPECT_GT(calls[false].size(), 0u) << name;
    EXPECT_EQ(calls[true], calls[false]) << name;
  }
}
