/**
 * Pre-reconcile gates (`operatorBox.preReconcile`, Orkestra's enqueueGate and reconcileGate): a box in front of
 * the generic or constructor box that decides, for each live object taken from the queue, whether the cycle runs.
 * A closed gate skips the cycle entirely (no children, no hooks, no status write) and the outcome is a success:
 * the object is looked at again on its next change or at resync, as Orkestra discards a gated item. The delete
 * path and a vanished object are never gated (a gated object must still be deletable).
 *
 * A gate passes when one of its `sentinels` is true; otherwise when its `when` conditions all hold and one of its
 * `anyOf` holds (an empty gate passes). Both gates are evaluated here, enqueueGate first: katalog's queue holds
 * keys, so an event the enqueueGate refuses is discarded when taken from the queue instead of before it, with
 * the same result (the box does not run).
 *
 * Sentinels compare the object with the state this gate saw last for the key (whether it let it through or not),
 * so a burst of changes coalesced into one queue item counts every change: `generationChanged` is true when the
 * generation differs, and so on. An object the gate sees for the first time (created, or first seen since this
 * process started) has every sentinel true. Resync visits change nothing, so a sentinel gate holds them back,
 * as in Orkestra. Gate conditions also see `.sentinels.<name>` as `"true"` / `"false"`, and the results of the
 * gates' external calls as `.external.<name>` (gate-calls.ts; a gate of sentinels makes no calls).
 */
import type { Gate, PreReconcile, Sentinel } from '../definition/types.js';
import type { KubeObject } from '../kube/resource.js';
import type { Logger } from '../observe/logger.js';
import { compileConditions, type CompiledConditions, type TemplateDialect, type UserNote } from '../template/index.js';
import type { BoxInput, BoxOutput, DeleteOutput, OperatorBoxStage } from './stage.js';
import { templateData } from './template-data.js';
import { cloneMetadata, managedFieldsFingerprint } from '../kube/cache-slim.js';
import type { GateCalls, GateCycle } from './gate-calls.js';

type Metadata = NonNullable<KubeObject['metadata']>;

/** How each sentinel reads a change between two states of an object's metadata. */
export const SENTINEL_CHECKS: Readonly<Record<Sentinel, (old: Metadata, now: Metadata) => boolean>> = {
  generationChanged: (old, now) => old.generation !== now.generation,
  labelsChanged: (old, now) => !same(old.labels, now.labels),
  annotationsChanged: (old, now) => !same(old.annotations, now.annotations),
  deletionStarted: (old, now) => old.deletionTimestamp === undefined && now.deletionTimestamp !== undefined,
  finalizersChanged: (old, now) => !same(old.finalizers, now.finalizers),
  nameChanged: (old, now) => old.name !== now.name,
  namespaceChanged: (old, now) => old.namespace !== now.namespace,
  generateNameChanged: (old, now) => old.generateName !== now.generateName,
  uidChanged: (old, now) => old.uid !== now.uid,
  resourceVersionChanged: (old, now) => old.resourceVersion !== now.resourceVersion,
  creationTimestampChanged: (old, now) => !same(old.creationTimestamp, now.creationTimestamp),
  deletionGracePeriodSecondsChanged: (old, now) => old.deletionGracePeriodSeconds !== now.deletionGracePeriodSeconds,
  ownerReferenceChanged: (old, now) => !same(old.ownerReferences, now.ownerReferences),
  // The cache keeps a fingerprint of managedFields, not the field (kube/cache-slim.ts).
  managedFieldsChanged: (old, now) => managedFieldsFingerprint(old) !== managedFieldsFingerprint(now),
};

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

interface CompiledGate {
  readonly name: 'enqueueGate' | 'reconcileGate';
  readonly sentinels: readonly Sentinel[];
  readonly conditions: CompiledConditions;
}

export interface GatedBoxOptions {
  readonly crd: string;
  readonly preReconcile: PreReconcile;
  readonly dialect?: TemplateDialect | undefined;
  /** User-defined notes the templates may call (the CRD's `notes`). */
  readonly notes?: readonly UserNote[] | undefined;
  readonly logger: Logger;
  /** Told each time a gate holds an object back (for metrics and tests). */
  readonly onGated?: ((key: string, gate: 'enqueueGate' | 'reconcileGate') => void) | undefined;
  /** The gates' external calls (gate-calls.ts), made before a gate's conditions; absent when none. */
  readonly calls?: GateCalls | undefined;
  /** The runtime's clock, for the clock notes (default Date.now). */
  readonly now?: (() => number) | undefined;
}

