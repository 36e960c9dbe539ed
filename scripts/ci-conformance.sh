#!/usr/bin/env bash
# The conformance suite (test/conformance) against a real kube-apiserver and etcd: builds them from Go modules with
# scripts/build-apiserver.sh (or reuses the folder when the pin is unchanged), then runs the suite with
# KATALOG_CONFORMANCE_BACKEND=kube-apiserver and KUBEBUILDER_ASSETS pointing at them. Fails (never skips) when Go
# is missing or the build fails: the error is Go's, printed above.
set -euo pipefail
cd "$(dirname "$0")/.."

assets="$(scripts/build-apiserver.sh | tail -n 1)"
echo "conformance: kube-apiserver and etcd from $assets ($("$assets/kube-apiserver" --version 2>/dev/null || echo 'version unknown'))"
KUBEBUILDER_ASSETS="$(cd "$assets" && pwd)" KATALOG_CONFORMANCE_BACKEND=kube-apiserver node scripts/run-tests.mjs test/conformance
