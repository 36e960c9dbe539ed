// An operator as its author would ship it: a function that builds the runtime, so tests can point it at any cluster.
import type { KubeConfig } from '@kubernetes/client-node';
import { createRuntime, type Runtime } from 'katalog';

export const KATALOG = `
apiVersion: katalog.dev/v1
kind: Katalog
metadata: { name: counter-operator }
spec:
  crds:
    counter:
      apiTypes: { group: example.io, version: v1, kind: Counter, plural: counters }
      operatorBox:
        onCreate:
          configMaps:
            - name: "{{ .metadata.name }}-count"
              reconcile: true
              data: { count: "{{ .spec.count | default 0 }}" }
        hooks: { function: CounterHooks }
        status:
          fields:
            - { path: doubled, value: "{{ mul (.spec.count | default 0) 2 }}" }
`;

export function createCounterOperator(kubeConfig: KubeConfig): Runtime {
  return createRuntime(KATALOG, {
    kubeConfig,
    hooks: {
      CounterHooks: {
        onReconcile(ctx) {
          const count = Number((ctx.object['spec'] as { count?: number } | undefined)?.count ?? 0);
          if (count < 0) throw new Error(`count must not be negative, got ${count}`);
        },
      },
    },
  });
}
