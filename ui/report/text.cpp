#include "ui/report/text.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace qcert::ui::report {

std::vector<std::string> splitTabs(const std::string& line) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    const size_t tab = line.find('\t', start);
    out.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos) return out;
    start = tab + 1;
  }
}

long long wholeNumber(const std::string& text, const std::string& what, int line) {
  if (text.empty() || text == "-") return -1;
  size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || v < 0)
    throw std::invalid_argument("line " + std::to_string(line) + ": " + what + " is not a whole number: '" + text + "'");
  return v;
}

std::vector<std::string> splitWords(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::vector<Token> tokenize(const std::string& s) {
  std::vector<Token> out;
  for (std::string w : splitWords(s)) {
    auto count = [&](char ch) { return std::count(w.begin(), w.end(), ch); };
    std::vector<Token> tail;
    bool glueNext = false;
    if (w.size() > 1 && w[0] == '(' && count('(') > count(')')) {
      out.push_back({"(", false});
      w.erase(0, 1);
      glueNext = true;
    }
    for (;;) {
      if (w.size() > 1 && (w.back() == ',' || w.back() == ';' || w.back() == ':')) {
        tail.insert(tail.begin(), Token{std::string(1, w.back()), true});
        w.pop_back();
      } else if (w.size() > 1 && w.back() == ')' && count(')') > count('(')) {
        tail.insert(tail.begin(), Token{")", true});
        w.pop_back();
      } else {
        break;
      }
    }
    out.push_back({w, glueNext});
    out.insert(out.end(), tail.begin(), tail.end());
  }
  return out;
}

std::string detokenize(const std::vector<Token>& tokens) {
  std::string s;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (i > 0 && !tokens[i].glued) s += ' ';
    s += tokens[i].text;
  }
  return s;
}

std::string padRight(const std::string& s, size_t width) { return s.size() >= width ? s : s + std::string(width - s.size(), ' '); }
std::string padLeft(const std::string& s, size_t width) { return s.size() >= width ? s : std::string(width - s.size(), ' ') + s; }

std::vector<std::string> wrap(const std::string& text, size_t width) {
  std::vector<std::string> lines;
  std::string line;
  for (std::string w : splitWords(text)) {
    while (w.size() > width) {
      if (!line.empty()) lines.push_back(line), line.clear();
      lines.push_back(w.substr(0, width));
      w = w.substr(width);
    }
    if (line.empty()) line = w;
    else if (line.size() + 1 + w.size() <= width) line += " " + w;
    else lines.push_back(line), line = w;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

std::string wrapped(const std::string& prefix, const std::string& text, size_t width, size_t indent) {
  std::string out;
  const std::vector<std::string> lines = wrap(text, width > prefix.size() + 10 ? width - std::max(prefix.size(), indent) : 10);
  for (size_t i = 0; i < lines.size(); ++i) out += (i == 0 ? prefix : std::string(indent, ' ')) + lines[i] + "\n";
  return out;
}

std::string asciiOnly(std::string s) {
  for (char& ch : s)
    if (static_cast<unsigned char>(ch) >= 0x80 || (ch < 0x20 && ch != '\n')) ch = '?';
  return s;
}

}  // namespace qcert::ui::report
