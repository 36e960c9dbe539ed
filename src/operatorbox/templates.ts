/**
 * The templates phase of the generic box (SPEC §4.1, §4.4): render the entries whose conditions hold, build full
 * manifests, stamp ownership, then carry them out in the application order and prune what is no longer declared.
 *
 * Children are applied here, inside the templates step, not in the pipeline's registry stage: "templates first,
 * then hooks" then means hooks see the children this cycle created, `runHooksFirst` means a failing hook stops the
 * templates from being applied, and the first error of either stops the cycle. (The box therefore hands the
 * pipeline no desired children.)
 */
import { KatalogError, toError } from '../errors.js';
import type { KubeObject } from '../kube/resource.js';
import type { Logger } from '../observe/logger.js';
import type { ChildApplier, DesiredManifest } from '../registry/child-applier.js';
import { resourceKey, type ChildLookup } from '../registry/child-watches.js';
import { jobState } from '../registry/job-state.js';
import { applyRank, type KindTable } from '../registry/kind-table.js';
import { canOwnerReference, FOR_EACH_LABEL, forEachLabelValue, ownerOf, stampOwnership, type Owner } from '../registry/ownership.js';
import type { ResourceResolver } from '../registry/resource-resolver.js';
import { isPlainMap } from '../registry/short-form.js';
import type { TemplatesStage } from './generic-box.js';
import { addChild, copyView, removeChild, observedChildren, templateData, type ChildrenView } from './template-data.js';
import type { RenderScheduler } from './render-scheduler.js';
import type { CompiledEntry, TemplateSet } from './template-set.js';
import { forEachScopes, type TemplateData } from '../template/index.js';
import type { HookContext } from './types.js';
import { bodyToBuild, carryOutCopy, renderedCopy, type SourceReader } from './copies.js';
import { planRotation } from './rotation.js';
import { planTls, type RenderedTls } from './tls.js';
import { soonest } from './result.js';
import { crLabelsToWrite, type LabelWriter } from './cr-labels.js';
import { bodyFor } from './profile-choice.js';

export interface TemplatesPhaseOptions {
  /** The CRD's name in the Katalog. */
  readonly crd: string;
  readonly set: TemplateSet;
  readonly kinds: KindTable;
  readonly resolver: ResourceResolver;
  readonly applier: ChildApplier;
  readonly lookup: ChildLookup;
  readonly logger: Logger;
  /** The runtime's render scheduler, shared by every CRD. */
  readonly renders: RenderScheduler;
  /** Reads the sources of copies (`fromSecret`, `fromConfigMap`) and rotating Secrets: the Kubernetes client's `get`. */
  readonly read: SourceReader;
  /** The runtime's clock (milliseconds since the epoch), for rotations. */
  readonly now: () => number;
  /** Merges labels into the custom resource's metadata (the CRD's `labels`); returns the object as written. */
  readonly labelObject?: LabelWriter;
  /** More template data for an object (`.cross`), given the data built so far; may throw (the reconcile fails). */
  readonly extra?: ((object: KubeObject, data: TemplateData) => Readonly<Record<string, unknown>>) | undefined;
}

/** An entry's body rendered for its name alone; undefined when it does not render now (nothing is applied from it). */
function renderedOrUndefined(compiled: CompiledEntry, data: TemplateData): unknown {
  try {
    return bodyFor(compiled, data).render(data);
  } catch {
    return undefined; // the entry is withdrawn: a body that does not render names no child to delete
  }
}

export class TemplatesPhase implements TemplatesStage {
  /** `katalog.dev/for-each` values by entry path, hashed once. */
  private readonly forEachIds = new Map<string, string>();

  constructor(private readonly options: TemplatesPhaseOptions) {}

  observed(object: KubeObject): HookContext['children'] {
    return copyView(observedChildren(this.options.lookup, this.options.kinds, ownerOf(this.options.crd, object)));
  }

  get hasOnDelete(): boolean {
    return this.options.set.onDelete.length > 0;
  }

