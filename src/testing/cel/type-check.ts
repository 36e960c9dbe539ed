/**
 * The part of CEL's type check kube-apiserver's compilation of an `x-kubernetes-validations` rule refuses a CRD for
 * that the test server can judge without doubt: a field the schema does not declare (`undefined field 'nope'`, at
 * the `.` before it, with cel-go's snippet and caret) and a rule whose result is known not to be a bool. Types come
 * from the schema as kube-apiserver declares them (an object's declared properties, with `apiVersion`, `kind` and
 * `metadata.name`/`generateName` at a resource's root; a map for `additionalProperties`; a string with format
 * `date-time` a timestamp...). Anything it cannot type exactly is `dyn` and never an error, so a rule is refused here
 * only where kube-apiserver refuses it; the rest (undeclared variables, overloads, syntax, cost) is left to a cluster.
 */
import { asSchema, itemsSchema, keyword, propertiesOf, type SchemaNode } from '../resources/schema-keywords.js';
import type { CelSyntaxError } from './lexer.js';
import type { Expr } from './parser.js';

type Primitive = 'bool' | 'int' | 'uint' | 'double' | 'string' | 'bytes' | 'null_type' | 'timestamp' | 'duration';

export type CelStaticType =
  | { readonly t: 'object'; readonly fields: ReadonlyMap<string, CelStaticType> }
  | { readonly t: 'list'; readonly items: CelStaticType }
  | { readonly t: 'map'; readonly values: CelStaticType }
  | { readonly t: Primitive }
  /** A message type by its name (a mutation's `Object.spec`, `JSONPatch`: parser.ts isPatchType). */
  | { readonly t: 'message'; readonly name: string }
  | { readonly t: 'dyn' };

const DYN: CelStaticType = { t: 'dyn' };
const BOOL: CelStaticType = { t: 'bool' };
const INT: CelStaticType = { t: 'int' };
const STRING: CelStaticType = { t: 'string' };

/** The CEL type kube-apiserver declares for values of `node` (`resource`: the root of a resource or an embedded one). */
export function schemaType(node: SchemaNode | undefined, resource = false): CelStaticType {
  if (node === undefined || keyword(node, 'x-kubernetes-int-or-string') === true) return DYN;
  switch (node['type']) {
    case 'array': {
      const items = itemsSchema(node);
      return items === undefined ? DYN : { t: 'list', items: schemaType(items, keyword(items, 'x-kubernetes-embedded-resource') === true) };
    }
    case 'object': {
      // A map only when `additionalProperties` is a schema; `true` leaves an object of the declared fields (probed).
      const values = asSchema(node['additionalProperties']);
      if (values !== undefined) return { t: 'map', values: schemaType(values, keyword(values, 'x-kubernetes-embedded-resource') === true) };
      const fields = new Map<string, CelStaticType>();
      for (const [name, property] of Object.entries(propertiesOf(node) ?? {})) {
        const schema = asSchema(property);
        fields.set(name, schemaType(schema, schema !== undefined && keyword(schema, 'x-kubernetes-embedded-resource') === true));
      }
      if (resource) {
        fields.set('apiVersion', STRING);
        fields.set('kind', STRING);
        fields.set('metadata', { t: 'object', fields: new Map([['name', STRING], ['generateName', STRING]]) });
      }
      return { t: 'object', fields };
    }
    case 'string':
      switch (node['format']) {
        case 'byte':
          return { t: 'bytes' };
        case 'duration':
          return { t: 'duration' };
        case 'date':
        case 'date-time':
          return { t: 'timestamp' };
        default:
          return STRING;
      }
    case 'integer':
      return INT;
    case 'number':
      return { t: 'double' };
    case 'boolean':
      return BOOL;
    default:
      return DYN;
  }
}

/** A compile error at an offset of the rule's text. */
export interface CelIssue {
  readonly at: number;
  readonly message: string;
}

/** The functions whose result type does not depend on their arguments. */
const RESULTS: ReadonlyMap<string, CelStaticType> = new Map<string, CelStaticType>([
  ['!_', BOOL], ['_==_', BOOL], ['_!=_', BOOL], ['_<_', BOOL], ['_<=_', BOOL], ['_>_', BOOL], ['_>=_', BOOL], ['_@in_', BOOL],
  ['size', INT], ['matches', BOOL], ['startsWith', BOOL], ['endsWith', BOOL], ['contains', BOOL],
  ['int', INT], ['uint', { t: 'uint' }], ['double', { t: 'double' }], ['string', STRING], ['bool', BOOL], ['bytes', { t: 'bytes' }],
  ['timestamp', { t: 'timestamp' }], ['duration', { t: 'duration' }],
]);

