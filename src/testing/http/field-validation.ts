/**
 * `fieldValidation` on create, update and patch, as kube-apiserver answers it: unknown fields (not declared by a
 * custom resource's structural schema, by ObjectMeta, or at the top level of a built-in kind) and duplicate fields
 * in a JSON body. `Strict` refuses the request (400 on create and update, 422 on a patch, with kube-apiserver's
 * messages), `Warn` (the default) answers `Warning: 299` headers, `Ignore` says nothing. Unknown fields are dropped
 * from what is stored whatever the mode, as a real server prunes them. Server-side apply bodies are not checked.
 */
import { builtInRootStruct } from '../resources/builtin-typed-schema.js';
import { goDecodingError } from '../resources/go-decoding.js';
import { childOf, fieldPath, hasUnknown, itemsOf, pruneUnknown, rootNode, type FieldNode } from '../resources/known-fields.js';
import type { ResourceView } from '../resources/resource-type.js';
import { withSchemaDefaults } from '../operations/schema-rules.js';
import { goMapValue, goQuote } from '../go/go-values.js';
import { StatusError } from '../status-errors.js';
import type { KubeObject } from '../store/record.js';
import { strictJsonPatch, type StrictJsonPatch } from './json-patch-body.js';
import { invalidOption } from './query.js';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

const SUPPORTED = 'supported values: "", "Ignore", "Strict", "Warn"';

/** The mode a request asks for (the first value when repeated, as Go's conversion takes); 422 for anything else. */
export function fieldValidationOf(query: URLSearchParams, options: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions'): FieldValidation {
  const value = query.getAll('fieldValidation')[0] ?? '';
  if (value === '') return 'Warn';
  if (value === 'Strict' || value === 'Warn' || value === 'Ignore') return value;
  throw invalidOption(options, 'fieldValidation', 'FieldValueNotSupported', `Unsupported value: ${JSON.stringify(value)}: ${SUPPORTED}`);
}

/** `,`, `}`, `]` or white space: where a number, `true`, `false` or `null` ends. */
function isScalarEnd(c: number): boolean {
  return c === 44 || c === 125 || c === 93 || c === 32 || c === 9 || c === 10 || c === 13;
}

/**
 * The problems of a JSON text (already known to parse), in the order they appear: `duplicate field "a.b"` and,
 * when `root` is given, `unknown field "a.c"`. Nothing below an unknown field is looked at.
 */
export function scanFields(text: string, root: FieldNode, checkUnknown: boolean): string[] {
  const scanner = new FieldScanner(text, checkUnknown);
  scanner.value(root, '', true);
  return scanner.problems;
}

/** {@link scanFields}' walk over the text: methods of one object per scan, not closures made per call. */
class FieldScanner {
  readonly problems: string[] = [];
  private i = 0;

  constructor(
    private readonly text: string,
    private readonly checkUnknown: boolean,
  ) {}

  private skipSpace(): void {
    const text = this.text;
    let i = this.i;
    for (let c = text.charCodeAt(i); c === 32 || c === 9 || c === 10 || c === 13; c = text.charCodeAt(i)) i++;
    this.i = i;
  }

  private readString(): string {
    const text = this.text;
    const start = this.i;
    let i = start + 1;
    let escaped = false;
    for (let c = text.charCodeAt(i); i < text.length && c !== 34; c = text.charCodeAt(i)) {
      if (c === 92) escaped = true;
      i += c === 92 ? 2 : 1;
    }
    i++;
    this.i = i;
    // Only a string with an escape needs decoding; the others are their own text between the quotes.
    return escaped ? (JSON.parse(text.slice(start, i)) as string) : text.slice(start + 1, i - 1);
  }

