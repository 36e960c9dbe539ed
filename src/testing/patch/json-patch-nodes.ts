/**
 * The document of kube-apiserver's JSON patch library (gopkg.in/evanphx/json-patch.v4 v4.13.0, patch.go) as it holds
 * it while a patch applies: every value a lazy node, parsed only when an operation walks into it or a `test` compares
 * it. That laziness shows: a scalar is compared by its text (`1.0` is not `1`, `"<"` is not the stored `"\u003c"`),
 * a JSON null inside an object or array is no node at all (Go's nil, which `test` takes for a missing value), and the
 * library writes the parsed objects with their keys sorted and the rest as it was written (`marshal`).
 *
 * The functions answer Go's error texts (the callers wrap them as the library does) and throw a
 * {@link PatchError} with `panics` where the library panics (a nil node dereferenced, a write to a nil map).
 */
import { goAtoi } from '../go/go-strconv.js';
import { goHtmlEscaped } from '../go/go-values.js';
import { compactJson, rawElements, rawMembers } from './json-raw.js';
import { cloneJson, isJsonObject, setOwn, type JsonObject } from './json-value.js';
import { PatchError } from './patch-error.js';

/**
 * What a node was made from: a text (a patch's value, or what a `copy` wrote), or a value of the stored object,
 * whose text is its Go encoding. `undefined` is Go's nil raw message: the node of a patch's `"value": null`.
 */
export type Raw = { readonly text: string } | { readonly stored: unknown } | undefined;

/** A lazy node, or `undefined` for Go's nil node: a JSON null in a parsed object or array, or a missing `value`. */
export type Slot = LazyNode | undefined;

export class LazyNode {
  which: 'raw' | 'doc' | 'ary' = 'raw';
  /** The members once parsed as an object; undefined when parsed from `null` (Go's nil map: empty, and a write panics). */
  doc: Map<string, Slot> | undefined;
  ary: Slot[] = [];

  constructor(readonly raw: Raw) {}
}

/** What the library's operations return: a node (or nil), or Go's error text. */
export type Got = { readonly slot: Slot } | { readonly error: string };

/** Go's runtime panics, which kube-apiserver does not turn into an answer. */
export function panic(message: string): never {
  throw new PatchError(message, { panics: true });
}
const NIL_DEREFERENCE = 'runtime error: invalid memory address or nil pointer dereference';

/** The node Go decodes a raw JSON value into: none for `null` (an undefined array item is written as null too). */
function slotOf(raw: { readonly text: string } | { readonly stored: unknown }): Slot {
  if ('text' in raw) return raw.text === 'null' ? undefined : new LazyNode(raw);
  return raw.stored === null || raw.stored === undefined ? undefined : new LazyNode(raw);
}

/** The document a patch applies to: an object, or an array. Anything else is Go's unmarshal error. */
export function rootOf(target: unknown): LazyNode | { readonly error: string } {
  const root = new LazyNode({ stored: target });
  if (Array.isArray(target) ? parseAry(root) : parseDoc(root)) return root;
  const kind = typeof target === 'string' ? 'string' : typeof target === 'boolean' ? 'bool' : 'number';
  return { error: `json: cannot unmarshal ${kind} into Go value of type jsonpatch.partialDoc` };
}

/** Go's `isArray` of a node's raw text: whether it is an array, to be walked as one. */
function isArrayRaw(raw: Raw): boolean {
  if (raw === undefined) return false;
  return 'text' in raw ? raw.text.startsWith('[') : Array.isArray(raw.stored);
}

/** Parses a node as an object (Go's `intoDoc`/`tryDoc`); false when its raw is not one. `null` makes a nil map. */
export function parseDoc(node: LazyNode): boolean {
  if (node.which === 'doc') return true;
  const raw = node.raw;
  if (raw === undefined) return false;
  if ('text' in raw ? raw.text === 'null' : raw.stored === null) {
    node.doc = undefined;
  } else if ('text' in raw) {
    if (!raw.text.startsWith('{')) return false;
    node.doc = new Map(rawMembers(raw.text).map(([key, text]) => [key, slotOf({ text })]));
  } else {
    const stored = raw.stored;
    if (!isJsonObject(stored)) return false;
    // An undefined member is not written, so not there.
    const keys = Object.keys(stored).filter((key) => stored[key] !== undefined);
    node.doc = new Map(keys.map((key) => [key, slotOf({ stored: stored[key] })]));
  }
  node.which = 'doc';
  return true;
}

