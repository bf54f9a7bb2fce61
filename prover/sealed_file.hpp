// The file form every certificate the prover writes shares
// (docs/certificate-format.md): a Header message, the messages that follow
// it (a game certificate's reply chunks, none for the others), then a Seal,
// the XXH3-128 digest of every byte before it. Written through an OutputFile
// (prover/output_file.hpp): a temporary beside the target, renamed over it
// only when complete.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace qcert {

using SealDigest = std::array<uint8_t, 16>;

struct SealedFile {
  uint64_t bytes = 0;       // the whole file, the seal included
  SealDigest seal{};
  uint64_t replyCount = 0;  // read back: the header's reply count (a game certificate's tokens)
};

// Writes `header` (a flat-array message), then what `spool` holds (from its
// start; null: nothing), then the Seal over both.
SealedFile writeSealed(const std::string& path, const void* header, size_t headerBytes, std::FILE* spool = nullptr);

// A header-only certificate: the given Header message bytes, then the Seal
// over them. The count, mod-2 and partizan certificates are written this way.
SealedFile writeHeaderOnlyCertificate(const std::string& path, const void* header, size_t headerBytes);

// A finished certificate read back (throws std::runtime_error when it cannot
// be read or is not one): its size, its header's reply count and its seal.
SealedFile readSealedFile(const std::string& path);
// Its seal digest alone.
SealDigest readSeal(const std::string& path);

}  // namespace qcert
