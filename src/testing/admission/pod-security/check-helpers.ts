/**
 * What the Pod Security Standards checks share, after k8s.io/pod-security-admission v0.37.2 policy/checks.go,
 * helpers.go and visitor.go: a check's result, the wording helpers its details are built with, the pod's containers
 * in kube's visiting order, and reads of the pod's JSON in which an absent or null value is Go's nil (or zero value).
 */
import { getOwn, isJsonObject, type JsonObject } from '../../patch/json-value.js';

/** A refusal by one check: its reason, and its detail (empty when it has none). */
export interface CheckResult {
  readonly reason: string;
  readonly detail: string;
}

/** One check: the pod is allowed when it answers `undefined`. */
export type CheckPod = (metadata: JsonObject, spec: JsonObject) => CheckResult | undefined;

/** A registered check (registry.go): its ID, its level, and the baseline checks it stands in for at restricted. */
export interface PodSecurityCheck {
  readonly id: string;
  readonly level: 'baseline' | 'restricted';
  readonly overrides?: readonly string[];
  readonly check: CheckPod;
}

/** The field `key` of `object` when it is a JSON object, or `undefined` (Go's nil pointer) otherwise. */
export function objectField(object: JsonObject | undefined, key: string): JsonObject | undefined {
  if (object === undefined) return undefined;
  const value = getOwn(object, key);
  return isJsonObject(value) ? value : undefined;
}

/** The string field `key` of `object`, or `''` (Go's zero value) when it is absent, null or not a string. */
export function stringField(object: JsonObject | undefined, key: string): string {
  const value = object === undefined ? undefined : getOwn(object, key);
  return typeof value === 'string' ? value : '';
}

/** The items of the list field `key` of `object`, or none when it is absent or null. */
export function listField(object: JsonObject | undefined, key: string): unknown[] {
  const value = object === undefined ? undefined : getOwn(object, key);
  return Array.isArray(value) ? value : [];
}

/** The string field `key` of `object`, or `undefined` (Go's nil `*string`) when it is absent or null. */
export function optionalStringField(object: JsonObject | undefined, key: string): string | undefined {
  const value = object === undefined ? undefined : getOwn(object, key);
  return typeof value === 'string' ? value : undefined;
}

/** The object items of the list field `key` of `object`. */
export function objectsField(object: JsonObject | undefined, key: string): JsonObject[] {
  return listField(object, key).filter(isJsonObject);
}

/** The string items of the list field `key` of `object`. */
export function stringsField(object: JsonObject | undefined, key: string): string[] {
  return listField(object, key).filter((item): item is string => typeof item === 'string');
}

/** The boolean field `key` of `object`, or `undefined` (Go's nil `*bool`) when it is absent or null. */
export function boolField(object: JsonObject | undefined, key: string): boolean | undefined {
  const value = object === undefined ? undefined : getOwn(object, key);
  return typeof value === 'boolean' ? value : undefined;
}

/** The number field `key` of `object`, or `undefined` (Go's nil pointer) when it is absent or null. */
export function numberField(object: JsonObject | undefined, key: string): number | undefined {
  const value = object === undefined ? undefined : getOwn(object, key);
  return typeof value === 'number' ? value : undefined;
}

/** The pod's containers as visitContainers visits them: init containers, containers, then ephemeral containers. */
export function podContainers(spec: JsonObject): JsonObject[] {
  return [...objectsField(spec, 'initContainers'), ...objectsField(spec, 'containers'), ...objectsField(spec, 'ephemeralContainers')];
}

/** A container's name. */
export function containerName(container: JsonObject): string {
  return stringField(container, 'name');
}

/** A container's `securityContext`, or `undefined` when it has none. */
export function securityContext(container: JsonObject): JsonObject | undefined {
  return objectField(container, 'securityContext');
}

/** True when the pod says `os.name: windows`, which several restricted checks let through unchecked. */
export function isWindowsPod(spec: JsonObject): boolean {
  return stringField(objectField(spec, 'os'), 'name') === 'windows';
}

/** relaxPolicyForUserNamespacePod: true when the pod runs in a user namespace (`hostUsers: false`). */
export function inUserNamespace(spec: JsonObject): boolean {
  return boolField(spec, 'hostUsers') === false;
}

/** joinQuote: the items each double-quoted (with no escaping) and joined with `, `. */
export function joinQuote(items: readonly string[]): string {
  return items.length === 0 ? '' : `"${items.join('", "')}"`;
}

/** pluralize: `singular` for a count of one, `plural` otherwise. */
export function pluralize(singular: string, plural: string, count: number): string {
  return count === 1 ? singular : plural;
}

/** `container "a"` or `containers "a", "b"`: the containers named in a detail. */
export function containersPhrase(names: readonly string[]): string {
  return `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;
}

/** Go's byte-wise string order (the UTF-8 order, which is the code point order). */
export function compareGoStrings(a: string, b: string): number {
  const left = Array.from(a, (char) => char.codePointAt(0) ?? 0);
  const right = Array.from(b, (char) => char.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

/** A Go `sets.String`'s `List()`: the distinct values, sorted as Go sorts strings. */
export function sortedSet(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareGoStrings);
}
