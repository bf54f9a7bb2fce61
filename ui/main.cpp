// qcert: the people-facing front end (ui/cli.hpp). Not part of the trusted
// checker: it uses the checker library to verify a certificate before using
// its replies, and the prover library to prove small positions on the spot.
#include <iostream>

#include "cli.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return qcert::ui::runQcert(args, std::cin, std::cout, std::cerr);
}
