// prover: untrusted, fast search that writes certificates for the checker.
// main() only dispatches: each command lives with its game family
// (prover/game, prover/count, prover/mod2, prover/partizan).
#define OMPI_SKIP_MPICXX 1  // the C API only
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>

#include "prover/count/count_cli.hpp"
#include "prover/game/cli.hpp"
#include "prover/mod2/mod2.hpp"
#include "prover/partizan/partizan.hpp"
#include "version/version.hpp"

using namespace qcert;

namespace {

// Every command main() and runProve() dispatch, for "unknown command".
const char* kCommands = "prove, grundy, count, table-check, mod2 or partizan";

const char* kUsage = R"(prover: proves claims about the queens game and writes certificates for `checker`.

The game: two players take turns placing a queen on a square of the n x n
board that no queen already on the board attacks (along a row, a column or a
diagonal); the player who cannot place one loses. Other pieces and boards
(--piece, --board, --holes) keep these rules.

Usage:
  prover prove  --n N [--queens LIST] [--heap H] [--out FILE] [options]  (prover prove --help)
  prover grundy --n N [--queens LIST] [--out FILE] [options]             (prover grundy --help)
  prover count --problem P --n N [--out FILE] [options]   (prover count --help)
  prover table-check 'STATEMENT'                          (prover table-check --help)
  prover mod2 ACTION --n N [options]                      (prover mod2 --help)
  prover partizan --n N [--piece P] [--rule R] [options]  (prover partizan --help)
  prover --version                                        (version, commit, build type)

  prove   decides whether the player to move wins (after the queens in LIST,
          with a Nim heap of H added) and names a winning move; with --out it
          writes a certificate the checker verifies (without --out, nothing
          is written).
  grundy  finds the Grundy value g of the position (the least heap g such
          that position + heap g is a loss) and certifies that loss, which
          proves G = g.
  count   counts solutions of queens problems (n-queens, n+k queens with
          holes, torus, end positions of the game, the HP-71B blog's
          program) and writes a count certificate.
  table-check  checks a published count against rules every count obeys.
  mod2    the mod-2 queens game of Brown and Ladha: plays, structure facts, counts
          of legal positions, outcomes and Grundy values (docs/mod2-game.md).
  partizan  the partizan placing game of Noon 2002 (Left and Right each place
          their own pieces on squares no opposing piece attacks): outcomes,
          outcome classes, certificates (docs/partizan-game.md).

Squares are algebraic: file letter = column, rank = row + 1; a1 is the
papers' 0-based (row, column) = (0,0), b1 = (0,1), a2 = (1,0).
LIST is comma-separated, e.g. --queens e5,a1. 1 <= N <= 22.
A free square is an empty square no queen attacks: where the next queen may go.
)";

}  // namespace

// Under mpirun (detected from the launcher's environment) the ranks share the
// work units; otherwise MPI is never initialised.
int main(int argc, char** argv) try {
  if (argc > 1 && std::strcmp(argv[1], "--version") == 0) {
    if (argc > 2) {
      std::fprintf(stderr, "prover: --version takes nothing else, got '%s'\n", argv[2]);
      return 2;
    }
    std::printf("%s\n", versionLine("prover").c_str());
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "count") == 0) return runCount(argc - 1, argv + 1);
  if (argc > 1 && std::strcmp(argv[1], "table-check") == 0) return runTableCheck(argc - 1, argv + 1);
  if (argc > 1 && std::strcmp(argv[1], "mod2") == 0) return mod2::runMod2(argc - 1, argv + 1);
  if (argc > 1 && std::strcmp(argv[1], "partizan") == 0) return partizan::runPartizan(argc - 1, argv + 1);
  const ProverHelp help{kUsage, kCommands};
  const bool underMpi = std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMIX_RANK") || std::getenv("PMI_SIZE");
  if (!underMpi) return runProve(argc, argv, help, Ranks{});
  MPI_Init(&argc, &argv);
  Ranks ranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &ranks.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks.count);
  ranks.barrier = [] { MPI_Barrier(MPI_COMM_WORLD); };
  const int code = runProve(argc, argv, help, ranks);
  if (code != 0 && ranks.count > 1) MPI_Abort(MPI_COMM_WORLD, code);  // the barrier would wait for it forever
  MPI_Finalize();
  return code;
} catch (const std::bad_alloc&) {  // the commands catch their own; this is what escapes them
  std::fprintf(stderr, "prover: not done: out of memory\n");
  return 2;
} catch (const std::exception& e) {
  std::fprintf(stderr, "prover: internal error: %s\n", e.what());
  return 2;
}
