/**
 * The compilation kube-apiserver 1.37 gives each CEL expression of a ValidatingAdmissionPolicy when the policy is
 * written (apiserver's admission/plugin/cel compiler), as far as the test server can judge it without doubt:
 * - a syntax error refuses the expression (`compilation failed: ERROR: <input>:1:10: Syntax error: mismatched input
 *   '<EOF>' expecting ...`, in cel-go's words where the parser knows them: cel/parser.ts);
 * - `params` without a paramKind, `variables` where the policy declares none (and always in a matchCondition), and
 *   `authorizer` in a messageExpression are undeclared references, as kube-apiserver declares them;
 * - `request` and `namespaceObject` have kube-apiserver's declared types, so a field they do not have is an
 *   `undefined field` (cel/type-check.ts words it as cel-go does), and so do `variables` (the variables compiled
 *   before, with an object's type turned into dyn as kube-apiserver's composition does);
 * - the result must be of the kind's type: a validation or match condition a bool, a messageExpression a string,
 *   an audit annotation's value a string or null. `object`, `oldObject` and `params` are dyn, and so is any field
 *   of them: `object.spec.enabled` alone is `must evaluate to bool but got dyn`, as on kube-apiserver.
 * Not judged (accepted here, left to a cluster): other undeclared identifiers, a field selected on a string or
 * number, overloads, the parts of CEL the parser here does not read (optional syntax...), cost limits; a type
 * named from a literal is cel-go's only as far as cel/type-check.ts knows it.
 */
import { CelSyntaxError, tokenize } from '../../cel/lexer.js';
import { childExprs } from '../../cel/expr-tree.js';
import { CelUnsupported, isPatchType, parseCel, type Expr } from '../../cel/parser.js';
import { compileErrorText, syntaxErrorText, typeOf, type CelIssue, type CelStaticType } from '../../cel/type-check.js';
import { fieldInvalid, type FieldProblem } from '../../status-errors.js';

const DYN: CelStaticType = { t: 'dyn' };
const STRING: CelStaticType = { t: 'string' };
const INT: CelStaticType = { t: 'int' };
const TIMESTAMP: CelStaticType = { t: 'timestamp' };
const STRINGS: CelStaticType = { t: 'list', items: STRING };
const STRING_MAP: CelStaticType = { t: 'map', values: STRING };

/** The names cel-go gives the object types kube-apiserver declares. */
const NAMES = new WeakMap<CelStaticType, string>();

function objectType(name: string, fields: ReadonlyArray<[string, CelStaticType]>): CelStaticType {
  const type: CelStaticType = { t: 'object', fields: new Map(fields) };
  NAMES.set(type, name);
  return type;
}

const GVK = objectType('kubernetes.GroupVersionKind', [['group', STRING], ['version', STRING], ['kind', STRING]]);
const GVR = objectType('kubernetes.GroupVersionResource', [['group', STRING], ['version', STRING], ['resource', STRING]]);
const USER_INFO = objectType('kubernetes.UserInfo', [['username', STRING], ['uid', STRING], ['groups', STRINGS], ['extra', { t: 'map', values: STRINGS }]]);

/** apiserver's BuildRequestType: the AdmissionRequest `request` is. */
const REQUEST = objectType('kubernetes.AdmissionRequest', [
  ['kind', GVK], ['resource', GVR], ['subResource', STRING], ['requestKind', GVK], ['requestResource', GVR], ['requestSubResource', STRING],
  ['name', STRING], ['namespace', STRING], ['operation', STRING], ['userInfo', USER_INFO], ['dryRun', { t: 'bool' }], ['options', DYN],
]);

/** apiserver's BuildNamespaceType: the Namespace `namespaceObject` is. */
const NAMESPACE = objectType('kubernetes.Namespace', [
  ['metadata', objectType('kubernetes.NamespaceMetadata', [
    ['name', STRING], ['generateName', STRING], ['namespace', STRING], ['labels', STRING_MAP], ['annotations', STRING_MAP], ['UID', STRING],
    ['creationTimestamp', TIMESTAMP], ['deletionGracePeriodSeconds', INT], ['deletionTimestamp', TIMESTAMP], ['generation', INT],
    ['resourceVersion', STRING], ['finalizers', STRINGS],
  ])],
  ['spec', objectType('kubernetes.NamespaceSpec', [['finalizers', STRINGS]])],
  ['status', objectType('kubernetes.NamespaceStatus', [
    ['conditions', { t: 'list', items: objectType('kubernetes.NamespaceCondition', [['status', STRING], ['type', STRING], ['lastTransitionTime', TIMESTAMP], ['message', STRING], ['reason', STRING]]) }],
    ['phase', STRING],
  ])],
]);

