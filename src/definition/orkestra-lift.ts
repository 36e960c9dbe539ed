/**
 * Orkestra's formats at the edge: a document whose apiVersion is one of Orkestra's is rewritten, before the
 * schema check, into katalog's input shape, so that everything after it (schema, normalisation, the frozen
 * model) is the same for every generation. Positions follow the moves (PositionIndex.alias), so a problem in a
 * moved field still points at what the user wrote. Features katalog refuses are reported here by name
 * (orkestra-features.ts) and removed, so that they never surface as "unknown field".
 *
 * A katalog.dev/v1 document is not rewritten; Orkestra-only fields in it are reported with the generation
 * they belong to.
 */
import { liftFlow } from './orkestra-lift-flow.js';
import type { Path } from './path.js';
import type { Origin, ProblemList } from './problems.js';
import type { DocumentKind, LoadContext } from './documents.js';
import { isMap } from './schema-check.js';
import {
  GENERATION_NAMES,
  ORKESTRA_ONLY_CRD_FIELDS,
  REFUSED_BOX_FIELDS,
  ROLLBACK_ON_ERROR,
  REFUSED_CRD_FIELDS,
  REFUSED_DOCUMENT_FIELDS,
  isOrkestraApiVersion,
  refusalMessage,
  type Refusal,
} from './orkestra-features.js';
import { liftConditionBlocks, liftPhase, liftStatus } from './orkestra-lift-box.js';
import { liftBoxExternal } from './orkestra-lift-external.js';
import { move, refuse, type Lift } from './orkestra-lift-steps.js';
import { readCrdFileTypes } from './orkestra-crd-file.js';
import { liftEnrich } from './orkestra-lift-enrich.js';
import { liftConversion } from './orkestra-lift-conversion.js';
import { liftAdmission, liftSecurity } from './orkestra-lift-admission.js';
import { liftBoxRuntime, liftStatusToggles } from './orkestra-lift-toggles.js';
import { liftQueueBehaviour, liftRetryBackoff } from './orkestra-lift-queue.js';
import { expandMergeInclude } from './include.js';
import { liftEmit } from './orkestra-lift-emit.js';
import { expandNotesInclude, mergeNotes, takeNotes, type DeclaredNote } from './notes.js';
import { takeKatalogImports } from './imports.js';
import { liftReconcilerProfile, liftWithCrdProfiles, takeDocumentProfiles } from './orkestra-lift-profiles.js';
import { liftNotification, liftNotify } from './orkestra-lift-notification.js';
import { basename } from 'node:path';

type Map = Record<string, unknown>;

/**
 * Rewrites an Orkestra document into katalog's shape (a copy; the input is not changed), or reports the
 * Orkestra-only fields of a katalog.dev/v1 document. Returns the value to check and its origin (which carries
 * the template dialect).
 */
export function liftDocument(value: unknown, kind: DocumentKind, origin: Origin, context: LoadContext): LiftedDocument {
  if (!isMap(value)) return { value, origin, notes: [] };
  if (!isOrkestraApiVersion(value.apiVersion)) return { value: flagOrkestraFields(value, origin, context.problems), origin, notes: [] };
  const lifted = { ...origin, dialect: 'orkestra' as const, notes: (context.notes ??= { list: [] }) };
  const lift: Lift = { origin: lifted, problems: context.problems, context };
  const doc = structuredClone(value) as Map;
  doc.apiVersion = 'orkestra.orkspace.io/v1';
  expandNotesInclude(lift, doc);
  const own = takeNotes(doc, lifted, context.problems, origin.file === undefined ? 'the document' : `"${basename(origin.file)}"`);
  takeDocumentProfiles(lift, doc);
  const spec = doc.spec;
  const imported = kind === 'Katalog' && isMap(spec) ? takeKatalogImports(spec, lifted, context, motifNotes) : [];
  liftMetadata(doc);
  if (kind === 'Motif') liftMotif(lift, doc);
  else liftSpec(lift, doc, kind);
  return { value: doc, origin: lifted, notes: mergeNotes(own, imported, context.problems) };
}

/** A lifted document: the value to check, its origin (with the dialect) and its notes (own over imported). */
export interface LiftedDocument {
  readonly value: unknown;
  readonly origin: Origin;
  readonly notes: readonly DeclaredNote[];
}

function motifNotes(value: unknown, origin: Origin, context: LoadContext): DeclaredNote[] {
  return [...liftDocument(value, 'Motif', origin, context).notes];
}

