/**
 * Checks a value against a TypeBox (JSON) schema and reports every mismatch as a problem with a message written
 * for people: unknown fields with the nearest known name, missing fields, wrong types, values outside an enum.
 * Returns a cleaned copy that holds only what matched (unknown fields and wrong-typed values are left out, list
 * items that do not match become `undefined` so indices stay aligned), so that later steps can trust the types.
 *
 * Supported keywords (what our schemas use): type, properties, required, additionalProperties,
 * patternProperties, propertyNames, items, anyOf, enum, const, minLength, maxLength, pattern, minimum, and our
 * own `x-check` (`duration`, `crd-name`). Objects in the cleaned copy have no prototype, so a missing
 * `constructor` key reads as `undefined`.
 */
import { parseDuration } from '../util/duration.js';
import { describeObject, type Path } from './path.js';
import { ProblemList, type Origin } from './problems.js';
import { didYouMean, nearest } from './suggest.js';

type Schema = Readonly<Record<string, unknown>>;

interface Context {
  readonly problems: ProblemList;
  readonly origin: Origin;
}

const CRD_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Checks `value` at `path` of the document `origin`; problems go to `problems`. `undefined` = nothing usable. */
export function checkSchema(schema: object, value: unknown, path: Path, problems: ProblemList, origin: Origin): unknown {
  return check(schema as Schema, value, path, { problems, origin });
}

/** `true` for a map (a plain object, from YAML or JSON). */
export function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short description of a value for "got ..." in messages. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
  return String(value);
}

function check(schema: Schema, value: unknown, path: Path, ctx: Context): unknown {
  if (value === undefined) return undefined;
  if (Array.isArray(schema.anyOf)) return checkUnion(schema, schema.anyOf as Schema[], value, path, ctx);
  if (Array.isArray(schema.enum)) return checkEnum(schema.enum, value, path, ctx);
  if (schema.const !== undefined) return checkEnum([schema.const], value, path, ctx);
  switch (schema.type) {
    case 'object':
      return checkObject(schema, value, path, ctx);
    case 'array':
      return checkArray(schema, value, path, ctx);
    case 'string':
      return checkString(schema, value, path, ctx);
    case 'integer':
    case 'number':
      return checkNumber(schema, value, path, ctx);
    case 'boolean':
      if (typeof value === 'boolean') return value;
      ctx.problems.add(ctx.origin, path, 'invalid-type', `must be true or false, got ${describeValue(value)}`);
      return undefined;
    default:
      return freeForm(value, path, ctx);
  }
}

/** JSON types a schema accepts, for choosing a union branch and for "must be a string or a map". */
function acceptedTypes(schema: Schema): string[] {
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Schema[]).flatMap(acceptedTypes);
  const values = Array.isArray(schema.enum) ? schema.enum : schema.const !== undefined ? [schema.const] : undefined;
  if (values !== undefined) return [...new Set(values.map(jsonType))];
  if (typeof schema.type === 'string') return [schema.type === 'integer' ? 'number' : schema.type];
  return ['string', 'number', 'boolean', 'array', 'object', 'null'];
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

const TYPE_WORDS: Readonly<Record<string, string>> = { string: 'a string', number: 'a number', boolean: 'true or false', array: 'a list', object: 'a map', null: 'null' };

function checkUnion(schema: Schema, branches: readonly Schema[], value: unknown, path: Path, ctx: Context): unknown {
  const constants = branches.every((b) => Array.isArray(b.enum) || b.const !== undefined);
  if (constants) return checkEnum(branches.flatMap((b) => (Array.isArray(b.enum) ? b.enum : [b.const])), value, path, ctx);
  const type = jsonType(value);
  const candidates = branches.filter((b) => acceptedTypes(b).includes(type));
  if (candidates.length === 0) {
    const words = [...new Set(acceptedTypes(schema))].map((t) => TYPE_WORDS[t] ?? t);
    ctx.problems.add(ctx.origin, path, 'invalid-type', `must be ${words.join(' or ')}, got ${describeValue(value)}`);
    return undefined;
  }
  let best: { result: unknown; problems: ProblemList } | undefined;
  for (const branch of candidates) {
    const problems = new ProblemList();
    const result = check(branch, value, path, { problems, origin: ctx.origin });
    if (problems.size === 0) return result;
    if (best === undefined || problems.size < best.problems.size) best = { result, problems };
  }
  if (best !== undefined) ctx.problems.push(...best.problems.items);
  return best?.result;
}

function checkEnum(allowed: readonly unknown[], value: unknown, path: Path, ctx: Context): unknown {
  if (allowed.includes(value)) return value;
  const list = allowed.map((a) => JSON.stringify(a)).join(', ');
  const suggestion = typeof value === 'string' ? nearest(value, allowed.filter((a): a is string => typeof a === 'string')) : undefined;
  ctx.problems.add(ctx.origin, path, 'invalid-value', `must be one of ${list}, got ${describeValue(value)}${didYouMean(suggestion)}`, {
    ...(suggestion === undefined ? {} : { suggestion }),
  });
  return undefined;
}

