/**
 * Reads a watch answer: one JSON event per line. Ends exactly once through `finish`: with no error when the server
 * ends the stream, with an error when the connection breaks, a line is not JSON, or `onEvent` throws (the stream is
 * destroyed then, so that nothing more arrives). With `cutManagedFields`, each event's `object.metadata.managedFields`
 * is cut out of the line before it is parsed where that is safe (managed-fields-cut.ts): the object arrives without it.
 */
import type { IncomingMessage } from 'node:http';
import { toError } from '../errors.js';
import { withoutManagedFields } from './managed-fields-cut.js';

export interface WatchLine {
  readonly type: unknown;
  readonly object: unknown;
}

export function readWatchLines(
  res: IncomingMessage,
  onEvent: (event: WatchLine) => void,
  finish: (error: Error | undefined) => void,
  cutManagedFields = false,
): void {
  let ended = false;
  const end = (error: Error | undefined): void => {
    if (ended) return;
    ended = true;
    if (error !== undefined) res.destroy();
    finish(error);
  };
  let rest = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    if (ended) return;
    let text = rest + chunk;
    let newline = text.indexOf('\n');
    let start = 0;
    while (newline !== -1) {
      const line = text.slice(start, newline);
      start = newline + 1;
      if (line.trim() !== '' && !deliver(line)) return;
      newline = text.indexOf('\n', start);
    }
    text = text.slice(start);
    rest = text;
  });
  res.on('end', () => {
    if (rest.trim() !== '' && !deliver(rest)) return;
    end(undefined);
  });
  res.on('error', (error) => end(error));
  res.on('close', () => end(res.complete ? undefined : new Error('the watch connection closed before the stream ended')));

  function deliver(line: string): boolean {
    let event: WatchLine;
    try {
      event = JSON.parse(cutManagedFields ? withoutManagedFields(line, 'event') : line) as WatchLine;
    } catch {
      end(new Error(`watch stream sent a line that is not JSON: ${line.slice(0, 200)}`));
      return false;
    }
    try {
      onEvent(event);
    } catch (error) {
      end(toError(error));
      return false;
    }
    return true;
  }
}
