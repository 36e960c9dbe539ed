/**
 * Go's `encoding/json` refusal of a JSON value of the wrong type for a typed field, in its words
 * (`json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64`): what
 * kube-apiserver answers (400) for a request body its Go types cannot hold. Pure.
 */

/** A typed field: its path as Go names it in the error (`<Struct>.<json path>`) and its Go type. */
export interface GoField {
  readonly go: string;
  readonly type: 'int32' | 'int64' | 'string' | 'bool' | '[]string' | (string & {});
  /** What JSON value it holds (a named string type such as `types.UID` holds a string; a struct or a map an object). */
  readonly holds: 'int32' | 'int64' | 'string' | 'bool' | 'strings' | 'object';
}

/** How Go's errors name the JSON type of a value (`array`, `object`, `bool`, `number`, `string`). */
export function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  return typeof value === 'boolean' ? 'bool' : typeof value === 'number' ? 'number' : 'string';
}

/** Go's word for a JSON value it cannot put in a field: `number 1.5` for a number a numeric field cannot hold. */
function jsonKind(value: unknown, numeric: boolean): string {
  return typeof value === 'number' && numeric ? `number ${String(value)}` : jsonType(value);
}

function fits(value: unknown, holds: GoField['holds']): boolean {
  switch (holds) {
    case 'int32':
      return typeof value === 'number' && Number.isInteger(value) && value >= -2147483648 && value <= 2147483647;
    case 'int64':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'string':
      return typeof value === 'string';
    case 'bool':
      return typeof value === 'boolean';
    case 'strings':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
}

/** The error for `value` in `field`, or undefined when it fits (null and absent always do: the zero value). */
export function unmarshalProblem(value: unknown, field: GoField): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!fits(value, field.holds)) return `json: cannot unmarshal ${jsonKind(value, field.holds === 'int32' || field.holds === 'int64')} into Go struct field ${field.go} of type ${field.type}`;
  if (field.holds !== 'strings') return undefined;
  const item = (value as unknown[]).find((v) => typeof v !== 'string' && v !== null);
  return item === undefined ? undefined : `json: cannot unmarshal ${jsonKind(item, false)} into Go struct field ${field.go} of type string`;
}

/** kube-apiserver's 400 for a body that is not a JSON object: its decoder first reads apiVersion and kind from it. */
export function notAnObject(value: unknown): string {
  return `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKind(value, false)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`;
}