  /**
   * Renders onCreate and onReconcile, tells `beforeApply` whether a rendered child is out of reach of the garbage
   * collector (cluster-scoped, or in another namespace), applies the children in order, prunes the undeclared ones.
   */
  async reconcile(
    object: KubeObject,
    signal: AbortSignal,
    beforeApply?: (uncollectable: boolean) => Promise<void>,
  ): Promise<{ children: () => HookContext['children']; requeueAfterMs?: number | undefined; object?: KubeObject }> {
    const { set, applier, lookup, kinds } = this.options;
    const owner = ownerOf(this.options.crd, object);
    const before = observedChildren(lookup, kinds, owner);
    const open = await this.boxHolds(object, before, signal);
    const conditional = set.pruning === 'conditional';
    // A closed box withdraws every entry: katalog's pruning needs no rendering for that, the conditional one
    // needs the names the kept-in-line entries would give (docs/operatorbox.md#pruning).
    const entries = open || conditional ? [...set.onCreate, ...set.onReconcile] : [];
    const { desired, withdrawn, requeueAfterMs } = await this.render(entries, object, owner, before, signal, !open);
    await beforeApply?.(desired.some((child) => !canOwnerReference(owner, child.manifest.metadata?.namespace)));
    const applied = await applier.applyAll(desired, signal);
    const pruned = await applier.prune(owner, desired, signal, conditional ? { withdrawn, forEach: this.sweptForEach(entries) } : undefined);
    for (const child of pruned) this.options.logger.info('deleted a child no longer declared', { kind: child.resource.kind, name: child.object.metadata?.name, namespace: child.object.metadata?.namespace });
    const after = observedChildren(lookup, kinds, owner);
    for (const { resource, object: gone } of pruned) removeChild(after, kinds, resource.plural, gone);
    for (const child of applied) addChild(after, kinds, child.desired.resource.plural, child.object);
    const labelled = await this.writeLabels(object, after, signal);
    return { children: () => copyView(after), requeueAfterMs, ...(labelled === undefined ? {} : { object: labelled }) };
  }

  /**
   * Whether the box-level conditions (`operatorBox.when` / `anyOf`) hold; true when there are none. While they do
   * not, no onCreate/onReconcile entry applies: the children they rendered before are pruned as when each entry's
   * own conditions stop holding, by the CRD's pruning (docs/orkestra-compatibility.md#box-level-when).
   */
  private async boxHolds(object: KubeObject, children: ChildrenView, signal: AbortSignal): Promise<boolean> {
    const conditions = this.options.set.boxConditions;
    if (conditions === undefined) return true;
    const base = templateData(object, children, {}, this.options.set.dialect);
    const data = this.options.extra === undefined ? base : { ...base, ...this.options.extra(object, base) };
    const verdict = await this.options.renders.run(this.options.crd, () => conditions.evaluate(data), signal);
    for (const warning of verdict.warnings) this.options.logger.warn('operatorBox condition', { crd: this.options.crd, warning });
    return verdict.ok;
  }

  /** Renders the CRD's `labels` (with this cycle's children) and merges the ones that differ into the object. */
  private async writeLabels(object: KubeObject, children: ChildrenView, signal: AbortSignal): Promise<KubeObject | undefined> {
    const { crLabels, dialect } = this.options.set;
    if (crLabels === undefined || this.options.labelObject === undefined) return undefined;
    const data = templateData(object, children, {}, dialect);
    const rendered = await this.options.renders.run(this.options.crd, () => crLabels.render(data), signal);
    const changes = crLabelsToWrite(rendered, object, `spec.crds.${this.options.crd}.labels`);
    return changes === undefined ? undefined : this.options.labelObject(object, changes, signal);
  }

  /**
   * Runs the onDelete templates: renders and carries them out, then looks at their Jobs. Resolves false while a Job
   * runs; throws when one failed (after deleting it, so that the retry runs it again).
   */
  async runDelete(object: KubeObject, signal: AbortSignal): Promise<boolean> {
    const { set, applier, lookup, kinds } = this.options;
    if (set.onDelete.length === 0) return true;
    const owner = ownerOf(this.options.crd, object);
    const { desired } = await this.render(set.onDelete, object, owner, observedChildren(lookup, kinds, owner), signal);
    const applied = await applier.applyAll(desired, signal);
    let finished = true;
    for (const child of applied) {
      if (child.desired.resource.group !== 'batch' || child.desired.resource.kind !== 'Job') continue;
      const state = jobState(child.object);
      if (state.state === 'running') finished = false;
      else if (state.state === 'failed') {
        await applier.remove({ resource: child.desired.resource, object: child.object }, signal);
        throw new KatalogError('E_ON_DELETE', `onDelete Job of ${child.desired.source} failed (${state.reason}); it was deleted and runs again on the next attempt`);
      }
    }
    return finished;
  }

  /** Deletes the children the garbage collector cannot reach (cluster-scoped, other namespaces). */
  async cleanup(object: KubeObject, signal: AbortSignal): Promise<void> {
    const deleted = await this.options.applier.deleteUncollectable(ownerOf(this.options.crd, object), signal);
    for (const child of deleted) this.options.logger.info('deleted a child of a deleted parent', { kind: child.resource.kind, name: child.object.metadata?.name, namespace: child.object.metadata?.namespace });
  }

