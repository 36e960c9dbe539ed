/** Reading and decoding request bodies (JSON; YAML or JSON for server-side apply). */
import type { IncomingMessage } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { badRequest, tooLarge } from '../status-errors.js';

/** Largest accepted body, as on a real server (3 MiB). */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** The whole body as text; 413 past the limit. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(tooLarge(limit));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks.length === 1 ? (chunks[0]?.toString('utf8') ?? '') : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Parses a JSON body; 400 when it is not JSON. */
export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw badRequest(`couldn't decode the request body as JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Parses a merge, JSON or strategic merge patch; kube-apiserver checks first that it is JSON (400 `invalid JSON patch`). */
export function parsePatchBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest('invalid JSON patch');
  }
}

/** Parses an apply body: JSON (what client-node and kubectl send) or YAML; 400 when it is neither. */
export function parseApplyBody(text: string): unknown {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // YAML is a superset of JSON: let the YAML parser report the problem.
    }
  }
  try {
    return parseYaml(text) as unknown;
  } catch (error) {
    throw badRequest(`couldn't decode the apply configuration as YAML or JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}
