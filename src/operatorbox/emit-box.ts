/**
 * `operatorBox.events` (Orkestra's `emit.events`): after each reconcile of a live object, every declared Event
 * whose `on` holds the outcome (success: the box returned; failure: it threw) and whose conditions hold is recorded
 * as a Kubernetes Event about the custom resource, `reason` and `message` rendered against the data the status
 * fields see. A gated cycle (preReconcile) and the delete path record none, as Orkestra's postReconcile does not run.
 *
 * Repeats are one Event with a count, as client-go's recorder correlates them: when the same declared Event renders
 * the same type, reason and message for the same custom resource again, the Event recorded last time gets
 * `count + 1` and a new `lastTimestamp` (a merge patch) instead of a new object; if that Event is gone (expired), a
 * new one is created. What this process recorded is remembered per custom resource until it is deleted.
 *
 * An Event is a report of the outcome, never part of it (as in Orkestra): a reason or message that does not render,
 * or an API error while recording, is logged as a warning (the rendered text stays out of the log: it may hold
 * custom-resource data) and the cycle's own result stands. Failing a cycle that did its work, for want of a
 * report, would retry that work for nothing.
 */
import type { EmitEvent } from '../definition/types.js';
import type { KubeClient } from '../kube/client.js';
import type { KubeObject, ResourceRef } from '../kube/resource.js';
import type { Logger } from '../observe/logger.js';
import { KubeError } from '../errors.js';
import { compileConditions, compileTemplate, type CompiledConditions, type CompiledTemplate, type TemplateData, type TemplateDialect, type UserNote } from '../template/index.js';
import type { BoxInput, BoxOutput, DeleteOutput, OperatorBoxStage } from './stage.js';

const EVENTS: ResourceRef = { group: '', version: 'v1', kind: 'Event', plural: 'events', namespaced: true };

export interface EmitBoxOptions {
  readonly crd: string;
  readonly events: readonly EmitEvent[];
  readonly dialect?: TemplateDialect | undefined;
  /** The definition's user-defined notes the templates may call. */
  readonly notes?: readonly UserNote[] | undefined;
  readonly client: KubeClient;
  readonly logger: Logger;
  readonly now: () => number;
  /** The template data of the object (what the status fields see); `failed` tells the outcome. */
  readonly data: (object: KubeObject, failed: boolean) => TemplateData;
}

interface CompiledEvent {
  readonly event: EmitEvent;
  readonly conditions: CompiledConditions;
  readonly reason: CompiledTemplate;
  readonly message: CompiledTemplate;
}

/** The Event recorded last for one declared Event of one custom resource. */
interface Recorded {
  readonly signature: string;
  readonly name: string;
  readonly namespace: string;
  readonly count: number;
}

export class EmitBox implements OperatorBoxStage {
  private readonly compiled: readonly CompiledEvent[];
  /** Per custom resource key, per declared Event name: what was recorded last. */
  private readonly recorded = new Map<string, Map<string, Recorded>>();

  /** Compiles the declared Events; throws a TemplateError when one does not compile. */
  constructor(
    private readonly inner: OperatorBoxStage,
    private readonly options: EmitBoxOptions,
  ) {
    const dialect = { ...(options.dialect === undefined ? {} : { dialect: options.dialect }), ...(options.notes === undefined ? {} : { notes: options.notes }), now: options.now };
    this.compiled = options.events.map((event) => ({
      event,
      conditions: compileConditions({ when: event.when, anyOf: event.anyOf }, { name: event.path, ...dialect }),
      reason: compileTemplate(event.reason, { name: `${event.path}.reason`, ...dialect }),
      message: compileTemplate(event.message, { name: `${event.path}.message`, ...dialect }),
    }));
  }

  async reconcile(input: BoxInput): Promise<BoxOutput> {
    let output: BoxOutput;
    try {
      output = await this.inner.reconcile(input);
    } catch (error) {
      await this.emit(input.key, input.object, 'failure', input.signal);
      throw error;
    }
    await this.emit(input.key, output.object ?? input.object, 'success', input.signal);
    return output;
  }

  delete(input: BoxInput): Promise<DeleteOutput> {
    this.recorded.delete(input.key);
    return this.inner.delete(input);
  }

  notFound(key: string, signal: AbortSignal): Promise<DeleteOutput> {
    this.recorded.delete(key);
    return this.inner.notFound(key, signal);
  }

  private async emit(key: string, object: KubeObject, outcome: 'success' | 'failure', signal: AbortSignal): Promise<void> {
    const due = this.compiled.filter(({ event }) => event.on.includes(outcome));
    if (due.length === 0) return;
    let data: TemplateData;
    try {
      data = this.options.data(object, outcome === 'failure');
    } catch (error) {
      this.options.logger.warn('events: the template data could not be built; no event recorded', { crd: this.options.crd, error: describe(error) });
      return;
    }
    for (const { event, conditions, reason, message } of due) {
      const verdict = conditions.evaluate(data);
      for (const warning of verdict.warnings) this.options.logger.warn('event condition', { crd: this.options.crd, event: event.name, warning });
      if (!verdict.ok) continue;
      let texts: { reason: string; message: string };
      try {
        texts = { reason: String(reason.render(data)).trim(), message: String(message.render(data)) };
      } catch (error) {
        this.options.logger.warn('events: reason or message did not render; event not recorded', { crd: this.options.crd, event: event.name, error: describe(error) });
        continue;
      }
      if (texts.reason === '') {
        this.options.logger.warn('events: the reason rendered empty; event not recorded', { crd: this.options.crd, event: event.name });
        continue;
      }
      try {
        await this.record(key, object, event, texts, signal);
      } catch (error) {
        this.options.logger.warn('events: could not record a Kubernetes Event', { crd: this.options.crd, event: event.name, error: describe(error) });
      }
    }
  }

  private async record(key: string, object: KubeObject, event: EmitEvent, texts: { reason: string; message: string }, signal: AbortSignal): Promise<void> {
    const meta = object.metadata ?? {};
    const namespace = meta.namespace ?? 'default';
    const signature = JSON.stringify([meta.uid, event.type, texts.reason, texts.message]);
    const byName = this.recorded.get(key) ?? new Map<string, Recorded>();
    this.recorded.set(key, byName);
    const time = new Date(this.options.now()).toISOString();
    const last = byName.get(event.name);
    if (last !== undefined && last.signature === signature) {
      try {
        await this.options.client.patch(EVENTS, last.name, last.namespace, { count: last.count + 1, lastTimestamp: time }, { type: 'merge', signal });
        byName.set(event.name, { ...last, count: last.count + 1 });
        return;
      } catch (error) {
        if (!(error instanceof KubeError && error.status === 404)) throw error;
        // The Event expired (the API server's event TTL): record a new one.
      }
    }
    const created = await this.options.client.create(
      EVENTS,
      {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { generateName: `${meta.name ?? 'object'}.`, namespace },
        involvedObject: { apiVersion: object.apiVersion, kind: object.kind, name: meta.name, namespace: meta.namespace, uid: meta.uid, resourceVersion: meta.resourceVersion },
        type: event.type,
        reason: texts.reason.slice(0, 128),
        message: texts.message.slice(0, 1024),
        source: { component: 'katalog' },
        reportingComponent: 'katalog',
        firstTimestamp: time,
        lastTimestamp: time,
        count: 1,
      },
      { signal },
    );
    const name = created.metadata?.name;
    if (name !== undefined) byName.set(event.name, { signature, name, namespace, count: 1 });
  }
}

/** An error for the log: its message only (a template error names the template, never the data it read). */
function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
