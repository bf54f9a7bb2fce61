#include "rules.hpp"
namespace qcert::mod2 {
std::string verifyExhaustive(Mod2Claim::Reader, unsigned, std::ostream*) { throw Rejection("exhaustive claims are not checked yet"); }
}
