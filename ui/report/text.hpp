// Plain text for `qcert report` (ui/report.hpp): the fields of a tab-separated
// line, the words of a statement, and words wrapped into lines of a width.
// Nothing here knows what a claim is.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace qcert::ui::report {

// The fields of a tab-separated line (an empty line is one empty field).
std::vector<std::string> splitTabs(const std::string& line);
// A whole number field: -1 for "" and "-"; else throws std::invalid_argument
// "line LINE: WHAT is not a whole number: 'TEXT'".
long long wholeNumber(const std::string& text, const std::string& what, int line);

// Words split at white space.
std::vector<std::string> splitWords(const std::string& s);

// The words of a statement: words split at spaces; an unbalanced '(' or ')'
// and a trailing , ; : are words of their own, written without the space
// ("(49 queens)" is "(", "49", "queens", ")"), so a number in parentheses
// can be a blank of a template.
struct Token {
  std::string text;
  bool glued = false;  // no space before it
};
std::vector<Token> tokenize(const std::string& s);
std::string detokenize(const std::vector<Token>& tokens);

std::string padRight(const std::string& s, size_t width);
std::string padLeft(const std::string& s, size_t width);
// Words wrapped into lines of at most `width` characters (a longer word is cut).
std::vector<std::string> wrap(const std::string& text, size_t width);
// Wrapped with a first-line prefix and an indent for the others, each line
// ending in '\n'.
std::string wrapped(const std::string& prefix, const std::string& text, size_t width, size_t indent);
// Each byte outside ASCII, and each control character but '\n', as '?'.
std::string asciiOnly(std::string s);

}  // namespace qcert::ui::report
