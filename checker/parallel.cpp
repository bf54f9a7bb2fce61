#include "checker/parallel.hpp"

#include "checker/board.hpp"  // Rejection
#include "checker/certificate_file.hpp"
#include "checker/limits.hpp"

#include <kj/exception.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

namespace qcert::checker {

std::string printableText(const std::string& text, char replacement) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (const unsigned char ch : text)
    if (ch >= 0x20 && ch < 0x7f) out += char(ch);
    else if (replacement) out += replacement;
    else out += {'\\', 'x', kHex[ch >> 4], kHex[ch & 15]};
  return out;
}

namespace {

Failure failureBeingHandled() {
  try {
    throw;
  } catch (const Rejection& e) {
    return {FailureKind::rejected, e.what()};
  } catch (const kj::Exception& e) {
    return {FailureKind::rejected, std::string("malformed Cap'n Proto data: ") + e.getDescription().cStr()};
  } catch (const IoError& e) {
    return {FailureKind::ioError, e.what()};
  } catch (const NotChecked& e) {
    return {FailureKind::notChecked, e.what()};
  } catch (const std::bad_alloc&) {
    return {FailureKind::notChecked, limits::outOfMemoryText()};
  } catch (const std::system_error& e) {  // threads that cannot start
    return {FailureKind::notChecked, std::string("the system refused a resource: ") + e.what()};
  } catch (const std::exception& e) {
    return {FailureKind::notChecked, std::string("internal error: ") + e.what()};
  } catch (...) {
    return {FailureKind::notChecked, "internal error"};
  }
}

}  // namespace

Failure currentFailure() {
  Failure f = failureBeingHandled();
  f.text = printableText(f.text);
  return f;
}

void throwFailure(const Failure& failure) {
  switch (failure.kind) {
    case FailureKind::rejected: throw Rejection(failure.text);
    case FailureKind::ioError: throw IoError(failure.text);
    case FailureKind::notChecked: break;
  }
  throw NotChecked(failure.text);
}

void forEachItem(unsigned jobs, size_t items, const std::function<void(size_t)>& body,
                 const std::function<std::string(size_t)>& label) {
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;
  size_t firstBad = SIZE_MAX;
  Failure first{FailureKind::notChecked, ""};
  auto worker = [&] {
    for (size_t i; !failed && (i = next++) < items;) {
      try {
        body(i);
      } catch (...) {
        Failure f = currentFailure();
        std::lock_guard lock(mutex);
        if (i < firstBad) firstBad = i, first = {f.kind, label(i) + ": " + f.text};
        failed = true;
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned k = 0; k < std::max(1u, jobs) && k < items; ++k) try {
      pool.emplace_back(worker);
    } catch (const std::system_error&) {  // fewer threads than asked for will do
      if (pool.empty()) throw NotChecked("cannot start a checking thread (the system refused it)");
      break;
    }
  for (auto& t : pool) t.join();
  if (failed) throwFailure(first);
}

}  // namespace qcert::checker
