// Package kinds lists the built-in kinds the test API server serves, for the generators under gen/.
package kinds

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"
)

// Served are the built-in kinds the test API server serves, CustomResourceDefinition aside (see New).
var Served = []schema.GroupVersionKind{
	{Version: "v1", Kind: "Namespace"}, {Version: "v1", Kind: "Node"}, {Version: "v1", Kind: "ConfigMap"},
	{Version: "v1", Kind: "Secret"}, {Version: "v1", Kind: "Service"}, {Version: "v1", Kind: "ServiceAccount"},
	{Version: "v1", Kind: "Pod"}, {Version: "v1", Kind: "PersistentVolumeClaim"}, {Version: "v1", Kind: "PersistentVolume"},
	{Version: "v1", Kind: "LimitRange"}, {Version: "v1", Kind: "ResourceQuota"}, {Version: "v1", Kind: "Event"},
	{Group: "events.k8s.io", Version: "v1", Kind: "Event"},
	{Group: "discovery.k8s.io", Version: "v1", Kind: "EndpointSlice"},
	{Group: "storage.k8s.io", Version: "v1", Kind: "StorageClass"},
	{Group: "apps", Version: "v1", Kind: "Deployment"}, {Group: "apps", Version: "v1", Kind: "StatefulSet"},
	{Group: "apps", Version: "v1", Kind: "DaemonSet"}, {Group: "apps", Version: "v1", Kind: "ReplicaSet"},
	{Group: "batch", Version: "v1", Kind: "Job"}, {Group: "batch", Version: "v1", Kind: "CronJob"},
	{Group: "networking.k8s.io", Version: "v1", Kind: "Ingress"}, {Group: "networking.k8s.io", Version: "v1", Kind: "NetworkPolicy"},
	{Group: "policy", Version: "v1", Kind: "PodDisruptionBudget"},
	{Group: "scheduling.k8s.io", Version: "v1", Kind: "PriorityClass"},
	{Group: "autoscaling", Version: "v2", Kind: "HorizontalPodAutoscaler"},
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingWebhookConfiguration"},
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingWebhookConfiguration"},
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingAdmissionPolicy"},
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingAdmissionPolicyBinding"},
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingAdmissionPolicy"},
	{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "MutatingAdmissionPolicyBinding"},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "Role"}, {Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "RoleBinding"},
	{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole"}, {Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRoleBinding"},
	{Group: "coordination.k8s.io", Version: "v1", Kind: "Lease"},
	apiextensionsv1.SchemeGroupVersion.WithKind("CustomResourceDefinition"),
}

// Subresources are the objects of subresources whose bodies the test API server patches: a workload's Scale.
var Subresources = []schema.GroupVersionKind{{Group: "autoscaling", Version: "v1", Kind: "Scale"}}

// New answers a zero object of one served kind (client-go's scheme has every kind but the CRD's).
func New(gvk schema.GroupVersionKind) (runtime.Object, error) {
	if gvk == apiextensionsv1.SchemeGroupVersion.WithKind("CustomResourceDefinition") {
		return &apiextensionsv1.CustomResourceDefinition{}, nil
	}
	return scheme.Scheme.New(gvk)
}

// Key names a kind as the generated tables do: `<group>/<version>/<Kind>`, core kinds `v1/<Kind>`.
func Key(gvk schema.GroupVersionKind) string {
	if gvk.Group == "" {
		return gvk.Version + "/" + gvk.Kind
	}
	return gvk.Group + "/" + gvk.Version + "/" + gvk.Kind
}