function checkObject(schema: Schema, value: unknown, path: Path, ctx: Context): unknown {
  if (!isMap(value)) {
    ctx.problems.add(ctx.origin, path, 'invalid-type', `must be a map, got ${describeValue(value)}`);
    return undefined;
  }
  const properties = (schema.properties ?? {}) as Readonly<Record<string, Schema>>;
  const patterns = Object.entries((schema.patternProperties ?? {}) as Readonly<Record<string, Schema>>);
  const additional = schema.additionalProperties;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const keyNames = isMap(schema.propertyNames) ? (schema.propertyNames as Schema) : undefined;
  const result: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    const child = [...path, key];
    if (key === '__proto__') {
      ctx.problems.add(ctx.origin, child, 'invalid-key', 'the key "__proto__" is not allowed', { at: 'key' });
      continue;
    }
    if (keyNames !== undefined) checkString(keyNames, key, child, ctx, 'key');
    const item = value[key];
    let cleaned: unknown;
    if (Object.hasOwn(properties, key)) {
      if (item === null && !required.has(key)) continue; // `field:` with no value reads as "not set"
      cleaned = check(properties[key] ?? {}, item, child, ctx);
    } else {
      const pattern = patterns.find(([regex]) => new RegExp(regex, 'u').test(key));
      if (pattern !== undefined) cleaned = check(pattern[1], item, child, ctx);
      else if (additional === false) {
        const suggestion = nearest(key, Object.keys(properties));
        ctx.problems.add(ctx.origin, child, 'unknown-field', `unknown field "${key}" in ${describe(schema, path, value)}${didYouMean(suggestion)}`, {
          at: 'key',
          ...(suggestion === undefined ? {} : { suggestion }),
        });
        continue;
      } else if (isMap(additional)) cleaned = check(additional as Schema, item, child, ctx);
      else cleaned = freeForm(item, child, ctx);
    }
    if (cleaned !== undefined) result[key] = cleaned;
  }
  for (const key of required) {
    if (value[key] === undefined || value[key] === null) {
      ctx.problems.add(ctx.origin, [...path, key], 'missing-field', `missing required field "${key}" in ${describe(schema, path, value)}`);
    }
  }
  return result;
}

/** How messages name an object: `operatorBox`, `deployments[0]`; CRD entries as `CRD "web"`. */
function describe(schema: Schema, path: Path, value: Record<string, unknown>): string {
  const last = path[path.length - 1];
  if (schema['x-describe'] === 'crd') {
    const name = typeof last === 'string' ? last : value.name;
    return typeof name === 'string' ? `CRD "${name}"` : `CRD ${describeObject(path)}`;
  }
  return describeObject(path);
}

function checkArray(schema: Schema, value: unknown, path: Path, ctx: Context): unknown {
  if (!Array.isArray(value)) {
    ctx.problems.add(ctx.origin, path, 'invalid-type', `must be a list, got ${describeValue(value)}`);
    return undefined;
  }
  const items = isMap(schema.items) ? (schema.items as Schema) : {};
  return value.map((item: unknown, index) => {
    if (item === null || item === undefined) {
      ctx.problems.add(ctx.origin, [...path, index], 'invalid-type', `list item must not be empty`);
      return undefined;
    }
    return check(items, item, [...path, index], ctx);
  });
}

function checkString(schema: Schema, value: unknown, path: Path, ctx: Context, at: 'key' | 'value' = 'value'): unknown {
  if (typeof value !== 'string') {
    ctx.problems.add(ctx.origin, path, 'invalid-type', `must be a string, got ${describeValue(value)}`);
    return undefined;
  }
  const named = schema['x-check'];
  if (named === 'duration') {
    const ms = parseDuration(value);
    // Zero is a valid duration: for resync it turns the periodic resync off.
    if (ms === undefined) {
      ctx.problems.add(ctx.origin, path, 'invalid-duration', `invalid duration "${value}": expected a Go duration such as "30s", "1m30s" or "2h"`);
      return undefined;
    }
    return value;
  }
  if (named === 'crd-name') {
    if (!CRD_NAME.test(value) || value.length > 63) {
      ctx.problems.add(
        ctx.origin,
        path,
        'invalid-name',
        `invalid CRD name "${value}": must be a lowercase RFC 1123 label (a-z, 0-9 and "-", starting and ending with a letter or digit, at most 63 characters)`,
        { at },
      );
      return undefined;
    }
    return value;
  }
  if (typeof schema.minLength === 'number' && value.length < schema.minLength) {
    ctx.problems.add(ctx.origin, path, 'invalid-value', 'must not be empty', { at });
    return undefined;
  }
  if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) {
    ctx.problems.add(ctx.origin, path, 'invalid-value', `must be at most ${schema.maxLength} characters long`, { at });
    return undefined;
  }
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) {
    ctx.problems.add(ctx.origin, path, 'invalid-value', `must match ${schema.pattern}, got ${describeValue(value)}`, { at });
    return undefined;
  }
  return value;
}

function checkNumber(schema: Schema, value: unknown, path: Path, ctx: Context): unknown {
  const integer = schema.type === 'integer';
  if (typeof value !== 'number' || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    ctx.problems.add(ctx.origin, path, 'invalid-type', `must be ${integer ? 'an integer' : 'a number'}, got ${describeValue(value)}`);
    return undefined;
  }
  if (typeof schema.minimum === 'number' && value < schema.minimum) {
    ctx.problems.add(ctx.origin, path, 'invalid-value', `must be at least ${schema.minimum}, got ${value}`);
    return undefined;
  }
  return value;
}

/** Free-form values (template bodies, Motif inputs) are copied as they are, refusing only `__proto__` keys. */
function freeForm(value: unknown, path: Path, ctx: Context): unknown {
  if (Array.isArray(value)) return value.map((item: unknown, index) => freeForm(item, [...path, index], ctx));
  if (!isMap(value)) return value;
  const result: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    if (key === '__proto__') {
      ctx.problems.add(ctx.origin, [...path, key], 'invalid-key', 'the key "__proto__" is not allowed', { at: 'key' });
      continue;
    }
    result[key] = freeForm(value[key], [...path, key], ctx);
  }
  return result;
}
