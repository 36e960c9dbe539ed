/**
 * The request log: every HTTP request the server answered, with its Kubernetes audit verb (get, list, watch,
 * create, update, patch, delete, deletecollection), resource, namespace, name, subresource and status.
 * Counts are exact; the log keeps the most recent entries only.
 */

/** One answered request. Discovery and health requests have verb `get` and an empty resource. */
export interface RequestRecord {
  readonly method: string;
  readonly verb: string;
  readonly resource: string;
  readonly namespace: string;
  readonly name: string;
  readonly subresource: string;
  readonly status: number;
  readonly path: string;
}

export interface RequestFilter {
  readonly verb?: string;
  readonly resource?: string;
  readonly namespace?: string;
}

/** Counting and reading the requests a server answered (HTTP only: the direct methods are not counted). */
export interface RequestCounter {
  /** Number of requests matching every given field (all requests without a filter). */
  count(filter?: RequestFilter): number;
  /** Forgets counts and log. */
  reset(): void;
  /** The most recent requests (at most `requestLogSize`), oldest first. */
  log(): readonly RequestRecord[];
}

export class RequestLog implements RequestCounter {
  private entries: RequestRecord[] = [];
  private readonly counts = new Map<string, { verb: string; resource: string; namespace: string; n: number }>();

  constructor(private readonly capacity: number) {}

  record(entry: RequestRecord): void {
    this.entries.push(entry);
    if (this.entries.length > this.capacity * 2) this.entries = this.entries.slice(-this.capacity);
    const key = `${entry.verb}\u0000${entry.resource}\u0000${entry.namespace}`;
    const bucket = this.counts.get(key);
    if (bucket === undefined) this.counts.set(key, { verb: entry.verb, resource: entry.resource, namespace: entry.namespace, n: 1 });
    else bucket.n += 1;
  }

  count(filter: RequestFilter = {}): number {
    let total = 0;
    for (const bucket of this.counts.values()) {
      if (filter.verb !== undefined && bucket.verb !== filter.verb) continue;
      if (filter.resource !== undefined && bucket.resource !== filter.resource) continue;
      if (filter.namespace !== undefined && bucket.namespace !== filter.namespace) continue;
      total += bucket.n;
    }
    return total;
  }

  reset(): void {
    this.entries = [];
    this.counts.clear();
  }

  log(): readonly RequestRecord[] {
    return this.entries.slice(-this.capacity);
  }
}
