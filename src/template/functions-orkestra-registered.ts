/**
 * Notes Orkestra's code registers that its catalog (pkg/note/catalog_generated.go) does not list, for the
 * Orkestra dialect: a definition that runs in Orkestra with them runs in katalog too.
 * - `name OBJ`, `namespace OBJ`: metadata.name / metadata.namespace, "" when absent (pkg/note/kubernetes.go).
 * - `isEmpty V`: missing, "", an empty list or map (not 0 or false, unlike `empty`); `isScalar V`: a text, number
 *   or boolean; `isComposite V`: a list or map (pkg/note/types.go). Orkestra's docs call `isEmpty` "Empty".
 * - `mapPick MAP KEY...`: a new map of the keys given that MAP has; `mapOmit MAP KEY...`: a new map without
 *   them; anything but a map gives an empty map (pkg/note/listmap.go).
 * - `containerPortByName OBJ I NAME`: the port number named NAME of container I, 0 when absent or NAME is "";
 *   `hasContainerPort OBJ I PORT`: whether container I exposes PORT (pkg/note/kube_container.go).
 * Like Orkestra's other readers of objects, a missing object or field gives a zero value, never an error.
 * Pure: no I/O, no clock.
 */
import { FunctionFailure } from './failure.js';
import { fixed, variadic, type TemplateFunction } from './function-type.js';
import { at } from './functions-orkestra-kube.js';
import { isForbiddenKey, isMap, kindOf } from './values.js';

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Go's toInt64 of a JSON value: a number truncated, a text of digits parsed, anything else 0. */
function int(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
  if (typeof value === 'string' && /^\s*[+-]?\d+/.test(value)) return Number.parseInt(value, 10);
  return 0;
}

/** The ports of container `index` of a workload (spec.template.spec.containers), [] when absent. */
function ports(object: unknown, index: unknown): readonly unknown[] {
  const containers = at(object, 'spec', 'template', 'spec', 'containers');
  const i = int(index);
  if (!Array.isArray(containers) || i < 0 || i >= containers.length) return [];
  const list = at(containers[i], 'ports');
  return Array.isArray(list) ? list : [];
}

/** The key arguments of mapPick/mapOmit: texts, as Go's `...string` parameter requires. */
function keyNames(name: string, keys: readonly unknown[]): string[] {
  return keys.map((key, i) => {
    if (typeof key !== 'string') throw new FunctionFailure(`${name}: key ${i + 1} must be a text, got ${kindOf(key)}`);
    return key;
  });
}

/** A plain map of the entries of `map` whose keys pass `keep` (forbidden keys never pass). */
function entries(map: Readonly<Record<string, unknown>>, keep: (key: string) => boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(map)) if (!isForbiddenKey(key) && keep(key)) out[key] = map[key];
  return out;
}

function kind(value: unknown): 'null' | 'slice' | 'map' | 'scalar' | 'unknown' {
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value)) return 'slice';
  if (isMap(value)) return 'map';
  return ['string', 'number', 'bigint', 'boolean'].includes(typeof value) ? 'scalar' : 'unknown';
}

export const ORKESTRA_REGISTERED_FUNCTIONS: Readonly<Record<string, TemplateFunction>> = {
  name: fixed(1, ([o]) => text(at(o, 'metadata', 'name'))),
  namespace: fixed(1, ([o]) => text(at(o, 'metadata', 'namespace'))),
  isEmpty: fixed(1, ([value]) => {
    if (value === undefined || value === null) return true;
    if (typeof value === 'string') return value === '';
    if (Array.isArray(value)) return value.length === 0;
    if (isMap(value)) return Object.keys(value).every(isForbiddenKey);
    return false;
  }),
  isScalar: fixed(1, ([value]) => kind(value) === 'scalar'),
  isComposite: fixed(1, ([value]) => kind(value) === 'slice' || kind(value) === 'map'),
  mapPick: variadic(1, ([map, ...keys]) => {
    const wanted = new Set(keyNames('mapPick', keys));
    return isMap(map) ? entries(map, (key) => wanted.has(key)) : {};
  }),
  mapOmit: variadic(1, ([map, ...keys]) => {
    const skipped = new Set(keyNames('mapOmit', keys));
    return isMap(map) ? entries(map, (key) => !skipped.has(key)) : {};
  }),
  containerPortByName: fixed(3, ([o, index, portName]) => {
    if (typeof portName !== 'string' || portName === '') return 0;
    const port = ports(o, index).find((p) => at(p, 'name') === portName);
    return port === undefined ? 0 : int(at(port, 'containerPort'));
  }),
  hasContainerPort: fixed(3, ([o, index, port]) => {
    const wanted = int(port);
    return ports(o, index).some((p) => int(at(p, 'containerPort')) === wanted);
  }),
};
