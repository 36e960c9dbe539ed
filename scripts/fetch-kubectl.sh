#!/usr/bin/env bash
# Fetches kubectl for the kubectl tests: Debian's kubernetes-client package, downloaded and unpacked into the
# git-ignored .tools/kubectl/ (the binary ends at .tools/kubectl/usr/bin/kubectl) by scripts/lib/fetch-debs.sh.
# It never installs anything system-wide and never runs a kubectl found on PATH. Idempotent: exits 0 at once when the
# binary is already there. Exits 1 with a message when it cannot fetch (no apt, no network); the test then skips.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/fetch-debs.sh

dest=.tools/kubectl
bin="$dest/usr/bin/kubectl"

if [ -x "$bin" ]; then
  echo "kubectl already present: $bin"
  exit 0
fi
fetch_debs fetch-kubectl "$dest" kubernetes-client
if [ ! -x "$bin" ]; then
  echo "fetch-kubectl: the package did not contain usr/bin/kubectl" >&2
  exit 1
fi
echo "kubectl unpacked: $bin"
