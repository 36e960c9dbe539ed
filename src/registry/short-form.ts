/**
 * Reading the fields of a rendered short form. A rendered value may be of any JSON type (a single-action template
 * keeps its type), so every reader states what it accepts: empty values (missing, `null`, `""`) mean "use the
 * default", numbers written as strings are accepted where a number is expected, and anything else that does not
 * fit is an error naming the field.
 */
import { KatalogError } from '../errors.js';
import type { KubeObject } from '../kube/resource.js';
import type { BuildContext } from './kind-builder.js';

type Body = Readonly<Record<string, unknown>>;

/** A manifest could not be built from a short form. */
export function manifestError(message: string): KatalogError {
  return new KatalogError('E_MANIFEST', message);
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

export function isPlainMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What kind of value a field holds, for error messages: never the value itself, which comes from a custom
 * resource and must not reach a status message, a log line or the inspection API.
 */
export function describeKind(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  if (typeof value === 'string') return `a text (${value.length} characters)`;
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a fractional number';
  return typeof value === 'object' ? 'a map' : `a ${typeof value}`;
}

/** A scalar as text: strings as they are, numbers and booleans printed. */
export function scalarText(value: unknown, field: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw manifestError(`"${field}" must be a string, got ${describeKind(value)}`);
}

/** Typed access to the fields of one rendered body. */
export class ShortForm {
  constructor(private readonly body: Body) {}

  has(field: string): boolean {
    return !isEmpty(this.body[field]);
  }

  raw(field: string): unknown {
    const value = this.body[field];
    return isEmpty(value) ? undefined : value;
  }

  string(field: string): string | undefined {
    const value = this.raw(field);
    return value === undefined ? undefined : scalarText(value, field);
  }

  requiredString(field: string, kind: string): string {
    const value = this.string(field);
    if (value === undefined) throw manifestError(`${kind} need "${field}"`);
    return value;
  }

  /** An integer, from a number or a numeric string. */
  integer(field: string): number | undefined {
    const value = this.raw(field);
    if (value === undefined) return undefined;
    const number = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;
    if (typeof number !== 'number' || !Number.isInteger(number)) throw manifestError(`"${field}" must be an integer, got ${describeKind(value)}`);
    return number;
  }

  /** A port: an integer, or a named port (a string that is not a number). */
  port(field: string): number | string | undefined {
    const value = this.raw(field);
    if (typeof value === 'string' && !/^\d+$/.test(value.trim())) return value;
    return this.integer(field);
  }

  boolean(field: string): boolean | undefined {
    const value = this.raw(field);
    if (value === undefined) return undefined;
    if (typeof value === 'boolean') return value;
    if (value === 'true' || value === 'false') return value === 'true';
    throw manifestError(`"${field}" must be true or false, got ${describeKind(value)}`);
  }

  /** A map whose values become strings (labels, annotations, ConfigMap data). */
  stringMap(field: string): Record<string, string> | undefined {
    const value = this.raw(field);
    if (value === undefined) return undefined;
    if (!isPlainMap(value)) throw manifestError(`"${field}" must be a map, got ${describeKind(value)}`);
    const out: Record<string, string> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined || item === null) continue;
      out[key] = typeof item === 'object' ? JSON.stringify(item) : scalarText(item, `${field}.${key}`);
    }
    return out;
  }

  map(field: string): Record<string, unknown> | undefined {
    const value = this.raw(field);
    if (value === undefined) return undefined;
    if (!isPlainMap(value)) throw manifestError(`"${field}" must be a map, got ${describeKind(value)}`);
    return value;
  }

  list(field: string): unknown[] | undefined {
    const value = this.raw(field);
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) throw manifestError(`"${field}" must be a list, got ${describeKind(value)}`);
    return value;
  }

  /** A list of strings (`command`, `args`); a single string is a list of one. */
  stringList(field: string): string[] | undefined {
    const value = this.raw(field);
    if (value === undefined) return undefined;
    const items = Array.isArray(value) ? value : [value];
    return items.map((item, index) => scalarText(item, `${field}[${index}]`));
  }
}

/** Drops undefined properties, so that a manifest holds only what was set. */
export function compact<T extends Record<string, unknown>>(value: T): T {
  for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key];
  return value;
}

/**
 * Deep-merges `override` into `base`: maps merge key by key, anything else (lists included) replaces. Used for the
 * `spec` escape hatch of short forms.
 */
export function deepMerge(base: Record<string, unknown>, override: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const current = out[key];
    out[key] = isPlainMap(current) && isPlainMap(value) ? deepMerge(current, value) : value;
  }
  return out;
}

/** The metadata of a short form: name (or the default), labels and annotations as written. */
export function metadataOf(form: ShortForm, defaultName: string): NonNullable<KubeObject['metadata']> {
  const metadata: NonNullable<KubeObject['metadata']> = { name: form.string('name') ?? defaultName };
  const namespace = form.string('namespace');
  const labels = form.stringMap('labels');
  const annotations = form.stringMap('annotations');
  if (namespace !== undefined) metadata.namespace = namespace;
  if (labels !== undefined) metadata.labels = labels;
  if (annotations !== undefined) metadata.annotations = annotations;
  return metadata;
}

/** `<parent>-<suffix>`: the default name of a namespaced child. */
export function defaultName(context: BuildContext, suffix: string): string {
  return suffix === '' ? context.parent.name : `${context.parent.name}-${suffix}`;
}

/**
 * The default name of a cluster-scoped child: prefixed with the parent's namespace, so that two custom resources of
 * the same name in different namespaces do not claim the same cluster-wide name.
 */
export function defaultClusterName(context: BuildContext, suffix: string): string {
  const base = context.parent.namespace === undefined ? context.parent.name : `${context.parent.namespace}-${context.parent.name}`;
  return suffix === '' ? base : `${base}-${suffix}`;
}
