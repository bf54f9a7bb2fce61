// A certificate as the front end uses it, on the checker's side: the
// checker library verifies it in full (the same code as `checker FILE`) and
// tells the winner's replies it reads (checker/checker.hpp, ReplyObserver);
// they are kept only when the verdict is VERIFIED. Lookups then go through
// the board's symmetry group as the checker derives it, so a position that
// is an image of one in the proof gets the image of its reply.
//
// This header includes neither the prover's nor the checker's headers (the
// two define types of the same names): positions are plain live-square lists.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace qcert::ui {

// Why a certificate cannot be used: status 1 when the checker REJECTED it
// (the certificate is wrong), 2 when nothing was decided (unreadable file,
// out of time or memory, a kind of certificate these commands do not use).
struct CertificateError : std::runtime_error {
  CertificateError(int status, const std::string& what) : std::runtime_error(what), status(status) {}
  int status;
};

struct CertifiedClaim {
  unsigned rows = 0, cols = 0;
  bool torus = false;
  unsigned piece = 0;            // schema Piece: 0 queen, 1 rook, 2 bishop, 3 king, 4 knight
  std::vector<unsigned> holes;
  std::vector<unsigned> queens;  // the claim's position: pieces placed in this order
  uint32_t heap = 0;
  bool win = false;              // the player to move at (queens, heap) wins
  bool grundy = false;           // stated as "the Grundy value is heap"
  unsigned cutoff = 0;           // positions with at most this many live squares have no replies
  std::string statement;         // the checker's words after VERIFIED:
  uint64_t replies = 0;          // winner decisions read
};

class Certified {
 public:
  // Verifies the certificate at `path` with the checker library, `jobs`
  // shards at a time, stopping with NOT CHECKED after `timeLimitSeconds`
  // (0: none). Throws CertificateError unless VERIFIED.
  static std::unique_ptr<Certified> load(const std::string& path, unsigned jobs, double timeLimitSeconds);
  virtual ~Certified() = default;
  const CertifiedClaim& claim() const { return claim_; }

  // The certificate's reply at the position (live squares, heap), up to the
  // board's symmetries: a square, or -1 - h for the heap move to h;
  // std::nullopt when the proof has no winner decision there.
  virtual std::optional<int> reply(const std::vector<char>& live, uint32_t heap) const = 0;
  // The position is proved lost for the player to move: it is the claim's
  // position of a loss claim, or what a reply of the certificate leaves.
  virtual bool provedLost(const std::vector<char>& live, uint32_t heap) const = 0;

 protected:
  CertifiedClaim claim_;
};

}  // namespace qcert::ui