  value(node: FieldNode, path: string, check: boolean): void {
    const text = this.text;
    this.skipSpace();
    const c = text.charCodeAt(this.i);
    if (c === 123) {
      // {
      this.i++;
      const seen = new Set<string>();
      this.skipSpace();
      if (text.charCodeAt(this.i) === 125) {
        this.i++;
        return;
      }
      for (;;) {
        this.skipSpace();
        const key = this.readString();
        this.skipSpace();
        this.i++; // the colon
        const path2 = fieldPath(path, key);
        const child = childOf(node, key);
        if (check && seen.has(key)) this.problems.push(`duplicate field "${path2}"`);
        seen.add(key);
        if (check && this.checkUnknown && !child.known) this.problems.push(`unknown field "${path2}"`);
        this.value(child.node, path2, check && child.known);
        this.skipSpace();
        if (text.charCodeAt(this.i++) === 44) continue;
        return;
      }
    }
    if (c === 91) {
      // [
      this.i++;
      this.skipSpace();
      if (text.charCodeAt(this.i) === 93) {
        this.i++;
        return;
      }
      for (let index = 0; ; index++) {
        this.value(itemsOf(node), `${path}[${index}]`, check);
        this.skipSpace();
        if (text.charCodeAt(this.i++) === 44) continue;
        return;
      }
    }
    if (c === 34) {
      this.readString();
      return;
    }
    let i = this.i;
    for (let d = text.charCodeAt(i); i < text.length && !isScalarEnd(d); d = text.charCodeAt(i)) i++;
    this.i = i;
  }
}

function warningHeader(problems: readonly string[]): Record<string, string | string[]> {
  return problems.length === 0 ? {} : { Warning: problems.map((p) => `299 - ${JSON.stringify(p)}`) };
}

/** Makes `target` hold what `source` holds (the same object when nothing changed). */
function replaceContent(target: KubeObject, source: KubeObject): void {
  if (source === target) return;
  for (const key of Object.keys(target)) if (!Object.hasOwn(source, key)) delete target[key];
  Object.assign(target, source);
}

/**
 * A create or update body: a built-in kind's Go decoding error first (400, resources/go-decoding.ts); then prunes
 * `body` in place and fills in a custom resource's defaults (so that admission webhooks see it defaulted, as
 * kube-apiserver's decoder leaves it); in Strict mode throws kube-apiserver's 400
 * (`<Kind> in version "<v>" cannot be handled as a <Kind>: strict decoding error: ...`); otherwise returns the
 * response headers (`Warning` in Warn mode).
 */
export function checkBody(view: ResourceView, mode: FieldValidation, text: string, body: KubeObject): Record<string, string | string[]> {
  // A built-in kind's value of the wrong JSON type fails Go's decoding before anything else, whatever the mode.
  const struct = view.type.builtin ? builtInRootStruct(view.type, view.version) : undefined;
  const typeError = struct === undefined ? undefined : goDecodingError(struct, body);
  if (typeError !== undefined) throw cannotBeHandled(view, typeError);
  const root = rootNode(view);
  const problems = mode === 'Ignore' ? [] : scanFields(text, root, true);
  pruneUnknown(body, root);
  replaceContent(body, withSchemaDefaults(view, body));
  if (problems.length === 0) return {};
  if (mode === 'Strict') throw cannotBeHandled(view, `strict decoding error: ${problems.join(', ')}`);
  return warningHeader(problems);
}

