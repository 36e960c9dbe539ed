#!/usr/bin/env bash
# Fetches a PostgreSQL server for the Postgres client's tests (test/operatorbox/protocol-postgres*.test.ts):
# Debian's postgresql-15 package and the shared libraries its binaries link that a fresh Debian may lack, downloaded
# and unpacked into the git-ignored .tools/postgres/ by scripts/lib/fetch-debs.sh (binaries end in
# .tools/postgres/usr/lib/postgresql/15/bin, libraries in .tools/postgres/usr/lib/x86_64-linux-gnu, which the test
# helper puts on LD_LIBRARY_PATH). Nothing is installed system-wide and no server found on PATH is ever run.
# Idempotent: exits 0 at once when the server binary is already there. Exits 1 with a message when it cannot fetch
# (no apt, no network); the tests against a real server then say they skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/fetch-debs.sh

dest=.tools/postgres
bin="$dest/usr/lib/postgresql/15/bin/postgres"

if [ -x "$bin" ]; then
  echo "postgres already present: $bin"
  exit 0
fi
# The server and initdb link these (ldd on Debian 12); the base libraries every Debian has (libc, zlib, libzstd,
# liblz4, libsystemd, libpam, gnutls…) are not fetched.
fetch_debs fetch-postgres "$dest" postgresql-15 libpq5 libicu72 libxml2 libssl3 libldap-2.5-0 libsasl2-2 \
  libgssapi-krb5-2 libkrb5-3 libk5crypto3 libkrb5support0 libkeyutils1
if [ ! -x "$bin" ]; then
  echo "fetch-postgres: the package did not contain usr/lib/postgresql/15/bin/postgres" >&2
  exit 1
fi
echo "postgres unpacked: $bin"