/** Informational metadata of Orkestra (Control Center grouping) that the model has no use for. */
function liftMetadata(doc: Map): void {
  const metadata = doc.metadata;
  if (!isMap(metadata)) return;
  for (const key of ['clusterName', 'createdBy', 'deprecation']) delete metadata[key];
}

function liftSpec(lift: Lift, doc: Map, kind: DocumentKind): void {
  if (kind === 'Komposer') {
    const spec = isMap(doc.spec) ? doc.spec : (doc.spec = {});
    for (const key of ['sources', 'imports']) {
      move(lift, doc, key, [], spec as Map, key, ['spec'], `${key} is given both at the top of the Komposer (current Orkestra) and under spec (documented Orkestra); keep one`);
    }
    for (const key of ['sources', 'imports']) {
      const block = (spec as Map)[key];
      if (isMap(block)) liftSources(lift, block, ['spec', key]);
    }
  }
  liftNotification(lift, doc);
  const spec = doc.spec;
  if (!isMap(spec)) return;
  const protect = liftSecurity(spec);
  for (const key of ['providers', 'endpoints']) {
    if (Object.hasOwn(spec, key)) refuse(lift, spec, key, ['spec'], REFUSED_DOCUMENT_FIELDS[key] as Refusal);
  }
  const crds = spec.crds;
  const override = kind === 'Komposer';
  if (Array.isArray(crds)) {
    crds.forEach((entry: unknown, index) => {
      if (isMap(entry)) liftCrd(lift, entry, ['spec', 'crds', index], override);
      if (isMap(entry)) protect(entry);
    });
  } else if (isMap(crds)) {
    for (const [name, entry] of Object.entries(crds)) {
      if (entry === null && override) crds[name] = {}; // `website:` with nothing under it: named, nothing overridden
      const item = crds[name];
      if (isMap(item)) liftCrd(lift, item, ['spec', 'crds', name], override);
      if (isMap(item)) protect(item);
    }
  }
}

/** A Komposer's sources: local files stay; Helm, registry, remote and `$ENV` files are refused. */
function liftSources(lift: Lift, block: Map, path: Path): void {
  for (const key of ['helm', 'registry']) if (Object.hasOwn(block, key)) refuse(lift, block, key, path, REFUSED_DOCUMENT_FIELDS[key] as Refusal);
  const files = block.files;
  if (!Array.isArray(files)) return;
  files.forEach((file: unknown, index) => {
    const remote = !(typeof file === 'string') || file.startsWith('$') || file.includes('://');
    if (!remote) return;
    lift.problems.add(
      lift.origin,
      [...path, 'files', index],
      'orkestra-unsupported',
      refusalMessage({ feature: 'remote and environment file sources', reason: 'katalog reads Komposer files from disk only', anchor: 'komposer-sources' }, String(typeof file === 'string' ? file : 'url')),
    );
  });
  block.files = files.filter((file: unknown) => typeof file === 'string' && !file.startsWith('$') && !file.includes('://'));
}

function liftCrd(lift: Lift, entry: Map, path: Path, override: boolean): void {
  move(lift, entry, 'reconciler', path, entry, 'operatorBox', path, 'both "reconciler" (early Orkestra) and "operatorBox" (documented and current Orkestra) are given; keep operatorBox');
  for (const [key, refusal] of Object.entries(REFUSED_CRD_FIELDS)) if (Object.hasOwn(entry, key)) refuse(lift, entry, key, path, refusal);
  liftStatusToggles(lift, entry, path);
  liftAdmission(lift, entry, path);
  liftConversion(lift, entry, path);
  liftEndpoints(lift, entry, path);
  liftApiTypes(lift, entry, path, override);
  liftQueue(lift, entry, path);
  const box = entry.operatorBox;
  liftEnrich(lift, entry, path);
  liftWithCrdProfiles(lift, entry, path, () => {
    if (isMap(box)) liftBox(lift, box, [...path, 'operatorBox'], entry, path);
  });
  const imports = entry.imports;
  if (Array.isArray(imports)) {
    imports.forEach((item: unknown, index) => {
      if (isMap(item) && Object.hasOwn(item, 'oci')) {
        refuse(lift, item, 'oci', [...path, 'imports', index], { feature: 'OCI Motif imports', reason: "it needs Orkestra's registry client (ork pull)", anchor: 'komposer-sources' });
      }
    });
  }
  liftNotify(lift, entry, path);
}

