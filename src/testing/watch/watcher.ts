/**
 * One open watch: filters committed changes for its resource, namespace and selectors, turns them into wire lines
 * (`{"type":…,"object":…}\n`) and writes them in batches (all events of one turn of the event loop in one chunk).
 * Bookmarks and `timeoutSeconds` run on the injected clock.
 */
import type { Clock, TimerHandle } from '../../util/clock.js';
import type { FieldSelector } from '../selectors/field-selector.js';
import type { LabelSelector } from '../selectors/label-selector.js';
import type { ChangeEvent, ChangeType } from '../store/history.js';
import { objectJson, type StoredRecord } from '../store/record.js';

/** Where a watch writes: the HTTP response, seen through what the watcher needs. */
export interface WatchSink {
  write(chunk: string): void;
  /** Ends the response cleanly (the chunked terminator): clients re-watch from their last resourceVersion. */
  end(): void;
  /** Destroys the socket mid-stream: clients see a premature close. */
  destroy(): void;
  /** Bytes written but not yet flushed to the socket. */
  buffered(): number;
}

/** What a watch selects. */
export interface WatchTarget {
  /** Resource key (`group/plural`). */
  readonly key: string;
  /** Plural, for fault filters. */
  readonly resource: string;
  readonly namespace: string | undefined;
  readonly labels: LabelSelector;
  readonly fields: FieldSelector;
  /** The apiVersion and kind the client asked for; objects are written with these. */
  readonly apiVersion: string;
  readonly kind: string;
  /** A built-in kind: a bookmark is its Go struct (`kind` first); a custom resource's is a map, its keys sorted. */
  readonly builtin: boolean;
}

export interface WatcherOptions {
  readonly clock: Clock;
  /** Bookmark period in ms when the client allowed bookmarks; 0 or undefined disables them. */
  readonly bookmarkIntervalMs: number | undefined;
  /** End the watch cleanly after this many ms (from `timeoutSeconds`). */
  readonly timeoutMs: number | undefined;
  /** End the watch cleanly when this many bytes are waiting for a slow client. */
  readonly maxBufferedBytes: number;
  readonly currentRevision: () => number;
  readonly onClose: (watcher: Watcher) => void;
}

/** The wire line of one change at the storage version, built by the first watch that needs it and shared by the others. */
export interface SharedLine {
  line: string | undefined;
}

function eventLine(type: string, objectText: string): string {
  return `{"type":"${type}","object":${objectText}}\n`;
}

export class Watcher {
  private queue: string[] = [];
  private flushScheduled = false;
  private closed = false;
  private stalled = false;
  private stallTimer: ReturnType<typeof setTimeout> | undefined;
  private bookmarkTimer: TimerHandle | undefined;
  private timeoutTimer: TimerHandle | undefined;

