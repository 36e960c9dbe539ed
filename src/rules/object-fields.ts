/**
 * Reading and writing dot paths (`spec.db.engine`) in a Kubernetes object as Orkestra's rules do: a value is read
 * as text (numbers without a trailing `.0`, booleans as `true`/`false`, missing as absent).
 */

type Map = Record<string, unknown>;

function isMap(value: unknown): value is Map {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text of the scalar at `path`, or `undefined` when a segment is missing or not a map. */
export function readField(object: unknown, path: string): string | undefined {
  let current: unknown = object;
  for (const part of path.split('.')) {
    if (!isMap(current) || !Object.hasOwn(current, part)) return undefined;
    current = current[part];
  }
  return scalarText(current);
}

/** A decoded JSON scalar as text: null → "", numbers in their shortest form; lists and maps as JSON. */
export function scalarText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** One RFC 6902 operation. */
export interface JsonPatchOperation {
  readonly op: 'add' | 'replace';
  readonly path: string;
  readonly value: unknown;
}

function pointerSegment(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * Sets `path` to `value` in `object` (mutated) and returns the JSON patch operations that do the same on the
 * original: `add` for every missing parent map and a missing leaf, `replace` for an existing leaf. A parent that
 * exists but is not a map is replaced by a map (as `add` of the map).
 */
export function setField(object: Map, path: string, value: unknown): JsonPatchOperation[] {
  const parts = path.split('.');
  const ops: JsonPatchOperation[] = [];
  let current = object;
  let pointer = '';
  parts.forEach((part, index) => {
    pointer += `/${pointerSegment(part)}`;
    const last = index === parts.length - 1;
    if (last) {
      ops.push({ op: Object.hasOwn(current, part) ? 'replace' : 'add', path: pointer, value });
      current[part] = value;
      return;
    }
    const next = current[part];
    if (isMap(next)) {
      current = next;
      return;
    }
    const created: Map = {};
    ops.push({ op: Object.hasOwn(current, part) ? 'replace' : 'add', path: pointer, value: created });
    current[part] = created;
    current = created;
  });
  // The parents' values are the maps filled in by later steps; serialise them now as empty maps.
  return ops.map((op, index) => (index < ops.length - 1 ? { ...op, value: {} } : op));
}
