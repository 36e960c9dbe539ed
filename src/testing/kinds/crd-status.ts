/**
 * The status kube-apiserver's CRD controllers write, computed at once on every CRD write: the accepted names and the
 * NamesAccepted and Established conditions (its naming controller: a name another CRD of the group holds is not
 * accepted, the CRD then not Established nor served, until that name is free), the stored versions, and
 * Terminating while the CRD is deleted. Probed on kube-apiserver 1.37.2.
 */
import { jsonEqual } from '../patch/json-value.js';
import type { ResourceRegistry } from '../resources/registry.js';
import { metadataOf, type KubeObject } from '../store/record.js';
import { acceptedNames, crdVersions, obj, str } from './crd-types.js';

type Json = Record<string, unknown>;

/** `status.storedVersions` of the CRD once written: the earlier ones, then the storage version if it is new. */
export function storedVersionsOf(versions: readonly Json[], prev: KubeObject | undefined): string[] {
  const earlier = obj(prev?.['status'])['storedVersions'];
  const stored = Array.isArray(earlier) ? earlier.filter((v): v is string => typeof v === 'string') : [];
  const storage = versions.find((version) => version['storage'] === true);
  if (storage !== undefined && !stored.includes(str(storage['name']))) stored.push(str(storage['name']));
  return stored;
}

/** Whether the CRD is Established (its names accepted and served). */
export function established(crd: KubeObject): boolean {
  const conditions = obj(crd['status'])['conditions'];
  return Array.isArray(conditions) && conditions.map(obj).some((c) => c['type'] === 'Established' && c['status'] === 'True');
}

function condition(type: string, status: 'True' | 'False', reason: string, message: string, now: string, prevConditions: unknown): Json {
  const previous = Array.isArray(prevConditions) ? prevConditions.map(obj).find((c) => c['type'] === type) : undefined;
  const lastTransitionTime = previous?.['status'] === status && typeof previous['lastTransitionTime'] === 'string' ? previous['lastTransitionTime'] : now;
  return { type, status, lastTransitionTime, reason, message };
}

/** A name another CRD of the group holds: kube-apiserver's naming controller then does not accept this CRD's names. */
interface NameConflict {
  readonly reason: string;
  readonly message: string;
}

/** The names a CRD gets: the ones it asks for that no other served resource of its group holds. */
interface Naming {
  readonly names: Json;
  /** The last name refused, in kube-apiserver's order (plural, singular, short names, kind, listKind). */
  readonly conflict: NameConflict | undefined;
}

/** As kube-apiserver's naming controller: a name the CRD had accepted before stays its own. */
function naming(crd: KubeObject, prev: KubeObject | undefined, registry: ResourceRegistry): Naming {
  const spec = obj(crd['spec']);
  const group = str(spec['group']);
  const own = `${group}/${str(obj(spec['names'])['plural'])}`;
  const others = registry.all().filter((type) => type.group === group && type.key !== own && !type.builtin);
  const resources = new Set(others.flatMap((type) => [type.plural, type.singular, ...type.shortNames]));
  const kinds = new Set(others.flatMap((type) => [type.kind, type.listKind]));
  const requested = acceptedNames(crd);
  const accepted = obj(obj(prev?.['status'])['acceptedNames']);
  const names: Json = { ...accepted };
  let conflict: NameConflict | undefined;
  const take = (name: string, reason: string, used: ReadonlySet<string>): void => {
    const wanted = str(requested[name]);
    if (wanted !== str(accepted[name]) && used.has(wanted)) conflict = { reason, message: `"${wanted}" is already in use` };
    else names[name] = wanted;
  };
  take('plural', 'PluralConflict', resources);
  take('singular', 'SingularConflict', resources);
  const had = new Set(Array.isArray(accepted['shortNames']) ? accepted['shortNames'].map(str) : []);
  const wantedShort = Array.isArray(requested['shortNames']) ? requested['shortNames'].map(str) : [];
  const taken = wantedShort.filter((short) => !had.has(short) && resources.has(short));
  if (taken.length > 0) conflict = { reason: 'ShortNamesConflict', message: taken.map((short) => `"${short}" is already in use`).join(', ') };
  else names['shortNames'] = wantedShort;
  take('kind', 'KindConflict', kinds);
  take('listKind', 'ListKindConflict', kinds);
  names['categories'] = requested['categories'];
  // As Go writes the struct: plural and kind always, the others when set.
  const written: Json = { plural: str(names['plural']) };
  if (str(names['singular']) !== '') written['singular'] = names['singular'];
  if (Array.isArray(names['shortNames']) && names['shortNames'].length > 0) written['shortNames'] = names['shortNames'];
  written['kind'] = str(names['kind']);
  if (str(names['listKind']) !== '') written['listKind'] = names['listKind'];
  if (Array.isArray(names['categories']) && names['categories'].length > 0) written['categories'] = names['categories'];
  return { names: written, conflict };
}

/** The status a real server converges to for this CRD, computed at once. */
function computeStatus(crd: KubeObject, prev: KubeObject | undefined, now: string, { names, conflict }: Naming): Json {
  const prevStatus = obj(prev?.['status']);
  const stored = storedVersionsOf(crdVersions(crd), prev);
  const wasEstablished = prev !== undefined && established(prev);
  const conditions =
    conflict === undefined
      ? [
          condition('NamesAccepted', 'True', 'NoConflicts', 'no conflicts found', now, prevStatus['conditions']),
          condition('Established', 'True', 'InitialNamesAccepted', 'the initial names have been accepted', now, prevStatus['conditions']),
        ]
      : [
          condition('NamesAccepted', 'False', conflict.reason, conflict.message, now, prevStatus['conditions']),
          wasEstablished
            ? condition('Established', 'True', 'InitialNamesAccepted', 'the initial names have been accepted', now, prevStatus['conditions'])
            : condition('Established', 'False', 'NotAccepted', 'not all names are accepted', now, prevStatus['conditions']),
        ];
  if (typeof metadataOf(crd)['deletionTimestamp'] === 'string') {
    conditions.push(condition('Terminating', 'True', 'InstanceDeletionInProgress', 'CustomResource deletion is in progress', now, prevStatus['conditions']));
  }
  const status: Json = { conditions, acceptedNames: names, storedVersions: stored };
  return jsonEqual(status, prevStatus) ? prevStatus : status;
}

/** The status of `crd` once written over `prev` (undefined on create). */
export function crdStatus(crd: KubeObject, prev: KubeObject | undefined, registry: ResourceRegistry, now: string): Json {
  return computeStatus(crd, prev, now, naming(crd, prev, registry));
}

/**
 * Looks again at the names of a CRD that another one of its group held (after that one went), as kube-apiserver's
 * naming controller does: returns its new status, or undefined when it was not waiting for its names.
 */
export function recheckCrdNames(crd: KubeObject, registry: ResourceRegistry, now: string): Json | undefined {
  if (established(crd)) return undefined;
  return crdStatus(crd, crd, registry, now);
}
