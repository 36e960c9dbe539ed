// Command kube-apiserver is the upstream kube-apiserver, built from k8s.io/kubernetes as a Go module so that the
// envtest-style tier of katalog/testing needs no downloaded binary. It is the same program as upstream's
// cmd/kube-apiserver: the same flags, the same behaviour.
package main

import (
	"os"
	_ "time/tzdata"

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

func main() {
	os.Exit(cli.Run(app.NewAPIServerCommand()))
}
