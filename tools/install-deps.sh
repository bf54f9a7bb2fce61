#!/usr/bin/env bash
# Installs the Debian packages qcert needs, only those missing, so that
# `make` works on a fresh Debian 12 machine. Quiet when nothing is missing.
set -euo pipefail
packages=(cmake make g++ pkg-config capnproto libcapnp-dev libboost-program-options-dev
          libgtest-dev librapidcheck-dev libzstd-dev libxxhash-dev libssl-dev openmpi-bin libopenmpi-dev
          clang libclang-rt-14-dev  # clang: make fuzz (libFuzzer)
          tmux      # tmux: the end-to-end test of qcert play
          coq ocaml-nox libsha-ocaml-dev  # coq, ocaml (and OCaml's sha): checker-verified/
          chromium) # chromium: the test that renders make audit's HTML report
missing=()
for p in "${packages[@]}"; do
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
