// The prover's peak memory, for the STATS lines and progress reports of
// every command.
#pragma once

namespace qcert {

// The process's peak resident set so far, in KiB (getrusage's ru_maxrss).
long peakRssKiB();

}  // namespace qcert
