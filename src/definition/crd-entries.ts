/**
 * CRD entries as written, before normalisation: map or list form read into one shape, and each entry flattened
 * into fields that remember their own document, so that a Komposer can override field by field and every
 * problem still points into the right file.
 *
 * Flattening: the top-level fields of an entry are kept whole, except `apiTypes` and `queue`, whose fields are
 * kept one by one (`apiTypes.version`, `queue.maxDepth`). Queue aliases are resolved here (`maxQueueDepth` →
 * `maxDepth`, `degradeThreshold` → `failureThreshold`); writing both an alias and its name is an error.
 */
import { isMap } from './schema-check.js';
import { formatPath, type Path } from './path.js';
import type { Origin, ProblemList } from './problems.js';

/** One field of a CRD entry with the document it came from. */
export interface Field {
  readonly value: unknown;
  readonly origin: Origin;
  /** Document path of this value in `origin`. */
  readonly path: Path;
}

/** A CRD entry as read from one or more documents. */
export interface RawCrd {
  readonly name: string;
  /** The document that declares the entry (the imported Katalog for a Komposer override). */
  readonly origin: Origin;
  /** Document path of the entry in `origin`: `spec.crds.website` or `spec.crds[0]`. */
  readonly path: Path;
  /** Flattened fields in declaration order; see the module comment. */
  readonly fields: Map<string, Field>;
  /** `spec.finalizers` of the Katalog that declares the entry. */
  readonly fileFinalizers: readonly string[];
  /** Whether a schema already required `apiTypes` (false for entries added inline by a Komposer). */
  readonly complete: boolean;
}

const FLATTENED = new Set(['apiTypes', 'queue']);
const QUEUE_ALIASES: Readonly<Record<string, string>> = { maxQueueDepth: 'maxDepth', degradeThreshold: 'failureThreshold' };

/**
 * Reads checked `spec.crds` (map or list form) into raw entries, in declaration order. Duplicate names in list
 * form and a `name` that differs from its map key are problems.
 */
export function collectCrds(
  crds: unknown,
  origin: Origin,
  path: Path,
  context: { readonly problems: ProblemList; readonly fileFinalizers: readonly string[]; readonly complete: boolean },
): RawCrd[] {
  const { problems } = context;
  const result: RawCrd[] = [];
  const seen = new Map<string, Path>();
  const add = (name: string, entry: Record<string, unknown>, entryPath: Path): void => {
    const earlier = seen.get(name);
    if (earlier !== undefined) {
      problems.add(origin, [...entryPath, 'name'], 'duplicate-crd', `CRD "${name}" is declared twice (first at ${formatPath(earlier)})`);
      return;
    }
    seen.set(name, entryPath);
    result.push({ name, origin, path: entryPath, fields: flatten(entry, origin, entryPath, problems), fileFinalizers: context.fileFinalizers, complete: context.complete });
  };
  if (Array.isArray(crds)) {
    crds.forEach((entry: unknown, index) => {
      if (!isMap(entry) || typeof entry.name !== 'string') return;
      add(entry.name, entry, [...path, index]);
    });
  } else if (isMap(crds)) {
    for (const [name, entry] of Object.entries(crds)) {
      if (!isMap(entry)) continue;
      if (typeof entry.name === 'string' && entry.name !== name) {
        problems.add(origin, [...path, name, 'name'], 'name-mismatch', `name "${entry.name}" differs from its key "${name}"; in map form the key is the name`);
      }
      add(name, entry, [...path, name]);
    }
  }
  return result;
}

function flatten(entry: Record<string, unknown>, origin: Origin, path: Path, problems: ProblemList): Map<string, Field> {
  const fields = new Map<string, Field>();
  for (const [key, value] of Object.entries(entry)) {
    if (key === 'name') continue;
    if (!FLATTENED.has(key) || !isMap(value)) {
      fields.set(key, { value, origin, path: [...path, key] });
      continue;
    }
    fields.set(key, { value: {}, origin, path: [...path, key] }); // marks where the block is written
    for (const [sub, item] of Object.entries(value)) {
      const alias = key === 'queue' ? QUEUE_ALIASES[sub] : undefined;
      const name = alias ?? sub;
      if (alias !== undefined && Object.hasOwn(value, alias)) {
        problems.add(origin, [...path, key, sub], 'alias-conflict', `${key}.${sub} is an alias of ${key}.${alias}; set only one of them`, { at: 'key' });
        continue;
      }
      fields.set(`${key}.${name}`, { value: item, origin, path: [...path, key, sub] });
    }
  }
  return fields;
}

/** A Komposer override: the override's fields replace the base's one by one; the rest is inherited. */
export function mergeCrd(base: RawCrd, override: RawCrd): RawCrd {
  return { ...base, fields: new Map([...base.fields, ...override.fields]) };
}
