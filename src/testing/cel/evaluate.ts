/**
 * Evaluating a parsed CEL expression against variables (`self`, `oldSelf`), with CEL's semantics: `&&` and `||`
 * absorb an error of one side when the other decides (`false && error` is false, in either order), the conditional
 * needs a bool, selecting an absent field is the error `no such key: <field>` (and `has()` asks instead), indexing
 * out of range or dividing by zero are errors, and a call no overload fits is `no such overload`. Functions are
 * in functions.ts; comprehensions (the macros) here.
 */
import { callFunction } from './functions.js';
import { CelUnsupported, type Expr } from './parser.js';
import { constructed, objectField } from './patch-types.js';
import { CelEvalError, CelObject, CelType, CelUint, TYPE_NAMES, isList, isMap, mapGet, mapKey, noOverload, type CelKey, type CelValue } from './values.js';

export type Variables = ReadonlyMap<string, CelValue>;

/** Evaluates `expr`; throws CelEvalError (the rule's runtime error) or CelUnsupported. */
export function evaluate(expr: Expr, vars: Variables): CelValue {
  switch (expr.k) {
    case 'literal':
      return literal(expr.value);
    case 'ident': {
      const value = vars.get(expr.name);
      if (value !== undefined) return value;
      if (TYPE_NAMES.has(expr.name)) return new CelType(expr.name);
      throw new CelUnsupported(`undeclared reference to '${expr.name}'`);
    }
    case 'select':
      return select(evaluate(expr.operand, vars), expr.field, expr.test);
    case 'index':
      return index(evaluate(expr.operand, vars), evaluate(expr.index, vars));
    case 'list':
      return expr.items.map((item) => evaluate(item, vars));
    case 'map': {
      const map = new Map<CelKey, CelValue>();
      for (const entry of expr.entries) {
        const key = mapKey(evaluate(entry.key, vars));
        if (key === undefined) throw new CelEvalError('unsupported key type');
        if (map.has(key)) throw new CelEvalError(`Failed with repeated key`);
        map.set(key, evaluate(entry.value, vars));
      }
      return map;
    }
    case 'construct':
      return constructed(expr.type, new Map(expr.fields.map((field) => [field.name, evaluate(field.value, vars)])));
    case 'conditional': {
      const condition = evaluate(expr.condition, vars);
      if (typeof condition !== 'boolean') throw noOverload('_?_:_', [condition]);
      return evaluate(condition ? expr.then : expr.otherwise, vars);
    }
    case 'and':
    case 'or':
      return logical(expr.k, expr.left, expr.right, vars);
    case 'call':
      return callFunction(
        expr.name,
        expr.target === undefined ? undefined : evaluate(expr.target, vars),
        expr.args.map((arg) => evaluate(arg, vars)),
      );
    case 'comprehension':
      return comprehension(expr, vars);
  }
}

function literal(value: unknown): CelValue {
  if (typeof value === 'object' && value !== null && 'uint' in value) return new CelUint((value as { uint: bigint }).uint);
  return value as CelValue;
}

/** `&&` / `||`: commutative over errors, as CEL's are. */
function logical(kind: 'and' | 'or', left: Expr, right: Expr, vars: Variables): CelValue {
  const decisive = kind === 'or';
  let leftError: unknown;
  let leftValue: CelValue | undefined;
  try {
    leftValue = evaluate(left, vars);
  } catch (error) {
    if (!(error instanceof CelEvalError)) throw error;
    leftError = error;
  }
  if (leftValue === decisive) return decisive;
  if (leftValue !== undefined && typeof leftValue !== 'boolean') throw noOverload(kind === 'and' ? '_&&_' : '_||_', [leftValue]);
  const rightValue = evaluate(right, vars);
  if (typeof rightValue !== 'boolean') throw noOverload(kind === 'and' ? '_&&_' : '_||_', [rightValue]);
  if (rightValue === decisive) return decisive;
  if (leftError !== undefined) throw leftError;
  return !decisive;
}

