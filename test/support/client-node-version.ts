// Which @kubernetes/client-node the suite runs with: 1.4 in the Node 20 lane, 2.x in the Node 24 lane (.ci/run).
// Some facts differ between them by design of client-node (its HTTP stack), and tests that check such facts say so.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(import.meta.resolve('@kubernetes/client-node'));
const marker = '/node_modules/@kubernetes/client-node/';
const root = entry.slice(0, entry.lastIndexOf(marker) + marker.length);
const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string };

/** The installed version, for example `"2.0.1"`. */
export const CLIENT_NODE_VERSION: string = manifest.version;
/** Its major version: 1 (node-fetch underneath) or 2 (undici's fetch underneath). */
export const CLIENT_NODE_MAJOR: number = Number(CLIENT_NODE_VERSION.split('.')[0]);
/** The default field manager the API server derives from client-node's User-Agent (the part before the first `/`). */
export const CLIENT_NODE_FIELD_MANAGER: string = CLIENT_NODE_MAJOR >= 2 ? 'kubernetes-client-javascript' : 'node-fetch';

/**
 * An error's message followed by its causes' messages and codes. client-node 1.4 reports a refused connection as
 * `connect ECONNREFUSED …`; 2.x (undici) as `fetch failed` with the `ECONNREFUSED` error as its cause.
 */
export function errorChain(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    if (current instanceof Error) {
      const code = (current as { code?: unknown }).code;
      parts.push(typeof code === 'string' ? `${current.message} (${code})` : current.message);
      current = current.cause;
    } else {
      parts.push(String(current));
      current = undefined;
    }
  }
  return parts.join(' <- ');
}