  constructor(
    readonly target: WatchTarget,
    private readonly sink: WatchSink,
    private readonly options: WatcherOptions,
  ) {
    const interval = options.bookmarkIntervalMs;
    if (interval !== undefined && interval > 0) this.armBookmark(interval);
    if (options.timeoutMs !== undefined) this.timeoutTimer = options.clock.setTimeout(() => this.end(), options.timeoutMs);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  get isStalled(): boolean {
    return this.stalled;
  }

  /**
   * Fault: the watch goes silent (no event, no bookmark, no time-out end) while its connection stays open; after
   * `forMs`, when given, the connection is dropped. Ending or dropping it still works.
   */
  stall(forMs?: number): void {
    if (this.closed || this.stalled) return;
    this.stalled = true;
    this.queue = [];
    if (this.bookmarkTimer !== undefined) this.options.clock.clearTimeout(this.bookmarkTimer);
    if (this.timeoutTimer !== undefined) this.options.clock.clearTimeout(this.timeoutTimer);
    if (forMs !== undefined) this.stallTimer = setTimeout(() => this.drop(), forMs);
  }

  /** Whether `record` passes this watch's namespace and selectors. */
  selects(record: StoredRecord): boolean {
    const t = this.target;
    if (t.namespace !== undefined && record.namespace !== t.namespace) return false;
    if (!t.labels.empty && !t.labels.matches(record.labels)) return false;
    return t.fields.empty || t.fields.matches(record.object);
  }

  /**
   * Queues the event if it concerns this watch (label transitions become ADDED/DELETED as on a real server);
   * `shared` is where the watches offered the same change share its line.
   */
  offer(event: ChangeEvent, shared?: SharedLine): void {
    if (this.closed) return;
    const now = this.selects(event.record);
    if (event.type !== 'MODIFIED' || event.prev === undefined) {
      if (now) this.push(this.lineFor(event, event.type, shared));
      return;
    }
    const before = this.selects(event.prev);
    if (now) this.push(this.lineFor(event, before ? 'MODIFIED' : 'ADDED', shared));
    else if (before) this.push(this.vanishedLine(event.prev, event.record.rv));
  }

  /** Queues a synthetic ADDED for an existing object. */
  offerExisting(record: StoredRecord): void {
    if (this.selects(record)) this.push(eventLine('ADDED', objectJson(record, this.target.apiVersion, this.target.kind)));
  }

  /** Queues a BOOKMARK at the current revision; `initialEventsEnd` marks the end of `sendInitialEvents`. */
  bookmark(initialEventsEnd = false): void {
    const kind = JSON.stringify(this.target.kind);
    const apiVersion = JSON.stringify(this.target.apiVersion);
    const resourceVersion = `"resourceVersion":"${this.options.currentRevision()}"`;
    const annotations = initialEventsEnd ? '"annotations":{"k8s.io/initial-events-end":"true"}' : undefined;
    const object = this.target.builtin
      ? `{"kind":${kind},"apiVersion":${apiVersion},"metadata":{${[resourceVersion, annotations].filter(Boolean).join(',')}}}`
      : `{"apiVersion":${apiVersion},"kind":${kind},"metadata":{${[annotations, resourceVersion].filter(Boolean).join(',')}}}`;
    this.push(eventLine('BOOKMARK', object));
  }

  /** Flushes what is queued and ends the response cleanly. */
  end(): void {
    if (this.closed) return;
    this.flush();
    this.close();
    this.sink.end();
  }

  /** Destroys the connection without flushing. */
  drop(): void {
    if (this.closed) return;
    this.queue = [];
    this.close();
    this.sink.destroy();
  }

  /** Called when the client went away. */
  disconnected(): void {
    if (this.closed) return;
    this.queue = [];
    this.close();
  }

  /** Writes what is queued now (normally done once per event-loop turn). */
  flush(): void {
    this.flushScheduled = false;
    if (this.closed || this.queue.length === 0) return;
    const chunk = this.queue.length === 1 ? (this.queue[0] ?? '') : this.queue.join('');
    this.queue = [];
    this.sink.write(chunk);
    if (this.sink.buffered() > this.options.maxBufferedBytes) this.end();
  }

  private lineFor(event: ChangeEvent, type: ChangeType, shared: SharedLine | undefined): string {
    const { apiVersion, kind } = this.target;
    if (shared !== undefined && type === event.type && event.record.object['apiVersion'] === apiVersion) {
      shared.line ??= eventLine(type, objectJson(event.record, apiVersion, kind));
      return shared.line;
    }
    return eventLine(type, objectJson(event.record, apiVersion, kind));
  }

  /** DELETED for an object that left the selection: its previous content with the change's resourceVersion. */
  private vanishedLine(prev: StoredRecord, rv: number): string {
    const object = JSON.parse(objectJson(prev, this.target.apiVersion, this.target.kind)) as { metadata: Record<string, unknown> };
    object.metadata['resourceVersion'] = String(rv);
    return eventLine('DELETED', JSON.stringify(object));
  }

  private push(line: string): void {
    if (this.stalled) return;
    this.queue.push(line);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private armBookmark(interval: number): void {
    this.bookmarkTimer = this.options.clock.setTimeout(() => {
      if (this.closed) return;
      this.bookmark();
      this.armBookmark(interval);
    }, interval);
  }

  private close(): void {
    this.closed = true;
    if (this.stallTimer !== undefined) clearTimeout(this.stallTimer);
    if (this.bookmarkTimer !== undefined) this.options.clock.clearTimeout(this.bookmarkTimer);
    if (this.timeoutTimer !== undefined) this.options.clock.clearTimeout(this.timeoutTimer);
    this.options.onClose(this);
  }
}