  /**
   * Renders entries whose conditions hold (none when `closed`) into manifests, sorted into the application order;
   * rotations say when to look again. With conditional pruning, `withdrawn` names the children of kept-in-line
   * entries whose conditions do not hold (not Jobs: Orkestra never deletes one), as far as their names render.
   */
  private async render(
    entries: readonly CompiledEntry[],
    object: KubeObject,
    owner: Owner,
    children: ChildrenView,
    signal: AbortSignal,
    closed = false,
  ): Promise<{ desired: DesiredManifest[]; withdrawn: DesiredManifest[]; requeueAfterMs: number | undefined }> {
    let requeueAfterMs: number | undefined;
    const withdrawn: DesiredManifest[] = [];
    const conditional = this.options.set.pruning === 'conditional';
    const base = templateData(object, children, {}, this.options.set.dialect);
    const data = this.options.extra === undefined ? base : { ...base, ...this.options.extra(object, base) };
    const parent = { name: owner.name, namespace: owner.namespace };
    const out: DesiredManifest[] = [];
    const seen = new Map<string, { readonly source: string; readonly index: number; readonly onCreate: boolean }>();
    for (const compiled of entries) {
      const { entry } = compiled;
      // forEach: one child per item, each item's data beside the rest (docs/orkestra-compatibility.md#foreach).
      for (const scope of entry.forEach === undefined ? [undefined] : forEachScopes(data, entry.forEach)) {
        // Inputs, conditions and body render in one turn of the runtime's render scheduler (fairness between CRDs).
        const rendered = await this.options.renders.run(
          this.options.crd,
          () => {
            const inputs = compiled.inputs === undefined ? entry.inputs : compiled.inputs.render(data);
            const withInputs = Object.keys(entry.inputs).length === 0 ? data : { ...data, inputs };
            const entryData = scope === undefined ? withInputs : { ...withInputs, ...scope };
            const verdict = closed ? { ok: false, warnings: [] } : compiled.conditions.evaluate(entryData);
            const withdraw = !verdict.ok && conditional && compiled.reconcile;
            return {
              verdict,
              body: verdict.ok ? bodyFor(compiled, entryData).render(entryData) : withdraw ? renderedOrUndefined(compiled, entryData) : undefined,
              copy: verdict.ok && compiled.copy !== undefined ? renderedCopy(compiled.copy.render(entryData), entry) : undefined,
              rotateAfter: verdict.ok ? compiled.rotateAfter?.render(entryData) : undefined,
              tls: verdict.ok ? (compiled.tls?.render(entryData) as RenderedTls | undefined) : undefined,
            };
          },
          signal,
        );
        for (const warning of rendered.verdict.warnings) this.options.logger.warn('template condition', { template: entry.path, warning });
        if (!rendered.verdict.ok) {
          const gone = rendered.body === undefined ? undefined : await this.withdrawnChild(rendered.body, compiled, owner, parent, signal);
          if (gone !== undefined) withdrawn.push(gone);
          continue;
        }
        const body = rendered.body;
        let manifest: KubeObject;
        try {
          manifest = compiled.builder.build(bodyToBuild(isPlainMap(body) ? body : {}, entry), { parent, ownerLabel: owner.label, source: entry.path });
        } catch (error) {
          throw new KatalogError('E_MANIFEST', `${entry.path}: ${toError(error).message}`, { cause: error });
        }
        delete manifest['status'];
        if (entry.forEach !== undefined) ((manifest.metadata ??= {}).labels ??= {})[FOR_EACH_LABEL] = this.forEachId(entry.path);
        const manifests = rendered.copy === undefined ? [manifest] : await carryOutCopy(manifest, rendered.copy, entry, owner, this.options.read, signal);
        for (const one of manifests) {
          const placed = await this.place(one, compiled, owner, seen, signal);
          let child = placed.child;
          let due = false;
          if (compiled.rotateAfter !== undefined) {
            const plan = await planRotation(child.manifest, rendered.rotateAfter, entry.path, this.options.read, this.options.now(), signal);
            requeueAfterMs = soonest(requeueAfterMs, plan.requeueAfterMs);
            due = plan.regenerate;
            if (plan.regenerate) child = { ...child, reconcile: true };
          }
          if (rendered.tls !== undefined) {
            const { read, now } = this.options;
            const plan = await planTls(child.manifest, { rendered: rendered.tls, rotateAfter: rendered.rotateAfter, force: due, source: entry.path, read, now: now() }, signal);
            requeueAfterMs = soonest(requeueAfterMs, plan.requeueAfterMs);
            if (plan.regenerate) child = { ...child, reconcile: true };
          }
          if (placed.replaces === undefined) out.push(child);
          else out[placed.replaces] = child;
        }
      }
    }
    const desired = out
      .map((child, index) => ({ child, index, rank: applyRank(child.resource.kind) }))
      .sort((a, b) => a.rank - b.rank || a.index - b.index)
      .map(({ child }) => child);
    return { desired, withdrawn, requeueAfterMs };
  }