function select(operand: CelValue, field: string, test: boolean): CelValue {
  if (operand instanceof CelObject) return objectField(operand, field, test);
  if (!isMap(operand)) {
    if (operand === null) throw new CelEvalError(`no such key: ${field}`);
    throw noOverload(test ? 'has' : '_._', [operand]);
  }
  const key = operand.has(field) ? field : unescapedField(field);
  const value = operand.get(key);
  if (test) return value !== undefined;
  if (value === undefined) throw new CelEvalError(`no such key: ${field}`);
  return value;
}

const ESCAPES: Readonly<Record<string, string>> = { underscores: '__', dot: '.', dash: '-', slash: '/' };

/**
 * A property name as Kubernetes escapes it for CEL (`a__dot__b` is the property `a.b`; `__dash__`, `__slash__`,
 * `__underscores__`, and `__in__`-style escapes of CEL's reserved words), read back.
 */
function unescapedField(field: string): string {
  return field.replace(/__([a-z]+)__/g, (whole, word: string) => ESCAPES[word] ?? (RESERVED_WORDS.has(word) ? word : whole));
}

const RESERVED_WORDS = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

function index(operand: CelValue, key: CelValue): CelValue {
  if (isList(operand)) {
    const position = typeof key === 'bigint' ? key : key instanceof CelUint ? key.value : typeof key === 'number' && Number.isInteger(key) ? BigInt(key) : undefined;
    if (position === undefined) throw noOverload('_[_]', [operand, key]);
    if (position < 0n || position >= BigInt(operand.length)) throw new CelEvalError(`index out of bounds: ${position}`);
    return operand[Number(position)] ?? null;
  }
  if (isMap(operand)) {
    const value = mapGet(operand, key);
    if (value === undefined) throw new CelEvalError(`no such key: ${typeof key === 'string' ? key : String(key)}`);
    return value;
  }
  throw noOverload('_[_]', [operand, key]);
}

function comprehension(expr: Extract<Expr, { k: 'comprehension' }>, vars: Variables): CelValue {
  const range = evaluate(expr.range, vars);
  const pairs: [CelValue, CelValue][] = [];
  if (isList(range)) range.forEach((item, i) => pairs.push([BigInt(i), item]));
  else if (isMap(range)) for (const [key, value] of range) pairs.push([key, value]);
  else throw noOverload(expr.kind, [range]);
  const scope = new Map(vars);
  const step = (first: CelValue, second: CelValue, body: Expr): CelValue => {
    if (expr.vars.length === 2) {
      scope.set(expr.vars[0] ?? '', first);
      scope.set(expr.vars[1] ?? '', second);
    } else {
      scope.set(expr.vars[0] ?? '', isList(range) ? second : first);
    }
    return evaluate(body, scope);
  };
  switch (expr.kind) {
    case 'all':
    case 'exists': {
      const decisive = expr.kind === 'exists';
      let pending: unknown;
      for (const [first, second] of pairs) {
        let result: CelValue;
        try {
          result = step(first, second, expr.step);
        } catch (error) {
          if (!(error instanceof CelEvalError)) throw error;
          pending ??= error;
          continue;
        }
        if (typeof result !== 'boolean') throw noOverload(expr.kind, [result]);
        if (result === decisive) return decisive;
      }
      if (pending !== undefined) throw pending;
      return !decisive;
    }
    case 'exists_one': {
      let count = 0;
      for (const [first, second] of pairs) {
        const result = step(first, second, expr.step);
        if (typeof result !== 'boolean') throw noOverload('exists_one', [result]);
        if (result) count++;
      }
      return count === 1;
    }
    case 'filter': {
      const kept: CelValue[] = [];
      for (const [first, second] of pairs) {
        const result = step(first, second, expr.step);
        if (typeof result !== 'boolean') throw noOverload('filter', [result]);
        if (result) kept.push(isList(range) && expr.vars.length === 1 ? second : first);
      }
      return kept;
    }
    case 'map': {
      const out: CelValue[] = [];
      for (const [first, second] of pairs) {
        if (expr.filter !== undefined) {
          const keep = step(first, second, expr.filter);
          if (typeof keep !== 'boolean') throw noOverload('map', [keep]);
          if (!keep) continue;
        }
        out.push(step(first, second, expr.step));
      }
      return out;
    }
  }
}
