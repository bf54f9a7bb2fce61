// Fuzz target: a shard manifest and its shards (docs/certificate-format.md,
// "Sharded certificates").  Input container (fuzz/make_seed.cpp writes it):
//   byte 0   mode % 3: 0 raw files; 1 every file resealed (its body given
//            without the Seal); 2 as 1, and the manifest's pinned shard seals
//            rewritten to the resealed shards' digests before the manifest is
//            resealed, so mutations of shards reach their replay
//   byte 1   files: 1 + (byte & 0x7f) % 9 (the manifest, then up to 8
//            shards); the top bit: --jobs 2 (shards replayed in parallel)
//   per file name length (1 byte), name, body length (2 bytes, little
//            endian), body.  The manifest is written as m.qc in the scratch
//            directory (its name is ignored); a shard's name is made a safe
//            relative path ([A-Za-z0-9._/-], no ".."; empty: s/<i>.qc).
// qcert::checker::check checks m.qc; VERIFIED is judged by the reference minimax
// (boards up to 6x6), as in fuzz_game_certificate.
#include "fuzz/fuzz_common.hpp"
#include "schema/qcert.capnp.h"

#include <capnp/message.h>
#include <capnp/serialize.h>

#include <cstring>
#include <map>

using namespace qfuzz;

namespace {

std::string safeName(const Bytes& raw, size_t index) {
  std::string s;
  for (uint8_t ch : raw) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' ||
                    ch == '_' || ch == '/' || ch == '-';
    s += ok ? char(ch) : '_';
  }
  while (!s.empty() && s[0] == '/') s.erase(0, 1);
  for (size_t at; (at = s.find("..")) != std::string::npos;) s[at + 1] = '_';
  if (s.empty() || s == "m.qc") s = "s/" + std::to_string(index) + ".qc";
  return s;
}

void repin(::Obligation::Builder ob, const std::map<std::string, Bytes>& seals, unsigned depth) {
  if (depth > 80) return;
  switch (ob.which()) {
    case ::Obligation::SHARD: {
      auto shard = ob.getShard();
      auto it = seals.find(std::string(shard.getPath().cStr()));
      if (it != seals.end()) shard.setSeal(capnp::Data::Reader(it->second.data(), it->second.size()));
      break;
    }
    case ::Obligation::WIN_BY:
      if (ob.getWinBy().hasAfter()) repin(ob.getWinBy().getAfter(), seals, depth + 1);
      break;
    case ::Obligation::LOSS_BY:
      for (auto child : ob.getLossBy()) repin(child, seals, depth + 1);
      break;
  }
}

// The manifest body with its first message (the Header) rewritten so that
// every shard obligation naming a written shard pins that shard's seal.
Bytes repinned(const Bytes& body, const std::map<std::string, Bytes>& seals) {
  if (body.size() < 8 || body.size() % 8) return body;
  try {
    auto words = kj::heapArray<capnp::word>(body.size() / 8);
    std::memcpy(words.begin(), body.data(), body.size());
    capnp::ReaderOptions options;
    options.traversalLimitInWords = 1u << 20;
    options.nestingLimit = 400;
    capnp::FlatArrayMessageReader reader(words, options);
    const size_t firstBytes = size_t(reader.getEnd() - words.begin()) * 8;
    capnp::MallocMessageBuilder builder;
    builder.setRoot(reader.getRoot<::Header>());
    auto header = builder.getRoot<::Header>();
    if (header.hasPlan()) repin(header.getPlan(), seals, 0);
    auto flat = capnp::messageToFlatArray(builder);
    auto b = flat.asBytes();
    Bytes out(b.begin(), b.end());
    out.insert(out.end(), body.begin() + ptrdiff_t(firstBytes), body.end());
    return out;
  } catch (const kj::Exception&) {
    return body;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > (1u << 20)) return 0;
  Input in{data, size};
  const unsigned mode = in.byte() % 3;
  const uint8_t second = in.byte();
  const unsigned files = 1 + (second & 0x7f) % 9, jobs = second & 0x80 ? 2 : 1;
  std::vector<std::pair<std::string, Bytes>> list;
  for (unsigned i = 0; i < files && !in.empty(); ++i) {
    const Bytes name = in.take(in.byte());
    Bytes body = in.take(in.u16());
    list.emplace_back(i == 0 ? "m.qc" : safeName(name, i), std::move(body));
  }
  if (list.empty()) return 0;
  std::map<std::string, Bytes> seals;  // shard path -> digest of its resealed body
  if (mode != 0)
    for (auto& [name, body] : list) {
      body.resize(body.size() & ~size_t(7));
      if (name == "m.qc") continue;
      seals[name] = digestOf(body);
      appendSeal(body);
    }
  Bytes& manifest = list.front().second;
  if (mode == 2) manifest = repinned(manifest, seals);
  if (mode != 0) appendSeal(manifest);
  clearWorkDir();
  const std::string dir = workDir();
  for (size_t i = list.size(); i-- > 0;)  // the manifest last: its name wins a clash
    writeFile(dir + "/" + list[i].first, list[i].second);
  const CheckResult r = runChecker(dir + "/m.qc", jobs);
  if (r.status == 0) judgeVerifiedGameFile(manifest, r.out);
  return 0;
}