export class GatedBox implements OperatorBoxStage {
  private readonly gates: readonly CompiledGate[];
  private readonly declared: readonly Sentinel[];
  /** Metadata of each key as the gates saw it last: what the sentinels compare with. */
  private readonly seen = new Map<string, Metadata>();

  /** Compiles the gates' conditions; throws a TemplateError when one does not compile. */
  constructor(
    private readonly inner: OperatorBoxStage,
    private readonly options: GatedBoxOptions,
  ) {
    const { preReconcile, crd, dialect, notes, now } = options;
    const compile = (name: 'enqueueGate' | 'reconcileGate', gate: Gate | undefined): CompiledGate[] =>
      gate === undefined
        ? []
        : [{ name, sentinels: gate.sentinels, conditions: compileConditions({ when: gate.when, anyOf: gate.anyOf }, { name: `spec.crds.${crd}.operatorBox.preReconcile.${name}`, ...(dialect === undefined ? {} : { dialect }), ...(notes === undefined ? {} : { notes }), ...(now === undefined ? {} : { now }) }) }];
    this.gates = [...compile('enqueueGate', preReconcile.enqueueGate), ...compile('reconcileGate', preReconcile.reconcileGate)];
    this.declared = [...new Set([...preReconcile.sentinels, ...this.gates.flatMap((gate) => gate.sentinels)])];
  }

  async reconcile(input: BoxInput): Promise<BoxOutput> {
    const closed = await this.closedGate(input.key, input.object, input.signal);
    if (closed === undefined) return this.inner.reconcile(input);
    this.options.onGated?.(input.key, closed);
    this.options.logger.debug('pre-reconcile gate closed: cycle skipped', { crd: this.options.crd, key: input.key, gate: closed });
    return { desired: [], writeStatus: false };
  }

  delete(input: BoxInput): Promise<DeleteOutput> {
    return this.inner.delete(input);
  }

  async notFound(key: string, signal: AbortSignal): Promise<DeleteOutput> {
    this.seen.delete(key);
    return this.inner.notFound(key, signal);
  }

  /** The first gate that holds the object back, or undefined when every gate passes. Records what it saw. */
  private async closedGate(key: string, object: KubeObject, signal: AbortSignal): Promise<'enqueueGate' | 'reconcileGate' | undefined> {
    const now = object.metadata ?? {};
    const before = this.seen.get(key);
    this.seen.set(key, cloneMetadata(now));
    try {
      return await this.evaluate(key, object, before, signal);
    } catch (error) {
      // A failed external call (failPolicy closed) fails the cycle: its retry must see the same changes.
      if (before === undefined) this.seen.delete(key);
      else this.seen.set(key, before);
      throw error;
    }
  }

  private async evaluate(key: string, object: KubeObject, before: Metadata | undefined, signal: AbortSignal): Promise<'enqueueGate' | 'reconcileGate' | undefined> {
    const now = object.metadata ?? {};
    const cycle: GateCycle = {};
    const sentinels: Record<string, string> = {};
    for (const name of this.declared) sentinels[name] = before === undefined || SENTINEL_CHECKS[name](before, now) ? 'true' : 'false';
    const data = templateData(object, {}, { sentinels });
    for (const gate of this.gates) {
      if (gate.sentinels.length > 0) {
        if (!gate.sentinels.some((name) => sentinels[name] === 'true')) return gate.name;
        continue;
      }
      const prepared = this.options.calls === undefined ? data : await this.options.calls.prepare(cycle, gate.name, key, object, data, signal);
      if (prepared === 'pass') continue;
      const verdict = gate.conditions.evaluate(prepared);
      // A condition whose data does not fit its comparison is false (the gate holds); the warning says which.
      for (const warning of verdict.warnings) this.options.logger.warn('pre-reconcile gate condition', { crd: this.options.crd, gate: gate.name, warning });
      if (!verdict.ok) return gate.name;
    }
    return undefined;
  }
}
