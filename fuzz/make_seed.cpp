// Packs certificate files into fuzz inputs (fuzz/make-seeds.sh uses it):
//   qcert_fuzz_make_seed game|count FILE   mode 1 (reseal): 0x01, the file without its Seal
//   qcert_fuzz_make_seed raw FILE          mode 0: 0x00, the file as it is
//   qcert_fuzz_make_seed manifest FILE     fuzz_manifest mode 2: the manifest and every
//                                          shard its plan names, without their Seals
//   qcert_fuzz_make_seed game-struct FILE  fuzz_game_certificate mode 2: the claim and the
//                                          decompressed tokens (n <= 6, <= 3 queens, heap <= 3),
//                                          so mutations act on tokens, not on zstd bytes
// The input goes to stdout.  Uses only the generated schema code.
#include "schema/qcert.capnp.h"

#include <capnp/serialize.h>
#include <zstd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

namespace {
using Bytes = std::vector<unsigned char>;

Bytes readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

kj::Array<capnp::word> wordsOf(const Bytes& b) {
  auto w = kj::heapArray<capnp::word>(b.size() / 8);
  std::memcpy(w.begin(), b.data(), w.size() * 8);
  return w;
}

// Everything before the last message (the Seal).
Bytes withoutSeal(const Bytes& file) {
  auto words = wordsOf(file);
  kj::ArrayPtr<const capnp::word> rest = words.asPtr();
  const capnp::word* last = rest.begin();
  while (rest.size() > 0) {
    capnp::FlatArrayMessageReader r(rest);
    last = rest.begin();
    rest = kj::arrayPtr(r.getEnd(), rest.end());
  }
  return Bytes(file.begin(), file.begin() + (last - words.begin()) * 8);
}

void shardPaths(Obligation::Reader ob, std::vector<std::string>& out) {
  switch (ob.which()) {
    case Obligation::SHARD: out.push_back(ob.getShard().getPath()); break;
    case Obligation::WIN_BY: shardPaths(ob.getWinBy().getAfter(), out); break;
    case Obligation::LOSS_BY: for (auto c : ob.getLossBy()) shardPaths(c, out); break;
  }
}

void appendFile(Bytes& out, const std::string& name, const Bytes& body) {
  if (name.size() > 255 || body.size() > 65535) throw std::runtime_error("too large for the container: " + name);
  out.push_back((unsigned char)name.size());
  out.insert(out.end(), name.begin(), name.end());
  out.push_back((unsigned char)(body.size() & 0xff));
  out.push_back((unsigned char)(body.size() >> 8));
  out.insert(out.end(), body.begin(), body.end());
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: qcert_fuzz_make_seed game|count|raw|manifest FILE > INPUT\n";
    return 2;
  }
  try {
    const std::string mode = argv[1], path = argv[2];
    const Bytes file = readAll(path);
    Bytes out;
    if (mode == "game" || mode == "count") {
      out.push_back(1);
      const Bytes body = withoutSeal(file);
      out.insert(out.end(), body.begin(), body.end());
    } else if (mode == "game-struct") {
      auto words = wordsOf(file);
      kj::ArrayPtr<const capnp::word> rest = words.asPtr();
      std::vector<kj::ArrayPtr<const capnp::word>> msgs;
      while (rest.size() > 0) {
        capnp::FlatArrayMessageReader r(rest);
        msgs.push_back(kj::arrayPtr(rest.begin(), r.getEnd()));
        rest = kj::arrayPtr(r.getEnd(), rest.end());
      }
      capnp::FlatArrayMessageReader hr(msgs.front());
      auto h = hr.getRoot<Header>();
      auto c = h.getClaim();
      const unsigned n = c.getBoardSize();
      if (n < 1 || n > 6 || c.getQueens().size() > 3 || c.getHeap() > 3 || h.hasPlan())
        throw std::runtime_error("not a small game certificate (n <= 6, <= 3 queens, heap <= 3, no plan)");
      out.push_back(2);
      out.push_back((unsigned char)(n - 1));
      out.push_back((unsigned char)c.getQueens().size());
      for (uint16_t q : c.getQueens()) out.push_back((unsigned char)q);
      out.push_back((unsigned char)c.getHeap());
      out.push_back((unsigned char)((c.getOutcome() == Outcome::LOSS ? 1 : 0) | (c.getKind() == ClaimKind::GRUNDY ? 2 : 0) |
                                    (h.getDefaultReply() == DefaultReply::MIRROR180 ? 4 : 0) | (h.getParts() ? 16 : 0)));
      out.push_back((unsigned char)h.getCutoff());
      for (size_t i = 1; i + 1 < msgs.size(); ++i) {
        capnp::FlatArrayMessageReader cr(msgs[i]);
        auto chunk = cr.getRoot<ReplyChunk>();
        Bytes raw(chunk.getRawSize());
        const size_t got = ZSTD_decompress(raw.data(), raw.size(), chunk.getZstdFrame().begin(), chunk.getZstdFrame().size());
        if (ZSTD_isError(got) || got != raw.size()) throw std::runtime_error("bad chunk");
        uint32_t value = 0;
        unsigned shift = 0;
        for (unsigned char b : raw) {
          value |= uint32_t(b & 0x7f) << shift, shift += 7;
          if (b & 0x80) continue;
          if (value >= 0xff) {
            if (value > 0xffff) throw std::runtime_error("token above 65535");
            out.push_back(0xff), out.push_back((unsigned char)(value & 0xff)), out.push_back((unsigned char)(value >> 8));
          } else {
            out.push_back((unsigned char)value);
          }
          value = 0, shift = 0;
        }
      }
    } else if (mode == "raw") {
      out.push_back(0);
      out.insert(out.end(), file.begin(), file.end());
    } else if (mode == "manifest") {
      auto words = wordsOf(file);
      capnp::FlatArrayMessageReader r(words);
      if (!r.getRoot<Header>().hasPlan()) throw std::runtime_error(path + " is not a manifest (no plan)");
      std::vector<std::string> paths;
      shardPaths(r.getRoot<Header>().getPlan(), paths);
      if (paths.size() > 8) throw std::runtime_error("more than 8 shards: " + std::to_string(paths.size()));
      out.push_back(2);
      out.push_back((unsigned char)paths.size());  // files = 1 + (byte & 0x7f) % 9, --jobs 1
      appendFile(out, "m.qc", withoutSeal(file));
      const auto dir = std::filesystem::path(path).parent_path();
      for (const auto& p : paths) appendFile(out, p, withoutSeal(readAll((dir / p).string())));
    } else {
      throw std::runtime_error("unknown mode " + mode);
    }
    std::cout.write(reinterpret_cast<const char*>(out.data()), std::streamsize(out.size()));
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "qcert_fuzz_make_seed: " << e.what() << "\n";
  } catch (const kj::Exception& e) {
    std::cerr << "qcert_fuzz_make_seed: " << e.getDescription().cStr() << "\n";
  }
  return 1;
}
