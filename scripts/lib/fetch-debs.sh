# Sourced by the fetch-*.sh scripts: `fetch_debs <who> <dest> <package>...` downloads Debian packages with
# `apt-get download` (running `apt-get update` once when root and the lists lack them) and unpacks every one with
# `dpkg-deb -x` into <dest>. Nothing is installed system-wide. Returns 1 with a message on stderr, prefixed by <who>,
# when apt-get/dpkg-deb are missing or the download fails.
fetch_debs() {
  local who="$1" dest="$2"
  shift 2
  local tool
  for tool in apt-get dpkg-deb; do
    if ! command -v "$tool" >/dev/null 2>&1; then
      echo "$who: $tool is not available; cannot fetch Debian's $*" >&2
      return 1
    fi
  done
  local tmp
  tmp="$(mktemp -d)"
  chmod 755 "$tmp" # apt-get download drops privileges to the _apt user, which must be able to write here
  if ! (cd "$tmp" && apt-get download -q "$@" >/dev/null 2>"$tmp/apt.err"); then
    if [ "$(id -u)" = "0" ]; then
      echo "$who: not found in the apt lists; running apt-get update" >&2
      apt-get update -qq >/dev/null 2>&1 || true
    fi
    if ! (cd "$tmp" && apt-get download -q "$@" >/dev/null 2>"$tmp/apt.err"); then
      echo "$who: apt-get download $* failed:" >&2
      cat "$tmp/apt.err" >&2
      rm -rf "$tmp"
      return 1
    fi
  fi
  mkdir -p "$dest"
  local deb
  for deb in "$tmp"/*.deb; do
    dpkg-deb -x "$deb" "$dest"
    echo "$who: unpacked $(basename "$deb")"
  done
  rm -rf "$tmp"
}