/** A compiled variable's type, as later expressions see it under `variables`; `dyn` says whether a dyn is certain. */
export interface VariableType {
  readonly type: CelStaticType;
  readonly dyn: boolean;
}

/** What an expression may refer to beyond object, oldObject, request and namespaceObject. */
export interface CelScope {
  readonly params: boolean;
  readonly authorizer: boolean;
  /** The variables compiled so far; undefined: `variables` is not declared. */
  readonly variables: ReadonlyMap<string, VariableType> | undefined;
  /** A mutation's expression: `Object...` and `JSONPatch` may be constructed, `jsonpatch.escapeKey` called. */
  readonly patchTypes?: boolean;
}

/** What an expression must evaluate to (its accessor's ReturnTypes). */
export type Want = 'bool' | 'string' | 'string-or-null' | 'Object' | 'list(JSONPatch)' | 'any';

export interface Compiled {
  readonly problem: FieldProblem | undefined;
  /** The result's type for `variables`: a failed compilation is dyn, an object's type dyn too (composition.go). */
  readonly variable: VariableType;
}

const PRIMITIVE_NAMES: Readonly<Record<string, string>> = { timestamp: 'google.protobuf.Timestamp', duration: 'google.protobuf.Duration' };

/** cel-go's name of a type (a map's keys are strings in every map kube-apiserver declares). */
function typeName(type: CelStaticType): string {
  switch (type.t) {
    case 'object':
      return NAMES.get(type) ?? 'dyn';
    case 'message':
      return type.name;
    case 'list':
      return `list(${typeName(type.items)})`;
    case 'map':
      return `map(string, ${typeName(type.values)})`;
    default:
      return PRIMITIVE_NAMES[type.t] ?? type.t;
  }
}

/** The one name of several elements' types: theirs when they agree, else dyn (none: dyn). */
function joined(names: readonly string[]): string {
  const [first] = names;
  return first !== undefined && names.every((name) => name === first) ? first : 'dyn';
}

/** A bytes or uint literal's type, which cel/type-check.ts leaves dyn. */
function literalType(expr: Expr): CelStaticType | undefined {
  if (expr.k !== 'literal') return undefined;
  if (expr.value instanceof Uint8Array) return { t: 'bytes' };
  return typeof expr.value === 'object' && expr.value !== null && 'uint' in expr.value ? { t: 'uint' } : undefined;
}

/** The name of `expr`'s type, a list or map literal's from its elements (cel/type-check.ts types them dyn). */
function nameOf(expr: Expr, vars: ReadonlyMap<string, CelStaticType>): string {
  const literal = literalType(expr);
  if (literal !== undefined) return typeName(literal);
  if (expr.k === 'list') return `list(${joined(expr.items.map((item) => nameOf(item, vars)))})`;
  if (expr.k === 'map') return `map(${joined(expr.entries.map((entry) => nameOf(entry.key, vars)))}, ${joined(expr.entries.map((entry) => nameOf(entry.value, vars)))})`;
  if (expr.k === 'conditional') {
    // An empty list literal takes the other branch's list type (cel-go unifies its element type).
    const [then, otherwise] = [nameOf(expr.then, vars), nameOf(expr.otherwise, vars)];
    if (isEmptyList(expr.then) && otherwise.startsWith('list(')) return otherwise;
    if (isEmptyList(expr.otherwise) && then.startsWith('list(')) return then;
    return then === otherwise ? then : typeName(typeOf(expr, vars, []));
  }
  return typeName(typeOf(expr, vars, []));
}

function isEmptyList(expr: Expr): boolean {
  return expr.k === 'list' && expr.items.length === 0;
}

/** The message types a mutation declares, and a JSONPatch's fields with their types (mutation/jsonpatch.go). */
const JSON_PATCH_FIELDS: ReadonlyMap<string, string> = new Map([['op', 'string'], ['path', 'string'], ['from', 'string'], ['value', 'dyn']]);