/** `endpoints` switches: all on (or a disabled CRD, whose routes answer 404 anyway) is what katalog does. */
function liftEndpoints(lift: Lift, entry: Map, path: Path): void {
  const endpoints = entry.endpoints;
  if (endpoints === undefined) return;
  const allOn = isMap(endpoints) && Object.values(endpoints).every((v) => v === true);
  if (allOn || entry.enabled === false) {
    delete entry.endpoints;
    return;
  }
  refuse(lift, entry, 'endpoints', path, { feature: 'per-CRD endpoint switches', reason: 'the inspection router serves every enabled CRD', anchor: 'refused-runtime-services' });
}

/** `namespaced` → apiTypes.scope; Go code-generation fields dropped; `crdFile` alone → apiTypes from the file. */
function liftApiTypes(lift: Lift, entry: Map, path: Path, override: boolean): void {
  const hadTypes = isMap(entry.apiTypes);
  if (isMap(entry.apiTypes)) {
    const types = entry.apiTypes;
    // Go code generation inputs of `ork generate`: typed mode in katalog is a TypeBox schema registered in code.
    for (const key of ['object', 'objectList', 'list', 'alias', 'location']) delete types[key];
    if (Object.hasOwn(types, 'apiPath')) {
      const core = types.apiPath === '/api';
      if (core !== (types.group === '' || types.group === undefined) && types.group !== undefined) {
        lift.problems.add(lift.origin, [...path, 'apiTypes', 'apiPath'], 'invalid-value', `apiPath "${String(types.apiPath)}" does not fit group "${String(types.group)}" (/api is for the core group only)`);
      }
      delete types.apiPath;
    }
  }
  if (Object.hasOwn(entry, 'namespaced')) {
    const namespaced = entry.namespaced;
    if (typeof namespaced !== 'boolean') {
      lift.problems.add(lift.origin, [...path, 'namespaced'], 'invalid-type', 'must be true or false');
    } else if (hadTypes || typeof entry.crdFile !== 'string') {
      const types = (isMap(entry.apiTypes) ? entry.apiTypes : (entry.apiTypes = {})) as Map;
      const scope = namespaced ? 'Namespaced' : 'Cluster';
      if (types.scope !== undefined && types.scope !== scope) {
        lift.problems.add(lift.origin, [...path, 'namespaced'], 'invalid-value', `namespaced: ${String(namespaced)} contradicts apiTypes.scope ${String(types.scope)}`);
      } else if (isFullTypes(types) || override) {
        types.scope = scope;
        lift.origin.positions?.alias([...path, 'namespaced'], [...path, 'apiTypes', 'scope']);
      }
      // With kind alone (a built-in kind) the built-in table decides the scope; namespaced is then informative.
    }
    delete entry.namespaced;
  }
  if (!hadTypes && !override && typeof entry.crdFile === 'string') {
    const types = readCrdFileTypes(entry.crdFile, lift.origin, [...path, 'crdFile'], lift.context);
    if (types !== undefined) {
      entry.apiTypes = { ...types };
      lift.origin.positions?.alias([...path, 'crdFile'], [...path, 'apiTypes']);
    } else {
      entry.apiTypes = {}; // the problem is reported; keep the schema from adding "missing apiTypes"
    }
  }
}

function isFullTypes(types: Map): boolean {
  return typeof types.group === 'string' && typeof types.version === 'string' && typeof types.plural === 'string';
}

/** Queue fields katalog has no separate setting for (a shared queue), and `behaviour` (orkestra-lift-queue.ts). */
function liftQueue(lift: Lift, entry: Map, path: Path): void {
  const queue = entry.queue;
  if (!isMap(queue)) return;
  const at = [...path, 'queue'];
  delete queue.default;
  delete queue.shared;
  liftQueueBehaviour(lift, queue, at);
  liftRetryBackoff(lift, queue, at);
}

