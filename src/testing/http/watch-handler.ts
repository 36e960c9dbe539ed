/**
 * `GET …?watch=true`: answers 200 at once (headers flushed, so client-node's `watch()` resolves), registers the
 * watcher in the same turn as it reads the state (no event can fall between), then writes the initial events:
 * synthetic ADDED for the current state when no resourceVersion (or "0") was given, or the retained events newer
 * than the given resourceVersion; a resourceVersion older than the history gets an ERROR 410 Expired event and
 * the end of the response.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResourceView } from '../resources/resource-type.js';
import { parseFieldSelector, type FieldSelector } from '../selectors/field-selector.js';
import { parseLabelSelector } from '../selectors/label-selector.js';
import { expired, internalErrorWithMessage } from '../status-errors.js';
import { Watcher, type WatchSink } from '../watch/watcher.js';
import type { ServerContext } from './context.js';
import { checkWatchOptions, flag, goInt, optional, resourceVersionOf } from './query.js';
import { negotiate } from '../printing/accept.js';
import { tableEvents } from '../printing/watch-table.js';
import { conversionFor } from '../conversion/converted-views.js';
import { convertingSink } from '../conversion/conversion-watch.js';

function withName(fields: FieldSelector, name: string | undefined): FieldSelector {
  if (name === undefined) return fields;
  return {
    empty: false,
    matches: (object) => {
      const metadata = object['metadata'] as { name?: unknown } | undefined;
      return metadata?.name === name && fields.matches(object);
    },
  };
}

const STREAM_HEADERS = { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' };

/** Starts a watch; returns once the headers are written (the stream lives on). */
export function startWatch(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
  view: ResourceView,
  namespace: string | undefined,
  name: string | undefined,
  query: URLSearchParams,
): void {
  const { cluster } = ctx;
  const { type } = view;
  const rendering = negotiate(req.headers.accept, 'watch');
  const encode = rendering.as === 'json' ? undefined : tableEvents(cluster, view, rendering, query);
  const labels = parseLabelSelector(optional(query, 'labelSelector'));
  const fields = withName(parseFieldSelector(optional(query, 'fieldSelector'), view.fieldLabels), name);
  // Negative time-outs are accepted as kube-apiserver accepts them, and mean its default here.
  const askedTimeout = goInt(query, 'timeoutSeconds');
  const timeoutSeconds = askedTimeout === undefined || askedTimeout < 0 ? undefined : askedTimeout;
  const sendInitialEvents = checkWatchOptions(query, ctx.watchList);
  const rvParam = optional(query, 'resourceVersion') ?? '';
  // A watch's bad resourceVersion is a 500 on kube-apiserver (its storage layer refuses it, not the request decoding).
  const parsed = resourceVersionOf(query, (detail) => internalErrorWithMessage(detail));
  const from = watchStart(sendInitialEvents, parsed, cluster.store.currentRevision);
  const replay = from === undefined ? undefined : cluster.history.since(from);
  if (from !== undefined && replay === undefined) {
    const status = expired(rvParam, cluster.history.compactedRevision).body;
    res.writeHead(200, STREAM_HEADERS);
    res.end(`{"type":"ERROR","object":${JSON.stringify(status)}}\n`);
    return;
  }

  req.socket.setTimeout(0);
  req.socket.setNoDelay(true);
  res.writeHead(200, STREAM_HEADERS);
  res.flushHeaders();
  const sink: WatchSink = {
    write: (chunk) => {
      res.write(encode === undefined ? chunk : encode(chunk));
    },
    end: () => {
      res.end();
    },
    destroy: () => {
      res.destroy();
      req.socket.destroy();
    },
    buffered: () => res.writableLength + (req.socket.writableLength ?? 0),
  };
  const conversion = conversionFor(cluster, view);
  const watcher = new Watcher(
    { key: type.key, resource: type.plural, namespace, labels, fields, apiVersion: view.apiVersion, kind: type.kind, builtin: type.builtin },
    conversion === undefined ? sink : convertingSink(sink, conversion, view.apiVersion, () => !res.destroyed && !res.writableEnded),
    {
      clock: cluster.clock,
      bookmarkIntervalMs: flag(query, 'allowWatchBookmarks') ? ctx.bookmarkIntervalMs : undefined,
      timeoutMs: timeoutSeconds === undefined || timeoutSeconds === 0 ? undefined : timeoutSeconds * 1000,
      maxBufferedBytes: ctx.maxWatchBufferBytes,
      currentRevision: () => cluster.store.currentRevision,
      onClose: (w) => cluster.hub.remove(w),
    },
  );
  cluster.hub.add(watcher);
  res.on('close', () => watcher.disconnected());
  if (replay === undefined) {
    for (const record of cluster.store.list(type.key, namespace)) watcher.offerExisting(record);
    // kube-apiserver marks the end of the initial state only for a client that allows bookmarks.
    if (sendInitialEvents === true && flag(query, 'allowWatchBookmarks')) watcher.bookmark(true);
  } else {
    for (const event of replay) if (event.key === type.key) watcher.offer(event);
  }
}

/**
 * The revision a watch replays from, or undefined when it starts with the current state (an ADDED per object), as
 * kube-apiserver's watch cache chooses: `sendInitialEvents=true` starts with the state whatever the resourceVersion;
 * `false` replays from the resourceVersion asked, or starts from now for "" and "0", without the state; without
 * `sendInitialEvents` (the legacy watch), "" and "0" start with the state and a resourceVersion replays from it.
 */
function watchStart(sendInitialEvents: boolean | undefined, resourceVersion: number | undefined, current: number): number | undefined {
  if (sendInitialEvents === true) return undefined;
  if (resourceVersion !== undefined && resourceVersion > 0) return resourceVersion;
  return sendInitialEvents === false ? current : undefined;
}
