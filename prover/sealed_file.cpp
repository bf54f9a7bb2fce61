#include "prover/sealed_file.hpp"

#include <capnp/message.h>
#include <capnp/serialize.h>
#include <xxhash.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "prover/output_file.hpp"
#include "schema/qcert.capnp.h"

namespace qcert {

SealedFile writeSealed(const std::string& path, const void* header, size_t headerBytes, std::FILE* spool) {
  OutputFile out(path);
  XXH3_state_t* st = XXH3_createState();
  XXH3_128bits_reset(st);
  SealedFile sum;
  auto put = [&](const void* p, size_t len) {
    out.write(p, len);
    XXH3_128bits_update(st, p, len);
    sum.bytes += len;
  };
  put(header, headerBytes);
  if (spool) {
    std::fflush(spool);
    std::rewind(spool);
    std::vector<char> buf(size_t{1} << 20);
    for (size_t got; (got = std::fread(buf.data(), 1, buf.size(), spool)) > 0;) put(buf.data(), got);
  }
  const XXH128_hash_t digest = XXH3_128bits_digest(st);
  XXH3_freeState(st);
  for (int i = 0; i < 8; ++i) {
    sum.seal[i] = uint8_t(digest.high64 >> (56 - 8 * i));
    sum.seal[8 + i] = uint8_t(digest.low64 >> (56 - 8 * i));
  }
  capnp::MallocMessageBuilder sealMsg;
  sealMsg.initRoot<Seal>().setXxh3x128(capnp::Data::Reader(sum.seal.data(), 16));
  auto sealWords = capnp::messageToFlatArray(sealMsg);
  out.write(sealWords.asBytes().begin(), sealWords.asBytes().size());
  sum.bytes += sealWords.asBytes().size();
  out.commit();
  return sum;
}

SealedFile writeHeaderOnlyCertificate(const std::string& path, const void* header, size_t headerBytes) {
  return writeSealed(path, header, headerBytes);
}

SealedFile readSealedFile(const std::string& path) {
  if (!regularFileExists(path)) throw std::runtime_error("cannot open " + path + ": " + std::strerror(ENOENT));
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
  std::vector<capnp::word> words;
  std::vector<char> buf(size_t{1} << 20);
  std::string bytes;
  for (size_t got; (got = std::fread(buf.data(), 1, buf.size(), f)) > 0;) bytes.append(buf.data(), got);
  std::fclose(f);
  if (bytes.size() % sizeof(capnp::word) != 0 || bytes.empty()) throw std::runtime_error(path + " is not a certificate");
  words.resize(bytes.size() / sizeof(capnp::word));
  std::memcpy(words.data(), bytes.data(), bytes.size());
  kj::ArrayPtr<const capnp::word> rest(words.data(), words.size());
  capnp::ReaderOptions opts;
  opts.traversalLimitInWords = uint64_t{1} << 26;
  SealedFile out;
  out.bytes = bytes.size();
  const capnp::word* last = nullptr;
  for (bool header = true; rest.size() > 0; header = false) {
    capnp::FlatArrayMessageReader reader(rest, opts);
    if (header) out.replyCount = reader.getRoot<Header>().getReplyCount();
    last = rest.begin();
    rest = kj::arrayPtr(reader.getEnd(), rest.end());
  }
  const capnp::word* end = words.data() + words.size();
  capnp::FlatArrayMessageReader sealReader(kj::arrayPtr(last, end), opts);
  auto digest = sealReader.getRoot<Seal>().getXxh3x128();
  if (digest.size() != 16) throw std::runtime_error(path + ": bad seal");
  std::memcpy(out.seal.data(), digest.begin(), 16);
  return out;
}

SealDigest readSeal(const std::string& path) { return readSealedFile(path).seal; }

}  // namespace qcert
