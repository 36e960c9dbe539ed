#!/usr/bin/env bash
# Fetches the official Python Kubernetes client for the Python client test: downloads Debian's python3-kubernetes
# (and those of its Debian dependencies that this machine's python3 cannot import) with `apt-get download`, and
# unpacks them with `dpkg-deb -x` (scripts/lib/fetch-debs.sh) into the git-ignored .tools/python-kubernetes/. The modules end in
# .tools/python-kubernetes/usr/lib/python3/dist-packages, which the test puts on PYTHONPATH. Nothing is installed
# system-wide. Idempotent: exits 0 at once when `import kubernetes` already works from there. Exits 1 with a message
# when it cannot fetch (no apt, no network, no python3); the test then skips.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/fetch-debs.sh

dest=.tools/python-kubernetes
site="$dest/usr/lib/python3/dist-packages"
python="${PYTHON:-python3}"

importable() { PYTHONPATH="$site" "$python" -c "import $1" >/dev/null 2>&1; }

if ! command -v "$python" >/dev/null 2>&1; then
  echo "fetch-python-kubernetes: $python is not available" >&2
  exit 1
fi
if importable kubernetes.client && importable kubernetes.watch && importable kubernetes.config; then
  echo "python3-kubernetes already present: $site"
  exit 0
fi
# module imported by the client (directly or through a dependency) -> the Debian package that provides it
deps=(
  "yaml python3-yaml" "urllib3 python3-urllib3" "certifi python3-certifi" "six python3-six"
  "dateutil python3-dateutil" "requests python3-requests" "requests_oauthlib python3-requests-oauthlib"
  "oauthlib python3-oauthlib" "google.auth python3-google-auth" "cachetools python3-cachetools"
  "pyasn1 python3-pyasn1" "pyasn1_modules python3-pyasn1-modules" "rsa python3-rsa" "websocket python3-websocket"
  "pkg_resources python3-pkg-resources" "setuptools python3-setuptools"
)
packages=(python3-kubernetes)
for entry in "${deps[@]}"; do
  module="${entry%% *}"
  package="${entry#* }"
  importable "$module" || packages+=("$package")
done

fetch_debs fetch-python-kubernetes "$dest" "${packages[@]}"
if ! importable kubernetes.client; then
  echo "fetch-python-kubernetes: unpacked ${packages[*]}, but 'import kubernetes.client' still fails:" >&2
  PYTHONPATH="$site" "$python" -c "import kubernetes.client" >&2 || true
  exit 1
fi
echo "python3-kubernetes unpacked: $site (${packages[*]})"