/** Parses a node as an array (Go's `intoAry`/`tryAry`); false when its raw is not one. */
export function parseAry(node: LazyNode): boolean {
  if (node.which === 'ary') return true;
  const raw = node.raw;
  if (raw === undefined) return false;
  if ('text' in raw) {
    if (raw.text !== 'null' && !raw.text.startsWith('[')) return false;
    node.ary = raw.text === 'null' ? [] : rawElements(raw.text).map((text) => slotOf({ text }));
  } else {
    if (raw.stored !== null && !Array.isArray(raw.stored)) return false;
    node.ary = raw.stored === null ? [] : (raw.stored as unknown[]).map((stored) => slotOf({ stored }));
  }
  node.which = 'ary';
  return true;
}

/** RFC 6901's unescaping as the library does it (`~1` is `/`, `~0` is `~`; any other `~` stays). */
function decodeKey(token: string): string {
  return token.replace(/~[01]/g, (escape) => (escape === '~1' ? '/' : '~'));
}

/**
 * Go's `findObject`: the container `path`'s last token is in, and that token; undefined when a token on the way is
 * missing, null, a scalar or a bad index. A path without `/` has no container; one that does not start with `/`
 * has its first token ignored (`a/b` is `/b`).
 */
export function findObject(root: LazyNode, path: string): { readonly container: LazyNode; readonly key: string } | undefined {
  const tokens = path.split('/');
  if (tokens.length < 2) return undefined;
  let container = root;
  for (const token of tokens.slice(1, -1)) {
    const got = get(container, decodeKey(token));
    if ('error' in got || got.slot === undefined || got.slot.raw === undefined) return undefined;
    const next = got.slot;
    if (!(isArrayRaw(next.raw) ? parseAry(next) : parseDoc(next))) return undefined;
    container = next;
  }
  return { container, key: decodeKey(tokens.at(-1) ?? '') };
}

function invalidIndex(index: bigint): string {
  return `Unable to access invalid index: ${index}: invalid index referenced`;
}

/** An array index (Go's int): its value, or strconv's error. Negative ones count from the end. */
function indexOf(key: string): bigint | { readonly error: string } {
  const parsed = goAtoi(key);
  return 'error' in parsed ? parsed : parsed.value;
}

/** The value at `key` of a parsed container: an object's member (nil when missing), or an array's element. */
export function get(container: LazyNode, key: string): Got {
  if (container.which === 'doc') return { slot: container.doc?.get(key) };
  const index = indexOf(key);
  if (typeof index !== 'bigint') return index;
  const length = BigInt(container.ary.length);
  const at = index < 0n && index >= -length ? index + length : index;
  if (at < 0n || at >= length) return { error: invalidIndex(at) };
  return { slot: container.ary[Number(at)] };
}

function setMember(container: LazyNode, key: string, slot: Slot): void {
  if (container.doc === undefined) panic('assignment to entry in nil map');
  container.doc.set(key, slot);
}

/** `replace` of an existing array element or of an object's member (which need not exist). */
export function set(container: LazyNode, key: string, slot: Slot): string | undefined {
  if (container.which === 'doc') return void setMember(container, key, slot);
  const index = indexOf(key);
  if (typeof index !== 'bigint') return index.error;
  const length = BigInt(container.ary.length);
  if (index < -length) return invalidIndex(index);
  container.ary[Number(index < 0n ? index + length : index)] = slot;
  return undefined;
}

/** `add`: an object's member, or an element inserted before `key` (`-` appends; `-1` is the end too). */
export function add(container: LazyNode, key: string, slot: Slot): string | undefined {
  if (container.which === 'doc') return void setMember(container, key, slot);
  if (key === '-') return void container.ary.push(slot);
  const index = indexOf(key);
  if (typeof index !== 'bigint') return `value was not a proper array index: '${key}': ${index.error}`;
  const size = BigInt(container.ary.length + 1);
  if (index >= size || index < -size) return invalidIndex(index);
  container.ary.splice(Number(index < 0n ? index + size : index), 0, slot);
  return undefined;
}

