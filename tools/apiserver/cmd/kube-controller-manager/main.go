// Command kube-controller-manager is the upstream kube-controller-manager, built from k8s.io/kubernetes as a Go
// module (scripts/record-rollouts.sh builds it on demand; CI does not). It records what the real Deployment and
// ReplicaSet controllers do, for the simulated ones of katalog/testing to be compared with. It is the same program
// as upstream's cmd/kube-controller-manager: the same flags, the same behaviour.
package main

import (
	"os"
	_ "time/tzdata"

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	"k8s.io/kubernetes/cmd/kube-controller-manager/app"
)

func main() {
	os.Exit(cli.Run(app.NewControllerManagerCommand()))
}
