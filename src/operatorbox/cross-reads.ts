/**
 * `operatorBox.cross`: custom resources of other CRDs of the definition, read into the template data as
 * `.cross.<as>` (Orkestra's cross-CRD observation). Each target kind has one informer of its own (its own list
 * and watch, never a poll), started before the workers so that the first reconciles see it.
 *
 * What a template sees, as Orkestra shapes it: `{found: "true", name, namespace, spec, status, labels?,
 * annotations?}` for a match, `{found: "false", spec: {}, status: {}}` without one; with `strategy: all`, a list
 * of matches in name order (empty when none).
 *
 * Each read is remembered per reading custom resource (by the target's key for a name, by the selector for
 * labels); a change of a target object reconciles again exactly the custom resources whose last read named it or
 * whose label selector matches its labels before or after the change. A selector that does not render (or renders
 * an empty name) fails the reconcile with the entry's path; it is retried with backoff like any failure.
 */
import type { CrossEntry } from '../definition/types.js';
import type { KubeClient } from '../kube/client.js';
import { startInformers, stopInformers } from '../kube/informer-group.js';
import { Informer, type InformerEvent, type InformerTuning } from '../kube/informer.js';
import { keyOf, type KubeObject, type ResourceRef } from '../kube/resource.js';
import { compileTemplate, type CompiledTemplate, type TemplateData, type TemplateDialect, type UserNote } from '../template/index.js';
import type { Clock } from '../util/clock.js';
import { RuntimeError } from '../errors.js';
import { wrapStage, type OperatorBoxStage } from './stage.js';

/** The entries this module reads (the others are read over HTTP, cross-source.ts). */
export { informerEntries } from './cross-source.js';

export interface CrossReadsOptions {
  readonly client: KubeClient;
  readonly clock: Clock;
  /** The reading CRD's name, for template names and messages. */
  readonly crd: string;
  /** The cross entries with the resource each target kind was resolved to. */
  readonly entries: ReadonlyArray<{ readonly entry: CrossEntry; readonly resource: ResourceRef }>;
  readonly dialect?: TemplateDialect | undefined;
  /** User-defined notes the templates may call (the CRD's `notes`). */
  readonly notes?: readonly UserNote[] | undefined;
  /** Whether a key of the reading CRD is in its cache. */
  readonly primary: { has(key: string): boolean };
  readonly enqueue: (key: string) => void;
  readonly tuning?: InformerTuning;
  readonly onRestart?: (reason: string) => void;
  readonly onError?: (error: Error) => void;
}

interface CompiledEntry {
  readonly entry: CrossEntry;
  readonly resource: ResourceRef;
  readonly informer: Informer;
  readonly name: CompiledTemplate | undefined;
  readonly namespace: CompiledTemplate | undefined;
  readonly labels: ReadonlyArray<readonly [string, CompiledTemplate]>;
}

/** One label read: the kind's informer, the namespace it was limited to (undefined = all), the labels it asked for. */
interface LabelRead {
  readonly informer: Informer;
  readonly namespace: string | undefined;
  readonly labels: Readonly<Record<string, string>>;
}

/** Orkestra's shape for "nothing matched". */
function notFound(): Record<string, unknown> {
  return { found: 'false', spec: {}, status: {} };
}

/** Orkestra's shape for a match: identity, spec, status, labels and annotations (managed fields never). */
function found(object: KubeObject): Record<string, unknown> {
  const meta = object.metadata ?? {};
  return {
    found: 'true',
    name: meta.name ?? '',
    namespace: meta.namespace ?? '',
    spec: object['spec'] ?? {},
    status: object['status'] ?? {},
    ...(meta.labels !== undefined && Object.keys(meta.labels).length > 0 ? { labels: meta.labels } : {}),
    ...(meta.annotations !== undefined && Object.keys(meta.annotations).length > 0 ? { annotations: meta.annotations } : {}),
  };
}

function matches(object: KubeObject | undefined, read: LabelRead): boolean {
  if (object === undefined) return false;
  if (read.namespace !== undefined && object.metadata?.namespace !== read.namespace) return false;
  const labels = object.metadata?.labels ?? {};
  return Object.entries(read.labels).every(([key, value]) => labels[key] === value);
}

export class CrossReads {
  private readonly compiled: CompiledEntry[] = [];
  private readonly informers = new Map<string, Informer>();
  /** Target (informer id + key) → the reading keys whose last read named it. */
  private readonly byTarget = new Map<string, Set<string>>();
  /** Reading key → the targets it named last (to forget them on the next read). */
  private readonly named = new Map<string, string[]>();
  /** Reading key → its label reads. */
  private readonly byLabels = new Map<string, LabelRead[]>();
  private readonly ids = new Map<Informer, string>();
  private listening = false;

