// `qcert describe FILE`: what a certificate file says about itself (its
// header: claim, board, cut-off, default reply, counts, shards and their
// claims, sizes, format version), without replaying or recounting anything.
// The file is read with the checker library's reader, so a file the checker
// would reject before replaying (framing, seal, header fields) is refused
// here too; nothing printed is verified, and the output says so first.
//
// This header includes no checker header (ui/certified.hpp explains why).
#pragma once
#include <string>

namespace qcert::ui {

struct DescribeOptions {
  bool allShards = false;  // list every shard of a manifest (else the first 40)
  // Reading checks every chunk as the checker does, and 2 KB of zstd may
  // hold 64 MiB of tokens: past this many seconds, exit 2 (0 = no limit).
  double timeLimitSeconds = 10;
};

// The description, lines ending in '\n'. Throws CertificateError
// (certified.hpp): status 1 "REJECTED: <why>" when the file is not a
// well-formed certificate, 2 when it cannot be read.
std::string describeCertificate(const std::string& path, const DescribeOptions& options = {});

}  // namespace qcert::ui
