#!/usr/bin/env bash
# The one-definition rule across the two libraries that build/bin/qcert links:
# the prover's and the checker's code share nothing (only what capnp generates
# from schema/, which is outside namespace qcert), so no function, object or
# type of namespace qcert may be defined by both. Two definitions under one
# name link without a word (the linker keeps one weak copy, by luck of the
# order) and one library then runs the other's code.
#
#   odr_check.sh LIBPROVER_CORE.a LIBCHECKER_CORE.a
#
# Two comparisons of `nm -C --defined-only`:
#  1. symbols: the external symbols (types T W V D R B u: text, weak, data,
#     read-only data, bss) whose name mentions qcert::, defined in both; std
#     templates over qcert's types count (std::vector<qcert::X>), internal ones
#     ((anonymous namespace), static) and std, capnp, kj or schema code do not.
#  2. names: the qualified names qcert::...::X (types, functions, objects)
#     that symbols of both libraries mention. This catches a type defined in
#     both whose members were all inlined: no symbol of its own is left to
#     collide, yet the two libraries mean different things by one name.
# Exit 1, naming each finding; 0 when there is none.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: odr_check.sh LIBPROVER_CORE.a LIBCHECKER_CORE.a" >&2; exit 2; }
command -v nm >/dev/null || { echo "odr_check: nm (binutils) not found" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for side in 1 2; do
  lib=${!side}
  [ -f "$lib" ] || { echo "odr_check: no library $lib (build it first)" >&2; exit 2; }
  nm -C --defined-only "$lib" >"$tmp/$side.nm"
  sed -n 's/^[0-9a-fA-F]* [TWVDRBu] //p' "$tmp/$side.nm" | grep -F 'qcert::' | grep -vF '(anonymous namespace)' |
    sort -u >"$tmp/$side.syms" || true
  # "qcert::(anonymous namespace)::f" yields no name: internal, no collision.
  sed -n 's/^[0-9a-fA-F]* [A-Za-z] //p' "$tmp/$side.nm" | grep -oE 'qcert(::[A-Za-z_][A-Za-z0-9_]*)+' |
    sort -u >"$tmp/$side.names" || true
  # An empty list means nm's output was not understood: a guard that sees
  # nothing must not pass.
  [ -s "$tmp/$side.syms" ] || { echo "odr_check: found no qcert:: symbol in $lib" >&2; exit 2; }
  echo "$(basename "$lib"): $(wc -l <"$tmp/$side.syms") external qcert:: symbols, $(wc -l <"$tmp/$side.names") qcert:: names"
done
status=0
for what in syms names; do
  both=$(comm -12 "$tmp/1.$what" "$tmp/2.$what")
  [ -z "$both" ] && continue
  status=1
  [ $what = syms ] && echo "FAIL: symbols defined in both $(basename "$1") and $(basename "$2"):" ||
    echo "FAIL: names that both $(basename "$1") and $(basename "$2") define or use (one name, two meanings):"
  sed 's/^/  /' <<<"$both"
done
[ $status = 0 ] && echo "OK: the two libraries define no qcert:: symbol or name in common"
exit $status
