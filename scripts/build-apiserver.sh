#!/usr/bin/env bash
# Builds kube-apiserver and etcd from Go modules (tools/apiserver: k8s.io/kubernetes and go.etcd.io/etcd/server/v3,
# pinned in tools/apiserver/go.mod, checked by go.sum) into the git-ignored .tools/apiserver/<kubernetes version>/.
# Nothing prebuilt is downloaded: only module sources, through the Go module proxy.
#
# Reuses the folder when its .pin matches (go.mod, go.sum, the two mains and `go version`); rebuilds when the pin
# changes. The last line printed is the folder, ready for KUBEBUILDER_ASSETS. Exits non-zero, with Go's error, when
# Go is missing or the build fails. The build runs under `nice -n 19`: a cold one takes tens of minutes.
set -euo pipefail
cd "$(dirname "$0")/.."

src=tools/apiserver
if ! command -v go >/dev/null 2>&1; then
  echo "build-apiserver: go is not on PATH; install Go >= 1.26 to build kube-apiserver and etcd" >&2
  exit 1
fi

version="$(sed -n 's/^[[:space:]]*k8s\.io\/kubernetes[[:space:]]\{1,\}\(v[0-9][^[:space:]]*\).*$/\1/p' "$src/go.mod" | head -n 1)"
if [ -z "$version" ]; then
  echo "build-apiserver: no k8s.io/kubernetes requirement found in $src/go.mod" >&2
  exit 1
fi
minor="$(echo "$version" | cut -d. -f2)"
out=".tools/apiserver/$version"
pin="$( (cat "$src/go.mod" "$src/go.sum" "$src"/cmd/*/main.go; go version) | sha256sum | cut -d' ' -f1)"

if [ -x "$out/kube-apiserver" ] && [ -x "$out/etcd" ] && [ "$(cat "$out/.pin" 2>/dev/null)" = "$pin" ]; then
  echo "build-apiserver: reusing $out (pin unchanged)" >&2
  echo "$out"
  exit 0
fi

echo "build-apiserver: building kube-apiserver $version and etcd into $out (cold builds take tens of minutes)" >&2
started="$(date +%s)"
ldflags="-s -w"
for kv in "gitVersion=$version" "gitMajor=1" "gitMinor=$minor" "gitTreeState=clean" \
  "buildDate=$(date -u +%Y-%m-%dT%H:%M:%SZ)"; do
  ldflags="$ldflags -X k8s.io/component-base/version.$kv -X k8s.io/client-go/pkg/version.$kv"
done
# How warm Go's build cache is, so a CI log explains the build time: go list marks a package Stale when the build
# would compile it again (its result is not in GOCACHE). Downloads missing modules first, as the build would.
# The same environment and flags as the build below, or every package would look stale.
deps="$(cd "$src" && CGO_ENABLED=0 GOFLAGS="${GOFLAGS:-} -mod=readonly" nice -n 19 \
  go list -trimpath -ldflags "$ldflags" -deps -f '{{if .Stale}}stale{{else}}fresh{{end}}' ./cmd/kube-apiserver ./cmd/etcd)"
total="$(echo "$deps" | wc -l)"
stale="$(echo "$deps" | grep -c '^stale$' || true)"
if [ "$stale" -le 2 ]; then warmth="warm"; elif [ "$stale" -ge $(( total * 9 / 10 )) ]; then warmth="cold"; else warmth="partly warm"; fi
echo "build-apiserver: Go build cache $(go env GOCACHE) is $warmth: $stale of $total packages to compile" >&2
mkdir -p .tools/apiserver
tmp="$(mktemp -d .tools/apiserver/.build.XXXXXX)"
trap 'rm -rf "$tmp"' EXIT
(
  cd "$src"
  CGO_ENABLED=0 GOFLAGS="${GOFLAGS:-} -mod=readonly" nice -n 19 \
    go build -trimpath -ldflags "$ldflags" -o "../../$tmp/" ./cmd/kube-apiserver ./cmd/etcd
)
# CPU time of the build's processes (bash's `times`: children's user and system), beside the wall clock: on a
# shared or loaded machine the wall clock says little, the CPU time says what an idle machine would need.
# `times` must run in this shell, not in a $(...) subshell that has no children of its own.
times_file="$(mktemp)"
times > "$times_file"
cpu="$(tail -n 1 "$times_file" | awk '{ print "user " $1 ", system " $2 }')"
rm -f "$times_file"
echo "$pin" > "$tmp/.pin"
rm -rf "$out"
mv "$tmp" "$out"
trap - EXIT
echo "build-apiserver: built in $(( $(date +%s) - started )) s wall clock (CPU: $cpu; Go build cache was $warmth; load average $(cut -d" " -f1-3 /proc/loadavg))" >&2
echo "$out"
