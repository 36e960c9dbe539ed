// A test API server in its own process (so that it has a core of its own), driven over IPC by a benchmark:
//   { seed: { crd, count, namespace } } creates `count` objects directly; { count: {apiVersion, kind} } counts them.
import { startTestApiServer } from '../../src/testing/index.js';

const server = await startTestApiServer();
process.on('message', (raw: unknown) => {
  const message = raw as { id: number; seed?: { apiVersion: string; kind: string; count: number; prefix: string }; crd?: unknown; count?: { kind: string }; stop?: boolean };
  const reply = (value: unknown): void => void process.send?.({ id: message.id, value });
  if (message.crd !== undefined) {
    server.applyCrd(message.crd);
    void server.settled().then(() => reply(true));
  } else if (message.seed !== undefined) {
    const { apiVersion, kind, count, prefix } = message.seed;
    for (let i = 0; i < count; i++) {
      server.create({ apiVersion, kind, metadata: { name: `${prefix}${i}`, namespace: 'default', labels: { app: 'bench', tier: 'web', team: 'katalog' } }, spec: { image: 'nginx:1.27', replicas: 2, ports: [80, 443], env: { MODE: 'bench' }, size: i } });
    }
    reply(count);
  } else if (message.count !== undefined) {
    const kind = message.count.kind;
    reply(server.objects({ kind }).length);
  } else if (message.stop === true) {
    void server.stop().then(() => {
      reply(true);
      process.exit(0);
    });
  }
});
process.send?.({ id: 0, value: server.url });
