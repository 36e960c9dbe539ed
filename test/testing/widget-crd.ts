// CRD manifests the test API server tests install: a namespaced Widget with two versions and a cluster-scoped Gadget.
import { loadYaml, type V1CustomResourceDefinition } from '@kubernetes/client-node';

export const WIDGET_CRD_YAML = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: widgets
    singular: widget
    kind: Widget
    shortNames: [wd]
    categories: [all, things]
  versions:
    - name: v1
      served: true
      storage: true
      subresources:
        status: {}
      additionalPrinterColumns:
        - { name: Size, type: integer, jsonPath: .spec.size }
        - { name: Ready, type: string, jsonPath: '.status.conditions[?(@.type=="Ready")].status' }
        - { name: Owner, type: string, jsonPath: .spec.owner, priority: 1 }
        - { name: Age, type: date, jsonPath: .metadata.creationTimestamp }
      schema:
        openAPIV3Schema:
          type: object
          x-kubernetes-preserve-unknown-fields: true
    - name: v1beta1
      served: true
      storage: false
      schema:
        openAPIV3Schema:
          type: object
          x-kubernetes-preserve-unknown-fields: true
`;

export const GADGET_CRD_YAML = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.org
spec:
  group: example.org
  scope: Cluster
  names:
    plural: gadgets
    kind: Gadget
  versions:
    - name: v1alpha1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          x-kubernetes-preserve-unknown-fields: true
`;

/** The Widget CRD as a client-node model (through loadYaml, which keeps the x-kubernetes-* fields). */
export function widgetCrd(): V1CustomResourceDefinition {
  return loadYaml<V1CustomResourceDefinition>(WIDGET_CRD_YAML);
}

export function gadgetCrd(): V1CustomResourceDefinition {
  return loadYaml<V1CustomResourceDefinition>(GADGET_CRD_YAML);
}

/** A Widget object (plain JSON). */
export function widget(name: string, spec: Record<string, unknown> = { size: 1 }, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, namespace: 'default', ...extra }, spec };
}
