#include "ui/command_line.hpp"

#include <algorithm>
#include <charconv>
#include <sstream>

namespace qcert::ui {

std::string helpOf(const Command& c) {
  std::string s = "usage: " + std::string(c.usage) + "\n\n" + c.about + "\n\nOptions:\n";
  for (const OptionSpec& o : c.options) {
    std::string head = "  --" + std::string(o.name) + (o.value ? " " + std::string(o.value) : "");
    if (head.size() < 20) head.resize(20, ' ');
    else head += "\n" + std::string(20, ' ');
    // The help text wrapped at 79 columns, under its first line.
    std::istringstream words(o.help);
    size_t column = 20;
    bool first = true;
    for (std::string w; words >> w; first = false) {
      if (!first && column + 1 + w.size() > 79) head += "\n" + std::string(20, ' '), column = 20;
      else if (!first) head += " ", ++column;
      head += w, column += w.size();
    }
    s += head + "\n";
  }
  return s;
}


Values parseOptions(const Command& c, const std::vector<std::string>& args) {
  Values v;
  for (size_t i = 1; i < args.size(); ++i) {
    // -q: --quiet, as in the prover and the checker, for commands that have it.
    const bool hasQuiet = std::any_of(c.options.begin(), c.options.end(), [](const OptionSpec& o) { return o.name == std::string("quiet"); });
    const std::string& a = args[i] == "-q" && hasQuiet ? std::string("--quiet") : args[i];
    if (c.takesFile && a.rfind("--", 0) != 0 && !a.empty() && !v.count("file")) {
      v["file"] = a;
      continue;
    }
    if (a.rfind("--", 0) != 0 || a.size() == 2)
      throw UsageError("unexpected argument '" + a + "' (options start with --; see qcert " + c.name + " --help)");
    std::string name = a.substr(2), value;
    const size_t eq = name.find('=');
    const bool inlineValue = eq != std::string::npos;
    if (inlineValue) value = name.substr(eq + 1), name = name.substr(0, eq);
    const auto spec = std::find_if(c.options.begin(), c.options.end(), [&](const OptionSpec& o) { return name == o.name; });
    if (spec == c.options.end())
      throw UsageError("unknown option '--" + name + "' (qcert " + c.name + " --help lists its options)");
    if (v.count(name)) throw UsageError("--" + name + " is given twice");
    if (spec->value && !inlineValue) {
      if (i + 1 >= args.size()) throw UsageError("--" + name + " needs a value (" + spec->value + ")");
      value = args[++i];
    } else if (!spec->value && inlineValue) {
      throw UsageError("--" + name + " takes no value");
    }
    v[name] = value;
  }
  return v;
}

long wholeNumber(const std::string& option, const std::string& text, long min, long max) {
  long value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < min || value > max)
    throw UsageError("--" + option + " must be a whole number from " + std::to_string(min) + " to " + std::to_string(max) +
                     ", got '" + text + "'");
  return value;
}


std::string fileArgument(const Values& v) {
  if (!v.count("file")) throw UsageError("no certificate file given");
  return v.at("file");
}

}  // namespace qcert::ui