function liftBox(lift: Lift, box: Map, path: Path, entry: Map, entryPath: Path): void {
  liftBoxRuntime(lift, box, path);
  for (const blockKey of ['reconciler', 'reconcile']) {
    const block = box[blockKey];
    if (!Object.hasOwn(box, blockKey)) continue;
    delete box[blockKey];
    if (!isMap(block)) continue;
    const at = [...path, blockKey];
    expandMergeInclude(lift, block, at, blockKey);
    liftReconcilerProfile(lift, block, at, entry);
    for (const key of Object.keys(block)) {
      if (key === 'workers' || key === 'resync' || key === 'queue') {
        move(lift, block, key, at, entry, key, entryPath, `${key} is given both on the CRD entry (documented Orkestra) and in operatorBox.${blockKey} (current Orkestra); keep one`);
      } else if (key === 'imports') {
        const list = block.imports;
        delete block.imports;
        if (Array.isArray(list)) {
          const existing = Array.isArray(entry.imports) ? entry.imports : [];
          const offset = existing.length;
          list.forEach((_item: unknown, index) => lift.origin.positions?.alias([...at, 'imports', index], [...entryPath, 'imports', offset + index]));
          entry.imports = [...existing, ...list];
        }
      } else {
        move(lift, block, key, at, box, key, path, `${key} is given both in operatorBox (documented Orkestra) and in operatorBox.${blockKey} (current Orkestra); keep one`);
      }
    }
  }
  if (entry.queue !== undefined) liftQueue(lift, entry, entryPath);
  liftFlow(lift, box, path);
  liftEmit(lift, box, path);
  liftConditionBlocks(lift, box, path); // box-level when / or (anyOf): docs/orkestra-compatibility.md#box-level-when
  liftBoxExternal(lift, box, path);
  for (const [key, refusal] of Object.entries(REFUSED_BOX_FIELDS)) if (Object.hasOwn(box, key)) refuse(lift, box, key, path, refusal);
  if (Object.hasOwn(box, 'rollBackOnError')) {
    if (box.rollBackOnError === false) delete box.rollBackOnError;
    else refuse(lift, box, 'rollBackOnError', path, ROLLBACK_ON_ERROR);
  }
  for (const key of ['hooks', 'constructor']) {
    const code = box[key];
    if (!isMap(code)) continue;
    // Go wiring (`ork generate`): the module path, the import alias and the RBAC hints. Code registers by name here.
    for (const informational of ['location', 'alias', 'resources', 'managedResources']) delete code[informational];
  }
  for (const phase of ['onCreate', 'onReconcile', 'onDelete']) {
    const block = box[phase];
    if (isMap(block)) liftPhase(lift, block, [...path, phase]);
  }
  if (isMap(box.status)) liftStatus(lift, box.status, [...path, 'status']);
}

/**
 * A Motif: status at the top, resources grouped by phase (`resources.onCreate.secrets`), entries lifted, and the
 * `notify:` of its conditions taken into the Motif's `notifications` (the importing CRD gets them, motif.ts).
 */
function liftMotif(lift: Lift, doc: Map): void {
  const resources = doc.resources;
  if (isMap(resources)) {
    for (const phase of ['onCreate', 'onReconcile', 'onDelete']) {
      const grouped = resources[phase];
      if (!Object.hasOwn(resources, phase)) continue;
      delete resources[phase];
      if (!isMap(grouped)) continue;
      if (phase === 'onCreate') {
        for (const [kind, list] of Object.entries(grouped)) {
          if (Object.hasOwn(resources, kind)) {
            lift.problems.add(lift.origin, ['resources', phase, kind], 'generation-conflict', `resources.${kind} and resources.onCreate.${kind} are both given; keep one`, { at: 'key' });
            continue;
          }
          resources[kind] = list;
          lift.origin.positions?.alias(['resources', phase, kind], ['resources', kind]);
        }
      } else {
        doc[phase] = grouped;
        lift.origin.positions?.alias(['resources', phase], [phase]);
      }
    }
    liftPhase(lift, resources, ['resources']);
  }
  for (const phase of ['onReconcile', 'onDelete']) if (isMap(doc[phase])) liftPhase(lift, doc[phase] as Map, [phase]);
  if (isMap(doc.status)) liftStatus(lift, doc.status, ['status']);
  liftNotify(lift, doc, []);
}

/** Orkestra-only fields in a katalog.dev/v1 document: an error naming the generation, not "unknown field". */
function flagOrkestraFields(written: Map, origin: Origin, problems: ProblemList): Map {
  const doc = structuredClone(written);
  const spec = doc.spec;
  const crds = isMap(spec) ? spec.crds : undefined;
  const entries: Array<[Path, unknown]> = Array.isArray(crds)
    ? crds.map((entry: unknown, index) => [['spec', 'crds', index], entry])
    : isMap(crds)
      ? Object.entries(crds).map(([name, entry]) => [['spec', 'crds', name], entry])
      : [];
  for (const [path, entry] of entries) {
    if (!isMap(entry)) continue;
    for (const [key, generation] of Object.entries(ORKESTRA_ONLY_CRD_FIELDS)) {
      if (!Object.hasOwn(entry, key)) continue;
      problems.add(
        origin,
        [...path, key],
        'orkestra-field',
        `"${key}" is a field of ${GENERATION_NAMES[generation]}; a katalog.dev/v1 document does not have it (declare an Orkestra apiVersion such as orkestra.orkspace.io/v1 to load Orkestra's format)`,
        { at: 'key' },
      );
      delete entry[key];
    }
  }
  return doc;
}
