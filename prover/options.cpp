#include "prover/options.hpp"

#include <charconv>
#include <cstring>
#include <stdexcept>
#include <system_error>

namespace po = boost::program_options;

namespace qcert {

void refuseOptionPlaceholders(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (argv[i][0] == '-' && std::strchr(argv[i], '%'))
      throw po::error(std::string("unrecognised option '") + argv[i] + "' (no option or option value holds a '%')");
}

long long parseNumberOption(const std::string& option, const std::string& text, long long lo, long long hi) {
  long long v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || ptr != end || v < lo || v > hi)
    throw std::invalid_argument(option + " must be a number between " + std::to_string(lo) + " and " +
                                std::to_string(hi) + ", got '" + text + "'");
  return v;
}

void storeCommandLine(int argc, char** argv, const boost::program_options::options_description& visible, const char* word,
                      boost::program_options::variables_map& vm) {
  namespace po = boost::program_options;
  po::options_description hidden;
  hidden.add_options()(word, po::value<std::string>(), "");
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description pos;
  pos.add(word, 1);
  refuseOptionPlaceholders(argc, argv);
  po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
  po::notify(vm);
}

}  // namespace qcert
