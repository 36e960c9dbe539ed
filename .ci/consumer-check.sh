#!/usr/bin/env bash
# Consumer check: install the packed tarball into a throwaway project exactly as the README's Install section says,
# type-check every TypeScript block of README.md and docs/*.md against it with a strict tsconfig (module nodenext,
# no skipLibCheck, @types/ws as the docs say), run a small program end to end, and check require('katalog').
#
# usage: .ci/consumer-check.sh <tarball> <project dir> <client-node version spec>
#   Runs with whatever `node` is first on PATH (.ci/run puts Node 24 there for the 2.x lane).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TARBALL="$1"
PROJECT="$2"
CLIENT_NODE="$3"

echo "-- consumer project $PROJECT: Node $(node --version), @kubernetes/client-node@$CLIENT_NODE"
rm -rf "$PROJECT"
mkdir -p "$PROJECT"
cd "$PROJECT"
printf '{ "name": "consumer", "private": true, "type": "module" }\n' > package.json
# The README's Install lines.
npm install --no-audit --no-fund "$TARBALL" "@kubernetes/client-node@$CLIENT_NODE" hono @hono/node-server prom-client
npm install --no-audit --no-fund -D typescript @types/node @types/ws

echo "-- type-check every TypeScript block of README.md and docs/ against the installed package"
node "$ROOT/scripts/doc-snippets.mjs" snippets > /dev/null
echo "   $(ls snippets/*.ts | grep -vc snippet-context) blocks"
npx --no-install tsc -p snippets

echo "-- the end-to-end program must finish and exit by itself within 120 s"
cp "$ROOT/.ci/consumer/e2e.mjs" e2e.mjs
timeout 120 node e2e.mjs

echo "-- require('katalog') from CommonJS"
printf "const k = require('katalog'); const t = require('katalog/testing');\nif (typeof k.createRuntime !== 'function' || typeof t.startTestApiServer !== 'function') process.exit(1);\nconsole.log('require works');\n" > require.cjs
timeout 60 node require.cjs
# Where Node cannot require ES modules, the message must say katalog is ESM and how to import it.
if node --no-experimental-require-module -e 0 2> /dev/null; then
  if node --no-experimental-require-module require.cjs 2> require.err; then
    echo "require('katalog') worked with require(esm) off" >&2
    exit 1
  fi
  grep -q "katalog is an ES module" require.err || { cat require.err >&2; exit 1; }
  echo "without require(esm): $(grep -m1 '^Error: katalog is an ES module' require.err | cut -c1-120)…"
fi