/**
 * cel-go's checks of message constructions: a type the environment does not declare (`undeclared reference`), a
 * JSONPatch field it does not have or of a type it does not take, and list items of different message types.
 */
function constructIssues(expr: Expr, vars: ReadonlyMap<string, CelStaticType>): CelIssue[] {
  const issues: CelIssue[] = [];
  const visit = (inner: Expr): void => {
    if (inner.k === 'construct') {
      if (!isPatchType(inner.type)) issues.push({ at: inner.at, message: `undeclared reference to '${inner.type}' (in container '')` });
      else if (inner.type === 'JSONPatch') {
        for (const field of inner.fields) {
          const expected = JSON_PATCH_FIELDS.get(field.name) ?? '';
          const provided = nameOf(field.value, vars);
          if (expected !== 'dyn' && provided !== 'dyn' && provided !== expected) issues.push({ at: field.at, message: `expected type of field '${field.name}' is '${expected}' but provided type is '${provided}'` });
        }
      }
    }
    if (inner.k === 'list') {
      const [first, ...rest] = inner.items;
      for (const item of rest) {
        if (first?.k === 'construct' && item.k === 'construct' && item.type !== first.type) issues.push({ at: item.at, message: `expected type '${first.type}' but found '${item.type}'` });
      }
    }
    for (const child of childExprs(inner)) visit(child);
  };
  visit(expr);
  return issues;
}

/** Whether cel-go types `expr` dyn for certain: a field or item of a dyn variable, a dyn field, a dyn variable. */
function certainlyDyn(expr: Expr, vars: ReadonlyMap<string, CelStaticType>, scope: CelScope): boolean {
  switch (expr.k) {
    case 'ident':
      return expr.name === 'object' || expr.name === 'oldObject' || (expr.name === 'params' && scope.params);
    case 'index':
      return certainlyDyn(expr.operand, vars, scope);
    case 'select': {
      if (expr.test) return false;
      if (certainlyDyn(expr.operand, vars, scope)) return true;
      if (expr.operand.k === 'ident' && expr.operand.name === 'variables') return scope.variables?.get(expr.field)?.dyn === true;
      const operand = typeOf(expr.operand, vars, []);
      return operand.t === 'object' && NAMES.has(operand) && operand.fields.get(expr.field)?.t === 'dyn';
    }
    default:
      return false;
  }
}

/** The references in `expr` to the variables in `names`, in order (comprehension variables shadow them). */
function references(expr: Expr, names: ReadonlySet<string>, bound: ReadonlySet<string> = new Set()): string[] {
  switch (expr.k) {
    case 'ident':
      return names.has(expr.name) && !bound.has(expr.name) ? [expr.name] : [];
    case 'literal':
      return [];
    case 'select':
      return references(expr.operand, names, bound);
    case 'index':
      return [...references(expr.operand, names, bound), ...references(expr.index, names, bound)];
    case 'call':
      return [...(expr.target === undefined ? [] : references(expr.target, names, bound)), ...expr.args.flatMap((arg) => references(arg, names, bound))];
    case 'list':
      return expr.items.flatMap((item) => references(item, names, bound));
    case 'map':
      return expr.entries.flatMap((entry) => [...references(entry.key, names, bound), ...references(entry.value, names, bound)]);
    case 'construct':
      return expr.fields.flatMap((field) => references(field.value, names, bound));
    case 'conditional':
      return [expr.condition, expr.then, expr.otherwise].flatMap((part) => references(part, names, bound));
    case 'and':
    case 'or':
      return [...references(expr.left, names, bound), ...references(expr.right, names, bound)];
    case 'comprehension': {
      const inner = new Set([...bound, ...expr.vars]);
      const parts = expr.filter === undefined ? [expr.step] : [expr.filter, expr.step];
      return [...references(expr.range, names, bound), ...parts.flatMap((part) => references(part, names, inner))];
    }
  }
}

/**
 * cel-go's `undeclared reference` errors, at each reference's identifier: the tree has no offsets of identifiers,
 * so each is found among the text's tokens (an identifier neither selected after a `.` nor called).
 */
