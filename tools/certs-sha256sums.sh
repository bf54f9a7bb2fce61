#!/usr/bin/env bash
# Writes certs/SHA256SUMS: the SHA-256 of every shipped file under certs/
# (certificates, manifests and their shards), so that a paper can cite the
# exact bytes. Run it after adding or regenerating a certificate; make test
# (tests/checker_certs_sha256sums.sh) fails until the list matches certs/.
# Check by hand: (cd certs && sha256sum --check SHA256SUMS).
set -euo pipefail
cd "$(dirname "$0")/../certs"
tmp=$(mktemp)
find . -type f ! -name SHA256SUMS -printf '%P\n' | LC_ALL=C sort | xargs -d '\n' sha256sum > "$tmp"
mv "$tmp" SHA256SUMS && chmod 644 SHA256SUMS
echo "certs/SHA256SUMS: $(wc -l < SHA256SUMS) files"
