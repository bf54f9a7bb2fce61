#include "ui/text_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace qcert::ui {
namespace {

std::string grouped(size_t x) {
  const std::string digits = std::to_string(x);
  std::string s;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}

struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string readTextFile(const std::string& path, size_t maxBytes, size_t maxLine) {
  if (path.empty()) throw std::invalid_argument("the file name is empty");
  // O_NONBLOCK: opening a FIFO for reading must not wait for a writer; the
  // fstat below then refuses it, as it refuses devices and directories.
  const Descriptor file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (file.fd < 0) throw std::invalid_argument(std::string("cannot be read: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(file.fd, &st) != 0) throw std::invalid_argument(std::string("cannot be read: ") + std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    throw std::invalid_argument(std::string("not a regular file (") +
                                (S_ISDIR(st.st_mode)  ? "a directory"
                                 : S_ISFIFO(st.st_mode) ? "a FIFO"
                                 : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                                                                              : "a special file") +
                                ")");
  const int flags = ::fcntl(file.fd, F_GETFL);
  if (flags >= 0) ::fcntl(file.fd, F_SETFL, flags & ~O_NONBLOCK);
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(file.fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw std::invalid_argument(std::string("cannot be read: ") + std::strerror(errno));
    if (got == 0) break;
    if (text.size() + size_t(got) > maxBytes)
      throw std::invalid_argument("larger than " + grouped(maxBytes) + " bytes: not a file qcert reads");
    text.append(buffer, size_t(got));
  }
  size_t line = 1, start = 0;
  for (size_t at = 0; at <= text.size(); ++at) {
    if (at < text.size() && text[at] != '\n') continue;
    if (at - start > maxLine)
      throw std::invalid_argument("line " + std::to_string(line) + " is longer than " + grouped(maxLine) +
                                  " bytes: not a file qcert reads");
    ++line, start = at + 1;
  }
  return text;
}

}  // namespace qcert::ui

#include <istream>

namespace qcert::ui {

InputLine readInputLine(std::istream& in, std::string& line, size_t maxLine) {
  line.clear();
  for (;;) {
    const int c = in.get();
    if (c == std::char_traits<char>::eof()) return line.empty() ? InputLine::end : InputLine::line;
    if (c == '\n') return InputLine::line;
    if (line.size() == maxLine) return InputLine::tooLong;
    line += char(c);
  }
}

}  // namespace qcert::ui
