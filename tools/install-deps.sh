#!/usr/bin/env bash
# Installs the Debian packages of the groups named, only those missing, so
# that each make target works on a fresh Debian 12 machine. Quiet when
# nothing is missing.
#
#   tools/install-deps.sh GROUP...    (no group: all)
#
#   build     the programs (make build): compiler, CMake, Cap'n Proto, Boost,
#             zstd, xxHash, OpenSSL's libcrypto (the checker's SHA-256), and Open MPI (the prover's work units over MPI
#             ranks: the prover is built against it, mpirun runs it)
#   verified  checker-verified and its proofs: Coq, OCaml and its sha library (make audit,
#             make test)
#   test      the test programs and the tools two tests drive: GoogleTest,
#             RapidCheck, tmux (qcert play in a terminal), chromium (the
#             audit's HTML page rendered) (make test)
#   fuzz      clang and its libFuzzer runtime (make fuzz)
#   all       every group (make deps)
set -euo pipefail
declare -A group=(
  [build]="cmake make g++ pkg-config capnproto libcapnp-dev libboost-program-options-dev libzstd-dev libxxhash-dev libssl-dev openmpi-bin libopenmpi-dev"
  [verified]="coq ocaml-nox libsha-ocaml-dev"
  [test]="libgtest-dev librapidcheck-dev tmux chromium"
  [fuzz]="clang libclang-rt-14-dev"
)
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(all)
packages=()
for g in "${names[@]}"; do
  if [ "$g" = all ]; then
    for each in build verified test fuzz; do read -ra more <<<"${group[$each]}"; packages+=("${more[@]}"); done
  elif [ -n "${group[$g]+set}" ]; then
    read -ra more <<<"${group[$g]}"; packages+=("${more[@]}")
  else
    echo "install-deps: no group '$g' (build, verified, test, fuzz or all)" >&2; exit 2
  fi
done
missing=()
for p in "${packages[@]}"; do
  [[ " ${missing[*]} " == *" $p "* ]] && continue
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing missing packages: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
