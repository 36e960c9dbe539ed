#!/usr/bin/env bash
# Records kube-controller-manager's Deployment rollouts again and rewrites the fixture the simulated Deployment
# controller is replayed against (test/fixtures/kube-controller-manager/rollouts.json; its README says what is in it).
# Builds kube-apiserver and etcd (scripts/build-apiserver.sh) and kube-controller-manager from the same pinned Go
# modules into .tools/apiserver/<version>/, then runs scripts/rollouts/record.ts (several minutes: each step waits for
# the controllers to be quiet) and scripts/rollouts/fixture.ts. The transcript and the controllers' log stay in
# .tools/rollouts/. Extra arguments name the scenarios to record (a,b,...); the fixture is then not rewritten.
#
#   bash scripts/record-rollouts.sh
set -euo pipefail
cd "$(dirname "$0")/.."

assets="$(bash scripts/build-apiserver.sh | tail -n 1)"
if [ ! -x "$assets/kube-controller-manager" ] || [ "$(cat "$assets/.kcm-pin" 2>/dev/null)" != "$(cat "$assets/.pin")" ]; then
  echo "record-rollouts: building kube-controller-manager into $assets" >&2
  version="$(basename "$assets")"
  ldflags="-s -w -X k8s.io/component-base/version.gitVersion=$version -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$(echo "$version" | cut -d. -f2)"
  (cd tools/apiserver && CGO_ENABLED=0 GOFLAGS="${GOFLAGS:-} -mod=readonly" nice -n 19 go build -trimpath -ldflags "$ldflags" -o "../../$assets/" ./cmd/kube-controller-manager)
  cp "$assets/.pin" "$assets/.kcm-pin"
fi

mkdir -p .tools/rollouts
transcript=.tools/rollouts/transcript.json
node --import tsx scripts/rollouts/record.ts "$assets" "$assets/kube-controller-manager" "$transcript" "${1:-}"
if [ -n "${1:-}" ]; then
  echo "record-rollouts: recorded scenarios $1 into $transcript; the fixture is rewritten only from a whole recording" >&2
  exit 0
fi
node --import tsx scripts/rollouts/fixture.ts "$transcript" test/fixtures/kube-controller-manager/rollouts.json
