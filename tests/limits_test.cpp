// The checker's time limit (checker/limits.hpp): the watchdog raises the flag
// at the deadline and only then, a new limit or none lowers it, and a limit
// that was cancelled before its deadline never fires.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "checker/limits.hpp"

namespace {

using namespace std::chrono_literals;
namespace limits = qcert::checker::limits;

bool raisedWithin(std::chrono::milliseconds wait) {
  const auto end = std::chrono::steady_clock::now() + wait;
  while (!limits::timeUp() && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(5ms);
  return limits::timeUp();
}

TEST(TimeLimit, RaisedAtTheDeadlineAndThrowsNotChecked) {
  limits::setTimeLimit(1);
  EXPECT_FALSE(limits::timeUp());
  EXPECT_NO_THROW(limits::checkTime());
  EXPECT_TRUE(raisedWithin(3000ms));
  EXPECT_THROW(limits::checkTime(), qcert::checker::NotChecked);
  limits::setTimeLimit(0);  // no limit: the flag is down and stays down
  EXPECT_FALSE(limits::timeUp());
  EXPECT_FALSE(raisedWithin(300ms));
}

TEST(TimeLimit, ACancelledLimitNeverFires) {
  limits::setTimeLimit(1);
  limits::setTimeLimit(0);
  EXPECT_FALSE(raisedWithin(1500ms));
  limits::setTimeLimit(1);
  limits::setTimeLimit(100);  // a later, longer limit replaces the earlier one
  EXPECT_FALSE(raisedWithin(1500ms));
  limits::setTimeLimit(0);
}

TEST(MemoryLimit, ReserveRefusesPastTheLimit) {
  limits::setMemoryLimit(uint64_t(64) << 20);
  EXPECT_NO_THROW(limits::reserve(1 << 20, "a small table"));
  EXPECT_THROW(limits::reserve(uint64_t(1) << 30, "a large table"), qcert::checker::NotChecked);
  limits::setMemoryLimit(0);
  EXPECT_GT(limits::memoryLimit(), uint64_t(64) << 20);  // the default: most of physical memory
}

}  // namespace