  private forEachId(path: string): string {
    let id = this.forEachIds.get(path);
    if (id === undefined) this.forEachIds.set(path, (id = forEachLabelValue(this.options.crd, path)));
    return id;
  }

  /** The `katalog.dev/for-each` values of the kept-in-line forEach entries among `entries`, for conditional pruning. */
  private sweptForEach(entries: readonly CompiledEntry[]): ReadonlySet<string> {
    const ids = new Set<string>();
    for (const { entry, reconcile } of entries) if (entry.forEach !== undefined && reconcile) ids.add(this.forEachId(entry.path));
    return ids;
  }

  /**
   * The child a withdrawn entry would name (kind, namespace, name), for conditional pruning; undefined for a Job
   * or when the entry cannot be built or resolved now (Orkestra, too, skips the cleanup when a name does not resolve).
   */
  private async withdrawnChild(body: unknown, compiled: CompiledEntry, owner: Owner, parent: { name: string; namespace: string | undefined }, signal: AbortSignal): Promise<DesiredManifest | undefined> {
    let manifest: KubeObject;
    try {
      manifest = compiled.builder.build(bodyToBuild(isPlainMap(body) ? body : {}, compiled.entry), { parent, ownerLabel: owner.label, source: compiled.entry.path });
    } catch {
      return undefined; // not applied either way: a manifest that does not build names no child to withdraw
    }
    if (manifest.kind === 'Job' && manifest.apiVersion === 'batch/v1') return undefined;
    // A kind the server does not serve has no child of this owner to delete; another discovery failure fails the
    // cycle (retried with backoff), so that the withdrawal is not skipped silently.
    const resource = this.options.resolver.known(manifest.apiVersion ?? '', manifest.kind ?? '') ?? (await this.options.resolver.resolveIfServed(manifest.apiVersion ?? '', manifest.kind ?? '', signal));
    if (resource === undefined) return undefined;
    const metadata = (manifest.metadata ??= {});
    if (resource.namespaced) metadata.namespace ??= owner.namespace ?? 'default';
    else delete metadata.namespace;
    return { source: compiled.entry.path, manifest, resource, reconcile: true };
  }

  /**
   * Resolves the child's resource, defaults its namespace, stamps ownership. Two entries naming one child is an
   * error, except in the Orkestra dialect for an onCreate entry and an onReconcile entry: Orkestra creates the child
   * from the first and keeps it in line with the second, so the onReconcile entry replaces the onCreate one.
   */
  private async place(
    manifest: KubeObject,
    compiled: CompiledEntry,
    owner: Owner,
    seen: Map<string, { readonly source: string; readonly index: number; readonly onCreate: boolean }>,
    signal: AbortSignal,
  ): Promise<{ child: DesiredManifest; replaces?: number }> {
    const { entry } = compiled;
    const { set } = this.options;
    const apiVersion = manifest.apiVersion ?? '';
    const kind = manifest.kind ?? '';
    const resource = this.options.resolver.known(apiVersion, kind) ?? (await this.resolve(apiVersion, kind, entry.path, signal));
    const metadata = (manifest.metadata ??= {});
    if (resource.namespaced) metadata.namespace ??= owner.namespace ?? 'default';
    else delete metadata.namespace;
    stampOwnership(manifest, owner);
    const child: DesiredManifest = { source: entry.path, manifest, resource, reconcile: compiled.reconcile };
    const identity = `${resourceKey(resource)}/${metadata.namespace ?? ''}/${metadata.name ?? ''}`;
    const earlier = seen.get(identity);
    const onCreate = set.onCreate.includes(compiled);
    if (earlier === undefined) {
      seen.set(identity, { source: entry.path, index: seen.size, onCreate });
      return { child };
    }
    // Two items of one forEach entry naming one child: the later wins, as Orkestra applies them in order.
    if (entry.forEach !== undefined && earlier.source === entry.path) return { child, replaces: earlier.index };
    if (set.dialect === 'orkestra' && earlier.onCreate && set.onReconcile.includes(compiled)) {
      seen.set(identity, { source: entry.path, index: earlier.index, onCreate: false });
      return { child, replaces: earlier.index };
    }
    throw new KatalogError('E_MANIFEST', `${entry.path} and ${earlier.source} both declare the same ${kind}; give them different names or exclusive conditions`);
  }

  private async resolve(apiVersion: string, kind: string, source: string, signal: AbortSignal): Promise<DesiredManifest['resource']> {
    try {
      return await this.options.resolver.resolve(apiVersion, kind, signal);
    } catch (error) {
      throw new KatalogError('E_MANIFEST', `${source}: ${toError(error).message}`, { cause: error });
    }
  }
}
