#!/usr/bin/env bash
# Fetches kubectl for the kubectl tests: downloads Debian's kubernetes-client package with `apt-get download` and
# unpacks it with `dpkg-deb -x` into the git-ignored .tools/kubectl/ (the binary ends at .tools/kubectl/usr/bin/kubectl).
# It never installs anything system-wide and never runs a kubectl found on PATH. Idempotent: exits 0 at once when the
# binary is already there. Exits 1 with a message when it cannot fetch (no apt, no network); the test then skips.
set -euo pipefail
cd "$(dirname "$0")/.."

dest=.tools/kubectl
bin="$dest/usr/bin/kubectl"

if [ -x "$bin" ]; then
  echo "kubectl already present: $bin"
  exit 0
fi
for tool in apt-get dpkg-deb; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "fetch-kubectl: $tool is not available; cannot fetch Debian's kubernetes-client" >&2
    exit 1
  fi
done

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"

download() {
  (cd "$tmp" && apt-get download -q kubernetes-client >/dev/null 2>"$tmp/apt.err")
}

if ! download; then
  if [ "$(id -u)" = "0" ]; then
    echo "fetch-kubectl: package not found in the apt lists; running apt-get update" >&2
    apt-get update -qq >/dev/null 2>&1 || true
  fi
  if ! download; then
    echo "fetch-kubectl: apt-get download kubernetes-client failed:" >&2
    cat "$tmp/apt.err" >&2
    exit 1
  fi
fi

deb="$(ls "$tmp"/kubernetes-client_*.deb 2>/dev/null | head -n 1)"
if [ -z "$deb" ]; then
  echo "fetch-kubectl: apt-get download produced no kubernetes-client .deb" >&2
  exit 1
fi
mkdir -p "$dest"
dpkg-deb -x "$deb" "$dest"
if [ ! -x "$bin" ]; then
  echo "fetch-kubectl: the package did not contain usr/bin/kubectl" >&2
  exit 1
fi
echo "kubectl unpacked: $bin ($(basename "$deb"))"
