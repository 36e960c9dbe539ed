/**
 * The check kube-apiserver makes of a server-side apply body before anything else: the body is converted to a typed
 * value of the resource's schema (structured-merge-diff), and a field the schema does not declare or a value of the
 * wrong shape is a 500 `failed to create typed patch object (<namespace>/<name>; <group>/<version>, Kind=<kind>):
 * <problems>`, whatever `fieldValidation` says (probed on kube-apiserver 1.37.2). A custom resource is checked
 * against its structural schema of the version asked; `metadata` against ObjectMeta (of the object and of an
 * embedded resource); a built-in kind against its Go types at every level (builtin-typed-schema.ts).
 *
 * Where the two differ: structured-merge-diff walks an object's fields in Go's map order, which is random, and
 * stops at an object's first undeclared field; this walk takes the body's order, so with several problems in one
 * object kube-apiserver may name a different subset.
 */
import { ANY, ANY_SCALAR, builtInTypedRoot, OBJECT_META, STRING, type TypedNode } from './builtin-typed-schema.js';
import { extension } from './known-fields.js';
import type { ResourceView } from './resource-type.js';

type Json = Record<string, unknown>;
type Node = TypedNode;

function asNode(value: unknown): Node | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Node) : undefined;
}

/** The fields every resource has, at the top level and in an embedded resource. */
const RESOURCE_FIELDS: Readonly<Record<string, Node>> = { apiVersion: STRING, kind: STRING, metadata: OBJECT_META };

function rootOf(view: ResourceView): Node {
  if (!view.type.builtin) {
    const top = RESOURCE_FIELDS;
    const schema = asNode(view.type.schemas?.[view.version]);
    if (schema === undefined) return ANY;
    return { ...schema, type: 'object', properties: { ...(asNode(schema['properties']) ?? {}), ...top } };
  }
  return builtInTypedRoot(view.type, view.version) ?? ANY;
}