/** kube-apiserver's 400 for a body its decoder refuses: `<Kind> in version "<v>" cannot be handled as a <Kind>: <why>`. */
function cannotBeHandled(view: ResourceView, why: string): StatusError {
  const kind = view.type.kind;
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${kind} in version ${JSON.stringify(view.version)} cannot be handled as a ${kind}: ${why}`,
    reason: 'BadRequest',
    code: 400,
  });
}

/** Sorts object keys recursively (how the patched object is encoded in a Strict patch's message). */
function sortedJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (typeof v !== 'object' || v === null) return v;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(v).sort()) out[key] = sort((v as Record<string, unknown>)[key]);
    return out;
  };
  return JSON.stringify(sort(value));
}

/** Object keys sorted (the order kube-apiserver re-encodes a patched object in). */
export function sortedKeys(keys: string[]): string[] {
  return [...keys].sort();
}

/** What {@link patchChecker} answers: the check the patch operation calls, and the warnings for the response. */
export interface PatchFieldCheck {
  /** Checks the patched object; a JSON patch's refusal quotes `patchedText()`, the object as its library wrote it. */
  readonly check: (object: KubeObject, patchedText?: () => string) => KubeObject;
  headers(): Record<string, string | string[]>;
}

/** {@link patchChecker}'s state: a class, so that a request makes one object and one bound function, not closures. */
class PatchFields implements PatchFieldCheck {
  readonly check: (object: KubeObject, patchedText?: () => string) => KubeObject;
  private problems: string[] = [];

  constructor(
    private readonly view: ResourceView,
    private readonly root: FieldNode,
    private readonly mode: FieldValidation,
    private readonly patchText: string | undefined,
    private readonly strategic: boolean,
    /** A JSON patch's strict decoding (json-patch-body.ts): its problems come before the patched object's. */
    private readonly jsonPatch: StrictJsonPatch | undefined,
  ) {
    this.check = this.checkObject.bind(this);
  }

  headers(): Record<string, string | string[]> {
    // Strict refuses with the problems instead of warning about them.
    return this.mode === 'Strict' ? {} : warningHeader(this.problems);
  }

  /** A JSON patch's problems, then the keys its values repeat in the patched object, which has them as sent. */
  private jsonPatchProblems(patchedText: (() => string) | undefined): string[] {
    const own = this.jsonPatch;
    if (own === undefined) return [];
    const problems = own.problems.map((problem) => `json patch ${problem}`);
    // (Repeated keys under an unknown field are not seen: the decoder skips its value.)
    return own.repeatsInValues && patchedText !== undefined ? [...problems, ...scanFields(patchedText(), this.root, false)] : problems;
  }

  private checkObject(object: KubeObject, patchedText?: () => string): KubeObject {
    const { mode, root, patchText } = this;
    const duplicates = mode === 'Ignore' ? [] : patchText === undefined ? this.jsonPatchProblems(patchedText) : scanFields(patchText, undefined, false);
    // A strategic merge patch's refusal shows the patch (`%+v` of its map), a merge patch's the patched object, a
    // JSON patch's the object as its library wrote it.
    const before = mode !== 'Strict' ? '' : this.strategic && patchText !== undefined ? goMapValue(JSON.parse(patchText)) : patchedText === undefined ? sortedJson(object) : '';
    // Most patched objects have nothing unknown: ask that first, and build the ordered problems only when needed.
    const unknown = hasUnknown(object, root) ? pruneUnknown(object, root, '', sortedKeys, false) : [];
    const pruned = unknown.length === 0 ? object : structuredClone(object);
    if (pruned !== object) pruneUnknown(pruned, root);
    this.problems = mode === 'Ignore' ? [] : [...duplicates, ...unknown];
    if (mode !== 'Strict' || this.problems.length === 0) return withSchemaDefaults(this.view, pruned);
    throw patchInvalid(`Invalid value: ${goQuote(patchedText?.() ?? before)}: strict decoding error: ${this.problems.join(', ')}`);
  }
}

/** kube-apiserver's 422 for a patched object its decoder refuses (`message` names the patched object and why). */
export function patchInvalid(message: string): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: ` "" is invalid: patch: ${message}`,
    reason: 'Invalid',
    details: { causes: [{ reason: 'FieldValueInvalid', message, field: 'patch' }] },
    code: 422,
  });
}

/**
 * A patch: the duplicates of a merge or strategic patch's text (a JSON patch's own unknown and duplicate fields,
 * json-patch-body.ts), and the unknown fields of the patched object (in key order, as kube-apiserver re-encodes
 * it); a Strict refusal names the patched object, or a strategic patch's map. Returns the checker the patch
 * operation calls on the patched object (it answers a pruned copy when there is anything to prune, since the
 * patched object may share parts with the stored one; and throws kube-apiserver's 422 in Strict mode), and the
 * warnings it collected for the response.
 */
export function patchChecker(view: ResourceView, mode: FieldValidation, patchType: string, patchText: string): PatchFieldCheck {
  const scanned = patchType === 'merge' || patchType === 'strategic' ? patchText : undefined;
  const jsonPatch = patchType === 'json' && mode !== 'Ignore' ? strictJsonPatch(patchText) : undefined;
  return new PatchFields(view, rootNode(view), mode, scanned, patchType === 'strategic', jsonPatch);
}
