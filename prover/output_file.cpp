#include "prover/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace qcert {

namespace {

std::string kindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "a special file";
}

// "" when path may be replaced (nothing there, or a regular file), else why
// not. A symbolic link is refused too: replacing it would cut it, writing
// through it would put a manifest away from the units it names.
std::string whyNotReplaceable(const std::string& path) {
  struct stat st{};
  if (lstat(path.c_str(), &st) != 0) return errno == ENOENT ? "" : std::strerror(errno);
  if (S_ISREG(st.st_mode)) return "";
  if (S_ISLNK(st.st_mode)) return "it is a symbolic link (name the file itself)";
  return "it is " + kindOf(st.st_mode) + ", not a regular file";
}

// Creates path for reading and writing where nothing is (O_EXCL also refuses
// a symbolic link of that name). A regular file there is a temporary left by
// an earlier process of the same id, killed before it could remove it:
// removed and created afresh. Returns the descriptor, or -1 with `why`.
int createExclusively(const std::string& path, std::string& why) {
  const int flags = O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
  int fd = open(path.c_str(), flags, 0644);
  if (fd < 0 && errno == EEXIST) {
    struct stat st{};
    if (lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
      why = path + " exists and is " + (S_ISLNK(st.st_mode) ? std::string("a symbolic link") : kindOf(st.st_mode));
      return -1;
    }
    unlink(path.c_str());
    fd = open(path.c_str(), flags, 0644);
  }
  if (fd < 0) why = std::strerror(errno);
  return fd;
}

// Whether a new file can be made where `probe` names one (then removed).
std::string whyNoNewFile(const std::string& probe) {
  std::string why;
  const int fd = createExclusively(probe, why);
  if (fd < 0) return why;
  close(fd);
  unlink(probe.c_str());
  return "";
}

[[noreturn]] void refuse(const std::string& option, const std::string& path, const std::string& why) {
  throw OutputRefused("cannot write " + option + " " + path + ": " + why);
}

}  // namespace

std::string temporaryPathFor(const std::string& target, const std::string& role) {
  return target + "." + (role.empty() ? "" : role + ".") + std::to_string(getpid()) + ".tmp";
}

void checkOutputFile(const std::string& option, const std::string& path) {
  if (path.empty()) throw OutputRefused(option + " is empty: name the file to write (was a shell variable unset?)");
  if (const std::string why = whyNotReplaceable(path); !why.empty()) refuse(option, path, why);
  if (const std::string why = whyNoNewFile(temporaryPathFor(path, "probe")); !why.empty()) refuse(option, path, why);
}

void checkOutputDirectory(const std::string& option, const std::string& path) {
  if (path.empty()) throw OutputRefused(option + " is empty: name the folder to write (was a shell variable unset?)");
  struct stat st{};
  if (stat(path.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) refuse(option, path, "it is " + kindOf(st.st_mode) + ", not a directory");
  } else if (errno != ENOENT) {
    refuse(option, path, std::strerror(errno));
  } else if (lstat(path.c_str(), &st) == 0) {
    refuse(option, path, "it is a symbolic link to nothing");
  } else {
    // Absent: the run creates it when the work starts (a run refused before
    // then leaves no empty folder behind), inside the deepest folder that is
    // there, which must take a new entry.
    std::filesystem::path existing = std::filesystem::absolute(path).parent_path();
    while (stat(existing.c_str(), &st) != 0 && existing.has_relative_path()) existing = existing.parent_path();
    if (!S_ISDIR(st.st_mode)) refuse(option, path, existing.string() + " is " + kindOf(st.st_mode) + ", not a directory");
    if (const std::string why = whyNoNewFile((existing / (".probe." + std::to_string(getpid()) + ".tmp")).string()); !why.empty())
      refuse(option, path, why);
    return;
  }
  if (const std::string why = whyNoNewFile(path + "/.probe." + std::to_string(getpid()) + ".tmp"); !why.empty())
    refuse(option, path, why);
}

bool regularFileExists(const std::string& path) {
  struct stat st{};
  if (stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return false;
    throw std::runtime_error("cannot read " + path + ": " + std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) throw std::runtime_error(path + " is " + kindOf(st.st_mode) + ", not a regular file");
  return true;
}

OutputFile::OutputFile(const std::string& target, const std::string& role) : target_(target) {
  if (target.empty()) throw OutputRefused("cannot write a file with an empty name");
  if (const std::string why = whyNotReplaceable(target_); !why.empty())
    throw OutputRefused("cannot write " + target + ": " + why);
  temporary_ = temporaryPathFor(target_, role);
  std::string why;
  const int fd = createExclusively(temporary_, why);
  if (fd < 0) throw std::runtime_error("cannot create " + temporary_ + ": " + why);
  stream_ = fdopen(fd, "w+b");
  if (!stream_) {
    const int err = errno;
    close(fd);
    unlink(temporary_.c_str());
    throw std::runtime_error("cannot open " + temporary_ + ": " + std::strerror(err));
  }
}

OutputFile::~OutputFile() {
  if (stream_) std::fclose(stream_);
  if (removeTemporary_) unlink(temporary_.c_str());
}

void OutputFile::write(const void* data, size_t bytes) {
  if (bytes && std::fwrite(data, 1, bytes, stream_) != bytes)
    throw std::runtime_error("cannot write " + temporary_ + ": " + std::strerror(errno));
}

void OutputFile::commit() {
  const bool synced = std::fflush(stream_) == 0 && fsync(fileno(stream_)) == 0;
  const int err = errno;
  const bool closed = std::fclose(stream_) == 0;
  stream_ = nullptr;
  if (!synced || !closed) throw std::runtime_error("cannot write " + temporary_ + ": " + std::strerror(synced ? errno : err));
  // The target may have changed since the check before the work (a run can
  // take days): look again. What was written is complete, so it stays.
  if (const std::string why = whyNotReplaceable(target_); !why.empty()) {
    removeTemporary_ = false;
    throw std::runtime_error("cannot write " + target_ + ": since the work began, " + why + "; what was written is kept in " +
                             temporary_);
  }
  if (std::rename(temporary_.c_str(), target_.c_str()) != 0) {
    removeTemporary_ = false;
    throw std::runtime_error("cannot rename " + temporary_ + " to " + target_ + ": " + std::strerror(errno) +
                             "; what was written is kept in " + temporary_);
  }
  removeTemporary_ = false;  // the name is the target's now
}

void writeFileReplacing(const std::string& target, const std::string& text) {
  OutputFile out(target);
  out.write(text.data(), text.size());
  out.commit();
}

}  // namespace qcert
