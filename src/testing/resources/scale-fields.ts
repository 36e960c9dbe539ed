/**
 * Reading a custom resource's scale paths (`.spec.replicas`) as apimachinery's unstructured accessors read them
 * (`NestedFieldNoCopy`, `NestedInt64`, with their errors in Go's words), and what its validation says of them.
 */
import type { ScaleSubresource } from './resource-type.js';
import type { FieldProblem } from '../status-errors.js';
import { isJsonObject } from '../patch/json-value.js';
import type { KubeObject } from '../store/record.js';

/** The fields of a simple JSON path (`.spec.replicas` → `spec`, `replicas`). */
export function pathOf(jsonPath: string): string[] {
  return jsonPath.replace(/^\./, '').split('.');
}

/** Go's `%T` of a JSON value as unstructured content holds it. */
function goType(value: unknown): string {
  if (value === null) return '<nil>';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  return Array.isArray(value) ? '[]interface {}' : 'map[string]interface {}';
}

/** Go's `%v` of a JSON value (plain values; a map or list as JSON, where Go writes `map[...]`). */
function goValue(value: unknown): string {
  if (value === null) return '<nil>';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A value at a simple path, as apimachinery's `NestedFieldNoCopy` reads it: the value, absent, or why not. */
export function nestedValue(object: KubeObject, jsonPath: string): { found: boolean; value: unknown; error?: string } {
  const fields = pathOf(jsonPath);
  let current: unknown = object;
  for (let i = 0; i < fields.length; i++) {
    // A null on the way is an absent field; another value is an error named by the path up to the field asked of it.
    if (current === null) return { found: false, value: undefined };
    if (!isJsonObject(current)) {
      const at = `.${fields.slice(0, i + 1).join('.')}`;
      return { found: false, value: undefined, error: `${at} accessor error: ${goValue(current)} is of the type ${goType(current)}, expected map[string]interface{}` };
    }
    const field = fields[i] ?? '';
    if (!Object.hasOwn(current, field)) return { found: false, value: undefined };
    current = current[field];
  }
  return { found: true, value: current };
}

/** apimachinery's accessor error for a value of another type than the one asked. */
function typeError(jsonPath: string, value: unknown, expected: string): string {
  return `${jsonPath.startsWith('.') ? jsonPath : `.${jsonPath}`} accessor error: ${goValue(value)} is of the type ${goType(value)}, expected ${expected}`;
}

/** apimachinery's `NestedInt64`: an integer at the path, 0 when absent, or the accessor error. */
export function nestedInt(object: KubeObject, jsonPath: string): { found: boolean; value: number; error?: string } {
  const read = nestedValue(object, jsonPath);
  if (read.error !== undefined) return { found: false, value: 0, error: read.error };
  if (!read.found) return { found: false, value: 0 };
  if (typeof read.value === 'number' && Number.isInteger(read.value)) return { found: true, value: read.value };
  return { found: true, value: 0, error: typeError(jsonPath, read.value, 'int64') };
}

/** apimachinery's `NestedString`: a string at the path, `''` when absent, or the accessor error. */
export function nestedString(object: KubeObject, jsonPath: string): { found: boolean; value: string; error?: string } {
  const read = nestedValue(object, jsonPath);
  if (read.error !== undefined) return { found: false, value: '', error: read.error };
  if (!read.found) return { found: false, value: '' };
  if (typeof read.value === 'string') return { found: true, value: read.value };
  return { found: true, value: '', error: typeError(jsonPath, read.value, 'string') };
}

const MAX_INT32 = 2147483647;

function replicasProblems(object: KubeObject, jsonPath: string): FieldProblem[] {
  const read = nestedInt(object, jsonPath);
  if (read.error !== undefined) return [{ field: jsonPath, message: `Invalid value: 0: ${read.error}` }];
  if (read.value < 0) return [{ field: jsonPath, message: `Invalid value: ${read.value}: should be a non-negative integer` }];
  if (read.value > MAX_INT32) return [{ field: jsonPath, message: `Invalid value: ${read.value}: should be less than or equal to ${MAX_INT32}` }];
  return [];
}

/**
 * What a custom resource's validation says of its scale paths (`ValidateScaleSpec`, `ValidateScaleStatus`): the
 * replicas are integers from 0 to 2^31-1 and the label selector a string, each problem under the path as the CRD
 * wrote it (`.spec.replicas`). A write of `/status` checks the status paths only.
 */
export function scaleFieldProblems(scale: ScaleSubresource, object: KubeObject, subresource: 'status' | undefined): FieldProblem[] {
  const problems = subresource === 'status' ? [] : replicasProblems(object, scale.specReplicasPath);
  problems.push(...replicasProblems(object, scale.statusReplicasPath));
  if (scale.selector !== undefined) {
    const { error } = nestedString(object, scale.selector.path);
    if (error !== undefined) problems.push({ field: scale.selector.path, message: `Invalid value: "": ${error}` });
  }
  return problems;
}