/** `remove`: an object's member, which must exist (a null one does), or an array's element. */
export function remove(container: LazyNode, key: string): string | undefined {
  if (container.which === 'doc') {
    if (container.doc?.has(key) !== true) return `Unable to remove nonexistent key: ${key}: missing value`;
    container.doc.delete(key);
    return undefined;
  }
  const index = indexOf(key);
  if (typeof index !== 'bigint') return index.error;
  const length = BigInt(container.ary.length);
  if (index >= length || index < -length) return invalidIndex(index);
  container.ary.splice(Number(index < 0n ? index + length : index), 1);
  return undefined;
}

/** Go's `compact` of a node's raw text; undefined for a nil raw. */
function compact(node: LazyNode): string | undefined {
  const raw = node.raw;
  if (raw === undefined) return undefined;
  return 'text' in raw ? compactJson(raw.text) : goHtmlEscaped(JSON.stringify(raw.stored));
}

/**
 * Go's `lazyNode.equal`, `test`'s comparison: objects and arrays structurally, scalars by their compact text. It
 * parses what it compares (which the written result then shows) and, as there, panics on a nil node it meets in an
 * array. Go visits an object's members in random order; here in their order, so where both a difference and a nil
 * are met, Go may panic or not, and this does not.
 */
export function equal(node: Slot, other: Slot): boolean {
  if (node === undefined) return panic(NIL_DEREFERENCE);
  if (node.which === 'raw' && !parseDoc(node) && !parseAry(node)) {
    if (other === undefined) return panic(NIL_DEREFERENCE);
    return other.which === 'raw' && compact(node) === compact(other);
  }
  if (other === undefined) return panic(NIL_DEREFERENCE);
  if (node.which === 'doc') {
    if (other.which === 'raw' && !parseDoc(other)) return false;
    if (other.which !== 'doc') return false;
    const mine = node.doc ?? new Map<string, Slot>();
    const theirs = other.doc ?? new Map<string, Slot>();
    if (mine.size !== theirs.size) return false;
    for (const [key, value] of mine) {
      if (!theirs.has(key)) return false;
      const otherValue = theirs.get(key);
      if ((value === undefined) !== (otherValue === undefined)) return false;
      if (value !== undefined && !equal(value, otherValue)) return false;
    }
    return true;
  }
  if (other.which !== 'ary' && !parseAry(other)) return false;
  if (node.ary.length !== other.ary.length) return false;
  return node.ary.every((value, index) => equal(value, other.ary[index]));
}

/** Go's `json.Marshal` of a node: parsed objects with their keys sorted, raw texts compacted; HTML characters escaped. */
export function marshal(slot: Slot): string {
  if (slot === undefined) return 'null';
  if (slot.which === 'ary') return `[${slot.ary.map(marshal).join(',')}]`;
  if (slot.which === 'doc') {
    const doc = slot.doc;
    if (doc === undefined) return 'null';
    const keys = [...doc.keys()].sort();
    return `{${keys.map((key) => `${goHtmlEscaped(JSON.stringify(key))}:${marshal(doc.get(key))}`).join(',')}}`;
  }
  const text = compact(slot);
  return text === undefined ? 'null' : goHtmlEscaped(text);
}

/** The JSON value of a node: new objects and arrays throughout, an object's members in their order. */
export function materialize(slot: Slot): unknown {
  if (slot === undefined) return null;
  if (slot.which === 'ary') return slot.ary.map(materialize);
  if (slot.which === 'doc') {
    if (slot.doc === undefined) return null;
    const object: JsonObject = {};
    for (const [key, value] of slot.doc) setOwn(object, key, materialize(value));
    return object;
  }
  const raw = slot.raw;
  if (raw === undefined) return null;
  return 'text' in raw ? JSON.parse(raw.text) : cloneJson(raw.stored);
}