/** Go's `%#v` of a decoded JSON value (`map[string]interface {}{"a":1}`), as structured-merge-diff prints it. */
function goSharp(value: unknown): string {
  if (value === null) return 'interface {}(nil)';
  if (Array.isArray(value)) return `[]interface {}{${value.map(goSharp).join(', ')}}`;
  if (typeof value === 'object') {
    const entries = Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${goSharp((value as Json)[k])}`);
    return `map[string]interface {}{${entries.join(', ')}}`;
  }
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** Go's `%v` of a decoded JSON value (`map[a:1]`). */
function goPlain(value: unknown): string {
  if (value === null) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goPlain).join(' ')}]`;
  if (typeof value === 'object') return `map[${Object.keys(value).sort().map((k) => `${k}:${goPlain((value as Json)[k])}`).join(' ')}]`;
  return String(value);
}

/** Go's `%T` of a decoded JSON value other than a number. */
function goType(value: unknown): string {
  if (Array.isArray(value)) return '[]interface {}';
  if (typeof value === 'object') return 'map[string]interface {}';
  return typeof value === 'boolean' ? 'bool' : 'string';
}

/** A path element of an associative list's item (`[name="http"]`, its keys sorted, defaults filled in) or a set's (`[="a"]`). */
function keyElement(item: unknown, keys: readonly string[], defaults: Json): string {
  if (keys.length === 0) return `[=${JSON.stringify(item)}]`;
  const object = item as Json;
  const valueOf = (k: string): unknown => object[k] ?? defaults[k];
  return `[${[...keys].sort().filter((k) => valueOf(k) !== undefined).map((k) => `${k}=${JSON.stringify(valueOf(k))}`).join(',')}]`;
}

/** The defaults a custom resource's schema gives a keyed list's keys (its items' properties' `default`). */
function keyDefaultsOf(items: Node, keys: readonly string[] | undefined): Json {
  const properties = asNode(items['properties']) ?? {};
  return Object.fromEntries((keys ?? []).map((k) => [k, asNode(properties[k])?.['default']]).filter(([, value]) => value !== undefined));
}

function isObjectNode(node: Node): boolean {
  return node['type'] === 'object' || node['properties'] !== undefined || node['additionalProperties'] !== undefined;
}

/** The problems of `value` against `node`, each `<path>: <what>`, appended to `out`. */
function walk(value: unknown, node: Node, path: string, out: string[]): void {
  if (value === null || value === undefined || node === ANY || node['x-kubernetes-int-or-string'] === true) return;
  if (node === ANY_SCALAR) {
    if (typeof value === 'object') out.push(`${path}: expected any scalar, got &{${goPlain(value)}}`);
    return;
  }
  if (isObjectNode(node)) return walkObject(value, node, path, out);
  const type = node['type'];
  if (type === 'array') return walkArray(value, node, path, out);
  if ((type === 'integer' || type === 'number') && typeof value !== 'number') out.push(`${path}: expected numeric (int or float), got ${goType(value)}`);
  else if (type === 'string' && typeof value !== 'string') out.push(`${path}: expected string, got &value.valueUnstructured{Value:${goSharp(value)}}`);
  else if (type === 'boolean' && typeof value !== 'boolean') out.push(`${path}: expected boolean, got &{${goPlain(value)}}`);
}

function walkObject(value: unknown, node: Node, path: string, out: string[]): void {
  if (typeof value !== 'object' || Array.isArray(value)) {
    out.push(`${path}: expected map, got &{${goPlain(value)}}`);
    return;
  }
  const properties = asNode(node['properties']);
  const additional = node['additionalProperties'];
  const embedded = extension(node, 'embedded-resource');
  // An object schema without fields (and not open) is deduced from the value: anything goes (pruned afterwards).
  const open = extension(node, 'preserve-unknown-fields') || additional === true || (properties === undefined && additional === undefined && !embedded);
  for (const [key, child] of Object.entries(value as Json)) {
    const declared =
      (properties !== undefined && Object.hasOwn(properties, key) ? asNode(properties[key]) : undefined) ??
      (embedded && Object.hasOwn(RESOURCE_FIELDS, key) ? RESOURCE_FIELDS[key] : undefined) ??
      asNode(additional);
    if (declared !== undefined) walk(child, declared, `${path}.${key}`, out);
    else if (!open) {
      // structured-merge-diff stops at an object's first undeclared field.
      out.push(`${path}.${key}: field not declared in schema`);
      return;
    }
  }
}

function walkArray(value: unknown, node: Node, path: string, out: string[]): void {
  if (!Array.isArray(value)) {
    out.push(`${path}: expected list, got &{${goPlain(value)}}`);
    return;
  }
  const items = asNode(node['items']) ?? ANY;
  const listType = node['x-kubernetes-list-type'];
  const keys = listType === 'map' && Array.isArray(node['x-kubernetes-list-map-keys']) ? (node['x-kubernetes-list-map-keys'] as string[]) : undefined;
  // A key's default (a built-in kind's, from its schema): an item without the key is keyed with it.
  const defaults = asNode(node['keyDefaults']) ?? keyDefaultsOf(items, keys);
  const seen = new Set<string>();
  value.forEach((item, index) => {
    let element = `[${index}]`;
    if (keys !== undefined || listType === 'set') {
      if (keys !== undefined && (typeof item !== 'object' || item === null || keys.every((k) => (item as Json)[k] === undefined && defaults[k] === undefined))) {
        out.push(`${path}: element ${index}: associative list with keys has an element that omits all key fields ${JSON.stringify(keys)} (and doesn't have default values for any key fields)`);
        return;
      }
      element = keyElement(item, keys ?? [], defaults);
      if (seen.has(element)) out.push(`${path}: duplicate entries for key ${element}`);
      seen.add(element);
    }
    walk(item, items, `${path}${element}`, out);
  });
}

/** What kube-apiserver's 500 says about an apply body of `view`, or undefined when the body is well typed. */
export function typedApplyProblem(view: ResourceView, body: unknown): string | undefined {
  const problems: string[] = [];
  walk(body, rootOf(view), '', problems);
  if (problems.length === 0) return undefined;
  const detail = problems.length === 1 ? problems[0] : ['errors:', ...problems.map((p) => `  ${p}`)].join('\n');
  return `failed to create typed patch object (${applyId(view, body)}): ${detail}`;
}

/** How kube-apiserver's apply errors name the object: `<namespace>/<name>; <group>/<version>, Kind=<kind>`, from the body. */
export function applyId(view: ResourceView, body: unknown): string {
  const metadata = asNode(asNode(body)?.['metadata']) ?? {};
  return `${String(metadata['namespace'] ?? '')}/${String(metadata['name'] ?? '')}; ${view.type.group}/${view.version}, Kind=${view.type.kind}`;
}
