// Every text file the front end reads by name (qcert report --results and
// --replies, qcert play --from): only a regular file, read whole into memory
// with its size and its lines bounded, so that /dev/zero or a FIFO named by
// mistake is one line of error, not a read that never ends or grows without
// bound. (Certificates are read by the checker library, which has the same
// rule: checker/certificate_file.hpp, regularFileSize.)
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>

namespace qcert::ui {

// Throws std::invalid_argument, one line saying what is wrong (callers put
// the path before it): it
// cannot be opened, is not a regular file, holds more than `maxBytes`, or has
// a line longer than `maxLine` bytes.
std::string readTextFile(const std::string& path, size_t maxBytes = size_t(64) << 20, size_t maxLine = size_t(1) << 16);

}  // namespace qcert::ui

#include <iosfwd>

namespace qcert::ui {

// One line typed at a prompt (qcert play), without its newline. A line of
// more than `maxLine` bytes (stdin from /dev/zero, say) is not kept: the
// reading stops there, as at the end of input, so memory stays bounded.
enum class InputLine { line, end, tooLong };
InputLine readInputLine(std::istream& in, std::string& line, size_t maxLine = 4096);

}  // namespace qcert::ui