  /** Compiles the selectors; throws a TemplateError when one does not compile. */
  constructor(private readonly options: CrossReadsOptions) {
    for (const { entry, resource } of options.entries) {
      const id = `${resource.group}/${resource.plural}`;
      let informer = this.informers.get(id);
      if (informer === undefined) {
        const created: Informer = new Informer({
          client: options.client,
          resource,
          clock: options.clock,
          ...(options.tuning ?? {}),
          onEvent: (event) => this.onEvent(created, event),
          ...(options.onRestart === undefined ? {} : { onRestart: options.onRestart }),
          ...(options.onError === undefined ? {} : { onError: options.onError }),
        });
        informer = created;
        this.informers.set(id, created);
        this.ids.set(created, id);
      }
      const compileOne = (source: string, field: string): CompiledTemplate =>
        compileTemplate(source, { name: `${entry.path}.selector.${field}`, ...(options.dialect === undefined ? {} : { dialect: options.dialect }), ...(options.notes === undefined ? {} : { notes: options.notes }), now: () => options.clock.now() });
      const compile = (source: string | undefined, field: string): CompiledTemplate | undefined => (source === undefined ? undefined : compileOne(source, field));
      this.compiled.push({
        entry,
        resource,
        informer,
        name: compile(entry.name, 'name'),
        namespace: compile(entry.namespace, 'namespace'),
        labels: Object.entries(entry.matchLabels ?? {}).map(([key, value]) => [key, compileOne(value, `matchLabels.${key}`)] as const),
      });
    }
  }

  get synced(): boolean {
    return [...this.informers.values()].every((informer) => informer.synced);
  }

  /** Lists and watches every target kind; rejects (with every watch stopped) when a first list fails. */
  async start(): Promise<void> {
    await startInformers(this.informers.values());
    this.listening = true;
  }

  async stop(): Promise<void> {
    this.listening = false;
    await stopInformers(this.informers.values());
  }

  /**
   * `{cross: {...}}` for the templates of `object`, read from the caches (the objects are the cached ones: read,
   * never mutate). Records what was read, so that changes of those objects reconcile `object` again.
   */
  data(object: KubeObject, data: TemplateData): { readonly cross: Readonly<Record<string, unknown>> } {
    const reader = keyOf(object);
    const cross: Record<string, unknown> = {};
    const named: string[] = [];
    const labelReads: LabelRead[] = [];
    for (const compiled of this.compiled) {
      const { entry, resource, informer } = compiled;
      const namespace = resource.namespaced ? (compiled.namespace === undefined ? object.metadata?.namespace : compiled.namespace.renderString(data)) : undefined;
      let results: KubeObject[];
      if (compiled.name !== undefined) {
        const name = compiled.name.renderString(data);
        if (name === '') throw new RuntimeError('E_CROSS', `${entry.path}: selector.name rendered empty`);
        const key = namespace === undefined || namespace === '' ? name : `${namespace}/${name}`;
        named.push(`${this.ids.get(informer) ?? ''}\u0000${key}`);
        const hit = informer.get(key);
        results = hit === undefined ? [] : [hit];
      } else {
        const labels: Record<string, string> = {};
        for (const [key, template] of compiled.labels) labels[key] = template.renderString(data);
        const read: LabelRead = { informer, namespace: compiled.namespace === undefined || !resource.namespaced ? undefined : namespace, labels };
        labelReads.push(read);
        results = [...informer.values()].filter((candidate) => matches(candidate, read)).sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
      }
      cross[entry.as] = entry.strategy === 'all' ? results.map(found) : results[0] === undefined ? notFound() : found(results[0]);
    }
    this.remember(reader, named, labelReads);
    return { cross };
  }

  /** The reading custom resource is gone: its reads no longer trigger anything. */
  forget(reader: string): void {
    this.remember(reader, [], []);
  }

  private remember(reader: string, named: readonly string[], labelReads: readonly LabelRead[]): void {
    for (const target of this.named.get(reader) ?? []) {
      const readers = this.byTarget.get(target);
      readers?.delete(reader);
      if (readers?.size === 0) this.byTarget.delete(target);
    }
    if (named.length === 0) this.named.delete(reader);
    else this.named.set(reader, [...named]);
    for (const target of named) {
      const readers = this.byTarget.get(target) ?? new Set<string>();
      readers.add(reader);
      this.byTarget.set(target, readers);
    }
    if (labelReads.length === 0) this.byLabels.delete(reader);
    else this.byLabels.set(reader, [...labelReads]);
  }

  /** A target object changed: reconcile the custom resources that read it (by name, or by labels before or after). */
  private onEvent(informer: Informer, event: InformerEvent): void {
    if (!this.listening) return;
    const readers = new Set(this.byTarget.get(`${this.ids.get(informer) ?? ''}\u0000${event.key}`));
    for (const [reader, reads] of this.byLabels) {
      if (reads.some((read) => read.informer === informer && (matches(event.object, read) || matches(event.old, read)))) readers.add(reader);
    }
    for (const reader of readers) if (this.options.primary.has(reader)) this.options.enqueue(reader);
  }
}

/** The box, with the reads of a custom resource forgotten once it is gone from the cache. */
export function forgetOnNotFound(inner: OperatorBoxStage, cross: Pick<CrossReads, 'forget'>): OperatorBoxStage {
  return wrapStage(inner, { forget: (key) => cross.forget(key) });
}
