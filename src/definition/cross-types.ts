/**
 * Cross reads in the normalised definition (`operatorBox.cross[]`): custom resources of another CRD of the same
 * definition, read from an informer of that kind, or data of another Orkestra process read over HTTP
 * (`source`, for a CRD this definition does not declare). Both land in the template data as `.cross.<as>`.
 * Re-exported by types.ts.
 */
import type { ExternalAuth } from './external-types.js';

/** Which of another Orkestra process's routes a `source.host` reads (Orkestra's "ONCOP" protocols). */
export const CROSS_SOURCE_PROTOCOLS = ['cr', 'info', 'metrics', 'health', 'events'] as const;
export type CrossSourceProtocol = (typeof CROSS_SOURCE_PROTOCOLS)[number];

/** Default time a cross read over HTTP may take, request to last byte (Orkestra's 5 s). */
export const DEFAULT_CROSS_SOURCE_TIMEOUT_MS = 5000;
/** Largest response a cross read over HTTP accepts (Orkestra reads at most 64 KiB); a larger one fails the read. */
export const DEFAULT_CROSS_SOURCE_MAX_BYTES = 64 * 1024;

/**
 * `cross[].source`: where another process serves the entry's data. Exactly one of `endpoint` (a URL template, used
 * as written) and `host` (the other process's base URL, the route chosen by `protocol`).
 */
export interface CrossSource {
  /** A URL template over the reading custom resource; absent when `host` is given. */
  readonly endpoint: string | undefined;
  /** The other process's base URL (no template); absent when `endpoint` is given. */
  readonly host: string | undefined;
  /** The route `host` reads (`info` by default, as Orkestra); with `endpoint`, what the endpoint serves, if said. */
  readonly protocol: CrossSourceProtocol | undefined;
  /** The namespace of `cr`/`events` routes (a template); absent = the selector's, else the reading custom resource's. */
  readonly namespace: string | undefined;
  /** Reuse a successful answer this long (same rendered URL); absent = read at every use. */
  readonly cacheForMs: number | undefined;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  /** A credential from a Secret, sent as `Authorization: Bearer …` (or in `auth.header`). */
  readonly auth: ExternalAuth | undefined;
}

/**
 * `operatorBox.cross[]`: custom resources of another CRD of the same definition, read from an informer of that
 * kind into the template data as `.cross.<as>` (their changes reconcile the custom resources that read them), or,
 * with `source`, another process's answer read over HTTP before each reconcile.
 */
export interface CrossEntry {
  /** The other CRD's name (in this definition, or in the other process for a `source` entry). */
  readonly crd: string;
  /** The other CRD's apiVersion and kind (resolved at load from its entry); empty for a `source` entry. */
  readonly apiVersion: string;
  readonly kind: string;
  /** The key under `.cross` (default: the CRD's name). */
  readonly as: string;
  /** The custom resource's name (a template); absent when `matchLabels` selects or a `source` route needs none. */
  readonly name: string | undefined;
  /** Its namespace (a template); absent = the reading custom resource's namespace. */
  readonly namespace: string | undefined;
  /** Label selection (values are templates): every custom resource of the kind whose labels hold all of them. */
  readonly matchLabels: Readonly<Record<string, string>> | undefined;
  /** `first`: `.cross.<as>` is one result; `all`: a list of every match (name order). */
  readonly strategy: 'first' | 'all';
  /** Read over HTTP from another process (only for a CRD this definition does not declare); absent = an informer. */
  readonly source?: CrossSource | undefined;
  /** The document path of the entry, for messages. */
  readonly path: string;
}
