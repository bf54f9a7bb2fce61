#!/usr/bin/env bash
# certs/SHA256SUMS lists every shipped file under certs/ exactly once with its
# SHA-256: fails when a shipped file changed, is missing, or is not listed
# (tools/certs-sha256sums.sh writes the list).
# Usage: checker_certs_sha256sums.sh CERTS_DIR
set -euo pipefail
cd "$1"
[ -f SHA256SUMS ] || { echo "no $1/SHA256SUMS (tools/certs-sha256sums.sh writes it)" >&2; exit 1; }
sha256sum --check --quiet --strict SHA256SUMS || { echo "a shipped file differs from certs/SHA256SUMS (regenerate it with tools/certs-sha256sums.sh if the change is meant)" >&2; exit 1; }
listed=$(sed -E 's/^[0-9a-f]{64}  //' SHA256SUMS | LC_ALL=C sort)
present=$(find . -type f ! -name SHA256SUMS -printf '%P\n' | LC_ALL=C sort)
if [ "$listed" != "$present" ]; then
  echo "certs/SHA256SUMS and the files under certs/ differ (< listed only, > present only):" >&2
  diff <(echo "$listed") <(echo "$present") | grep '^[<>]' >&2
  exit 1
fi
echo "certs/SHA256SUMS: $(echo "$present" | wc -l) files, all as listed"
