// The CRDs of bench/scale: Scale<i> in scale.bench.katalog.dev, each resource with one child ConfigMap (drift
// correction on: `reconcile: true`) named after it, and the Ready condition katalog writes.
import { crdManifest } from '../../src/testing/index.js';

export const SCALE_GROUP = 'scale.bench.katalog.dev';

export const scaleKind = (i: number): string => `Scale${i}`;
export const scalePlural = (i: number): string => `scale${i}s`;

/** The CustomResourceDefinition of CRD number `i`. */
export function scaleCrdManifest(i: number): Record<string, unknown> {
  return crdManifest({ group: SCALE_GROUP, kind: scaleKind(i), plural: scalePlural(i) }) as Record<string, unknown>;
}

/** The Katalog entry of CRD number `i`. */
export function scaleCrd(i: number): Record<string, unknown> {
  return {
    apiTypes: { group: SCALE_GROUP, version: 'v1', kind: scaleKind(i), plural: scalePlural(i) },
    operatorBox: {
      onCreate: {
        configMaps: [{ name: '{{ .metadata.name }}', reconcile: true, data: { image: '{{ .spec.image }}', replicas: '{{ .spec.replicas }}' } }],
      },
    },
  };
}
