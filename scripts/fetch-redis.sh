#!/usr/bin/env bash
# Fetches redis-server for the Redis protocol tests (test/support/redis-server.ts): Debian's redis-server and
# redis-tools (the binary) and the libraries a fresh Debian machine may lack (libjemalloc2, liblzf1), downloaded and
# unpacked into the git-ignored .tools/redis/ by scripts/lib/fetch-debs.sh. The binary ends at
# .tools/redis/usr/bin/redis-server and runs with LD_LIBRARY_PATH=.tools/redis/usr/lib/<arch> (the test helper sets
# it). Nothing is installed system-wide and no redis-server found on PATH is run. Idempotent: exits 0 at once when
# the binary is already there. Exits 1 with a message when it cannot fetch (no apt, no network); the tests then skip.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/fetch-debs.sh

dest=.tools/redis
bin="$dest/usr/bin/redis-server"

if [ -e "$bin" ]; then
  echo "redis-server already present: $bin"
  exit 0
fi
fetch_debs fetch-redis "$dest" redis-server redis-tools libjemalloc2 liblzf1
if [ ! -e "$bin" ]; then
  echo "fetch-redis: the packages did not contain usr/bin/redis-server" >&2
  exit 1
fi
echo "redis-server unpacked: $bin"