/** The static type of `expr` with these variables, collecting the undefined fields it selects. */
export function typeOf(expr: Expr, vars: ReadonlyMap<string, CelStaticType>, issues: CelIssue[]): CelStaticType {
  switch (expr.k) {
    case 'literal':
      return literalType(expr.value);
    case 'ident':
      return vars.get(expr.name) ?? DYN;
    case 'select': {
      const operand = typeOf(expr.operand, vars, issues);
      if (operand.t === 'map') return expr.test ? BOOL : operand.values;
      if (operand.t !== 'object') return expr.test ? BOOL : DYN;
      const field = operand.fields.get(expr.field);
      // A property whose name CEL must escape (`foo__dash__bar`) is not matched here: left to a cluster.
      if (field === undefined && !expr.field.includes('__') && expr.at !== undefined) issues.push({ at: expr.at, message: `undefined field '${expr.field}'` });
      return expr.test ? BOOL : (field ?? DYN);
    }
    case 'index': {
      const operand = typeOf(expr.operand, vars, issues);
      typeOf(expr.index, vars, issues);
      if (operand.t === 'list') return operand.items;
      if (operand.t === 'map') return operand.values;
      return DYN;
    }
    case 'call': {
      if (expr.target !== undefined) typeOf(expr.target, vars, issues);
      const args = expr.args.map((arg) => typeOf(arg, vars, issues));
      const known = RESULTS.get(expr.name);
      if (known !== undefined) return known;
      const [a, b] = args;
      if (expr.name === '-_' && a !== undefined) return a;
      if (['_+_', '_-_', '_*_', '_/_', '_%_'].includes(expr.name) && a !== undefined && b !== undefined && isPrimitive(a) && a.t === b.t) return a;
      return DYN;
    }
    case 'list': {
      // The items' type when they all have the same primitive or message type (cel-go's join), else dyn.
      const [first, ...rest] = expr.items.map((item) => typeOf(item, vars, issues));
      const same = first !== undefined && (isPrimitive(first) || first.t === 'message') && rest.every((type) => sameType(type, first));
      return { t: 'list', items: same ? first : DYN };
    }
    case 'map':
      for (const entry of expr.entries) {
        typeOf(entry.key, vars, issues);
        typeOf(entry.value, vars, issues);
      }
      return { t: 'map', values: DYN };
    case 'construct':
      for (const field of expr.fields) typeOf(field.value, vars, issues);
      return { t: 'message', name: expr.type };
    case 'conditional': {
      typeOf(expr.condition, vars, issues);
      const then = typeOf(expr.then, vars, issues);
      const otherwise = typeOf(expr.otherwise, vars, issues);
      if (then.t === 'message') return otherwise.t === 'message' && otherwise.name === then.name ? then : DYN;
      return isPrimitive(then) && then.t === otherwise.t ? then : DYN;
    }
    case 'and':
    case 'or':
      typeOf(expr.left, vars, issues);
      typeOf(expr.right, vars, issues);
      return BOOL;
    case 'comprehension': {
      const range = typeOf(expr.range, vars, issues);
      const inner = new Map(vars);
      const [first, second] = expr.vars;
      const element = range.t === 'list' ? range.items : range.t === 'map' ? STRING : DYN;
      if (second === undefined) {
        if (first !== undefined) inner.set(first, element);
      } else {
        if (first !== undefined) inner.set(first, range.t === 'list' ? INT : element);
        inner.set(second, range.t === 'list' ? range.items : range.t === 'map' ? range.values : DYN);
      }
      const step = typeOf(expr.step, inner, issues);
      if (expr.filter !== undefined) typeOf(expr.filter, inner, issues);
      if (expr.kind === 'map') return { t: 'list', items: step };
      if (expr.kind === 'filter') return range.t === 'list' ? range : DYN;
      return BOOL;
    }
  }
}

/** Whether two primitive or message types are the same. */
function sameType(a: CelStaticType, b: CelStaticType): boolean {
  return a.t === b.t && (a.t !== 'message' || (b.t === 'message' && a.name === b.name));
}

function isPrimitive(type: CelStaticType): boolean {
  return type.t !== 'object' && type.t !== 'list' && type.t !== 'map' && type.t !== 'message' && type.t !== 'dyn';
}

function literalType(value: unknown): CelStaticType {
  switch (typeof value) {
    case 'bigint':
      return INT;
    case 'number':
      return { t: 'double' };
    case 'string':
      return STRING;
    case 'boolean':
      return BOOL;
    default:
      return value === null ? { t: 'null_type' } : DYN;
  }
}

/** cel-go's wording of compile errors: each at its line and column, with the line and a caret under the place. */
export function compileErrorText(text: string, issues: readonly CelIssue[]): string {
  const lines = text.split('\n');
  const shown = [...issues].sort((a, b) => a.at - b.at).map((issue) => {
    const before = text.slice(0, issue.at);
    const line = before.split('\n').length;
    const column = issue.at - (before.lastIndexOf('\n') + 1);
    return `ERROR: <input>:${line}:${column + 1}: ${issue.message}\n | ${lines[line - 1] ?? ''}\n | ${'.'.repeat(column)}^`;
  });
  return `compilation failed: ${shown.join('\n')}`;
}

/**
 * A syntax error as kube-apiserver's compilation words it: cel-go's errors, each at its place with the caret, where
 * the parser knows them; else the parser's own words, without a place.
 */
export function syntaxErrorText(text: string, error: CelSyntaxError): string {
  return error.issues.length > 0 ? compileErrorText(text, error.issues) : `compilation failed: ERROR: <input>: ${error.message}`;
}

/** Whether a rule of this type is refused for not being a bool (a type known exactly and not bool). */
export function notBool(type: CelStaticType): boolean {
  return type.t !== 'bool' && type.t !== 'dyn';
}
