// qcert describe FILE: what a certificate file says about itself (NOT verified).
#include "ui/commands.hpp"

#include <ostream>

#include "ui/describe.hpp"

namespace qcert::ui {

int runDescribe(const Values& v, std::ostream& out) {
  DescribeOptions o;
  o.allShards = v.count("all-shards") > 0;
  if (v.count("time-limit")) o.timeLimitSeconds = double(wholeNumber("time-limit", v.at("time-limit"), 1, 86400));
  out << describeCertificate(fileArgument(v), o);
  return 0;
}

}  // namespace qcert::ui