function undeclared(text: string, expr: Expr, names: ReadonlySet<string>): CelIssue[] {
  const found = references(expr, names);
  if (found.length === 0) return [];
  const tokens = tokenize(text);
  const issues: CelIssue[] = [];
  const used = new Set<number>();
  for (const name of found) {
    const index = tokens.findIndex((token, i) => {
      const before = tokens[i - 1];
      const after = tokens[i + 1];
      return !used.has(i) && token.kind === 'ident' && token.value === name && !(before?.kind === 'op' && before.value === '.') && !(after?.kind === 'op' && after.value === '(');
    });
    const token = tokens[index];
    if (token === undefined) continue;
    used.add(index);
    issues.push({ at: token.at, message: `undeclared reference to '${name}' (in container '')` });
  }
  return issues;
}

/** The variables an expression sees, with their types. */
function variablesOf(scope: CelScope): Map<string, CelStaticType> {
  const vars = new Map<string, CelStaticType>([['object', DYN], ['oldObject', DYN], ['request', REQUEST], ['namespaceObject', NAMESPACE]]);
  if (scope.params) vars.set('params', DYN);
  if (scope.authorizer) vars.set('authorizer', DYN);
  if (scope.variables !== undefined) vars.set('variables', objectType('kubernetes.variables', [...scope.variables].map(([name, variable]) => [name, variable.type])));
  return vars;
}

/** A variable's type as composition.go stores it: an object's type is dyn, a list's or map's converted inside. */
function storedType(type: CelStaticType): CelStaticType {
  if (type.t === 'object') return DYN;
  if (type.t === 'list') return { t: 'list', items: storedType(type.items) };
  if (type.t === 'map') return { t: 'map', values: storedType(type.values) };
  return type;
}

const WANTED: Readonly<Record<Exclude<Want, 'any'>, { readonly names: readonly string[]; readonly wording: string }>> = {
  bool: { names: ['bool'], wording: 'bool' },
  Object: { names: ['Object'], wording: 'Object' },
  'list(JSONPatch)': { names: ['list(JSONPatch)'], wording: 'list(JSONPatch)' },
  string: { names: ['string'], wording: 'string' },
  'string-or-null': { names: ['string', 'null_type'], wording: 'one of [string null_type]' },
};

const UNKNOWN: VariableType = { type: DYN, dyn: false };
const FAILED: VariableType = { type: DYN, dyn: true };

/**
 * kube-apiserver's compilation of `text` at `field`: its refusal (a 422 cause), if any, and the result's type.
 * `shown`: the value the refusal shows, when kube-apiserver compiles a trimmed text but shows the field's own.
 */
export function compileExpression(text: string, field: string, scope: CelScope, want: Want, shown = text): Compiled {
  let expr: Expr;
  try {
    expr = parseCel(text, { patchTypes: scope.patchTypes === true });
  } catch (error) {
    // A part of CEL the parser here does not read is not judged; a syntax error is, in the parser's own words.
    if (error instanceof CelUnsupported) return { problem: undefined, variable: UNKNOWN };
    if (!(error instanceof CelSyntaxError)) throw error;
    return { problem: fieldInvalid(field, shown, syntaxErrorText(text, error)), variable: FAILED };
  }
  const vars = variablesOf(scope);
  const missing = new Set(['params', 'authorizer', 'variables'].filter((name) => !vars.has(name)));
  const issues = [...undeclared(text, expr, missing), ...(scope.patchTypes === true ? constructIssues(expr, vars) : [])];
  const typed = typeOf(expr, vars, issues);
  const type = literalType(expr) ?? typed;
  if (issues.length > 0) return { problem: fieldInvalid(field, shown, compileErrorText(text, issues)), variable: FAILED };
  const known = type.t !== 'dyn' ? nameOf(expr, vars) : certainlyDyn(expr, vars, scope) ? 'dyn' : undefined;
  const variable = type.t !== 'dyn' ? { type: storedType(type), dyn: type.t === 'object' } : { type: DYN, dyn: known === 'dyn' };
  if (want === 'any' || known === undefined || WANTED[want].names.includes(known)) return { problem: undefined, variable };
  return { problem: fieldInvalid(field, shown, `must evaluate to ${WANTED[want].wording} but got ${known}`), variable };
}
