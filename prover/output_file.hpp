// The one rule for every file the prover and the ui write (certificates,
// manifests, work-unit files and markers, spools, the HTML report):
//
//  - a target is written only where nothing is, or a regular file is: a
//    directory, device, FIFO or socket there is refused, before any work and
//    again just before the rename (run as root, `--out /dev/null` once
//    replaced the system's /dev/null by a regular file);
//  - an empty path is refused (an unset shell variable must not throw a
//    proof away without a word);
//  - the new contents go to a temporary beside the target, created with
//    O_EXCL, so it can neither follow nor reuse a link, FIFO or device of
//    that name, and are renamed over the target only when complete; a
//    symbolic link at the target is refused as well (neither cut nor
//    written through).
//
// The checker writes nothing, so nothing here is shared with it.
#pragma once
#include <cstdio>
#include <stdexcept>
#include <string>

namespace qcert {

// A target that may not be written; what() is one line,
// "cannot write --out PATH: reason" (the commands print it and exit 2).
struct OutputRefused : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// Tried before any work, so that a typo costs nothing rather than a whole
// run. Throws OutputRefused for an empty path, a path naming anything but a
// regular file, or a folder that takes no new file
// (tried by creating and removing a probe file beside the path).
void checkOutputFile(const std::string& option, const std::string& path);
// The same for a folder of outputs: refuses an empty path, something that is
// not a directory, and a directory that takes no new file; where the folder
// is absent, the deepest folder above it that is there must take a new entry
// (the folder itself is created by the work, with its parents).
void checkOutputDirectory(const std::string& option, const std::string& path);

// The temporary that OutputFile(target, role) writes beside its target:
// TARGET.[ROLE.]PID.tmp, fixed for this process so that a signal
// handler, which may not allocate, can remove it by a name made in advance.
std::string temporaryPathFor(const std::string& target, const std::string& role = "");

// True when path is a regular file (a symbolic link followed), false when
// nothing is there; throws std::runtime_error when something else is, so
// that a FIFO in a work-unit folder is an error, not a read that never ends.
bool regularFileExists(const std::string& path);

// A file being written beside its target. The temporary is removed by the
// destructor unless commit() put it in place, or a commit that could not
// complete kept it (its name is in the error: a finished proof is not
// deleted because its target changed during the run).
class OutputFile {
 public:
  // role tells apart several temporaries beside one target ("chunks" for a
  // certificate's spool). Throws std::runtime_error when the temporary cannot
  // be created, and OutputRefused when the target is not a regular file.
  explicit OutputFile(const std::string& target, const std::string& role = "");
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::FILE* stream() const { return stream_; }  // open for reading and writing
  const std::string& temporaryPath() const { return temporary_; }
  void write(const void* data, size_t bytes);  // throws std::runtime_error on a short write
  // Flushes and syncs the temporary, checks once more that the target is
  // absent or a regular file, and renames the temporary over it.
  void commit();

 private:
  std::string target_, temporary_;
  std::FILE* stream_ = nullptr;
  bool removeTemporary_ = true;  // false once it is the target, or kept for the user
};

// text into target through an OutputFile.
void writeFileReplacing(const std::string& target, const std::string& text);

}  // namespace qcert
