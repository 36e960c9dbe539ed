// bench/peers: the job as a katalog Katalog — one child ConfigMap with drift correction (reconcile: true) and the
// Ready condition katalog writes, 2 workers.
import { createRuntime } from '../../src/create-runtime.js';
// @ts-expect-error -- plain JS helper shared with the peers
import { started } from './probe.mjs';

const runtime = createRuntime(
  {
    apiVersion: 'katalog.dev/v1',
    kind: 'Katalog',
    metadata: { name: 'peers' },
    spec: {
      crds: {
        widget: {
          apiTypes: { group: 'example.io', version: 'v1', kind: 'Widget', plural: 'widgets' },
          workers: Number(process.env['WORKERS'] ?? 2),
          operatorBox: {
            onCreate: {
              configMaps: [{ name: '{{ .metadata.name }}', reconcile: true, data: { image: '{{ .spec.image }}', replicas: '{{ .spec.replicas }}' } }],
            },
          },
        },
      },
    },
  },
  // The kubeconfig comes from KUBECONFIG, which the bench points at the test API server. RESYNC_MS (bench:peers
  // `resync=MS`) sets the periodic resync, to measure its cost in the idle window; default: the runtime's (10 min).
  { defaults: { maxDepth: 100_000, ...(process.env['RESYNC_MS'] === undefined ? {} : { resync: Number(process.env['RESYNC_MS']) }) } },
);
(started as () => void)();
await runtime.start();
