import { measureRawWrites } from './support/raw-writes.js';
import { startRemoteServer } from './support/remote-server.js';
for (let i = 0; i < 3; i++) {
  const server = await startRemoteServer();
  const raw = await measureRawWrites(server.url, 2, 4000).finally(() => server.stop());
  console.log(`${process.cwd()}: ${raw.rate.toFixed(0)}/s rt ${raw.roundTripMs.toFixed(2)} ms (cold ${raw.cold.rate.toFixed(0)}/s rt ${raw.cold.roundTripMs.toFixed(2)} ms)`);
}
