// A child process for test/kube/transport-undici.test.ts: sends requests over both pools (undici for requests,
// node:http for a watch), leaves them open, calls close() and must then exit by itself. Prints "closed <ms>" and the sockets left open after it.
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../../src/kube/client.js';

const UNDICI = { transport: { engine: 'undici' as const } };

const CONFIGMAPS = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true };
const kubeConfig = new KubeConfig();
kubeConfig.loadFromClusterAndUser({ name: 'child', server: process.argv[2] ?? '', skipTLSVerify: true }, { name: 'child' });
const client = new KubeClient(kubeConfig, UNDICI);
const watch = client.watch(CONFIGMAPS, { namespace: 'default' }, () => undefined);
await Promise.all(Array.from({ length: 8 }, (_, i) => client.get(CONFIGMAPS, `none-${i}`, 'default')));
await client.apply(CONFIGMAPS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'exit-child', namespace: 'default' } }, { fieldManager: 'child' });
console.log(`open ${client.transport.openSockets}`);
client.close();
await watch.done;
console.log(`closed ${Date.now()}`);
// Sockets close a moment after destroy(): wait for them (a deadline, not a guess of speed), then say how many are left.
const sockets = (): number => process.getActiveResourcesInfo().filter((name) => name === 'TCPSocketWrap' || name === 'TLSWrap').length;
const deadline = Date.now() + 20_000;
while (sockets() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
console.log(`sockets ${sockets()}`);
