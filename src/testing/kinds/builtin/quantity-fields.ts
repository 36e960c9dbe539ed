/**
 * The quantities of built-in kinds as kube-apiserver's decoder leaves them (src/util/quantity.ts): written in their
 * canonical form, and in resource lists (a container's requests and limits, a claim's, a quota's, a limit range's)
 * rounded up to a thousandth first (Go's SetDefaults_ResourceList). A value that is not a quantity fails the request
 * with 400 before anything else, as kube-apiserver's decoder does.
 */
import { formatQuantity, parseQuantity, QUANTITY_FORMAT_ERROR, quantityText, roundUpQuantity } from '../../../util/quantity.js';
import { StatusError } from '../../status-errors.js';
import { objectAt, type Json } from './fields.js';

/** The milli scale resource lists are rounded up to. */
const MILLI = -3;

/** kube-apiserver's 400 for a body its decoder cannot read. */
function undecodable(kind: string, detail: string): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${kind} in version "v1" cannot be handled as a ${kind}: ${detail}`,
    reason: 'BadRequest',
    code: 400,
  });
}

function canonical(value: unknown, kind: string, round: boolean): string {
  const text = quantityText(value);
  const quantity = text === undefined ? undefined : parseQuantity(text);
  if (quantity === undefined) throw undecodable(kind, QUANTITY_FORMAT_ERROR);
  return formatQuantity(round ? roundUpQuantity(quantity, MILLI) : quantity);
}

/** Writes the resource list at `parent[key]` (name → quantity) as kube-apiserver stores it, in place. */
export function canonicalResourceList(parent: Json | undefined, key: string, kind: string): void {
  const list = parent === undefined ? undefined : objectAt(parent, key);
  if (list === undefined) return;
  for (const [name, value] of Object.entries(list)) list[name] = canonical(value, kind, true);
}

/** Writes the single quantity at `parent[key]` (an emptyDir's size limit, a metric target) canonically, in place. */
export function canonicalQuantityAt(parent: Json | undefined, key: string, kind: string): void {
  if (parent === undefined || parent[key] === undefined || parent[key] === null) return;
  parent[key] = canonical(parent[key], kind, false);
}

/** A `resources` object's limits and requests (a container's, a claim's, a pod's own). */
export function canonicalResources(holder: Json | undefined, kind: string): void {
  const resources = holder === undefined ? undefined : objectAt(holder, 'resources');
  canonicalResourceList(resources, 'limits', kind);
  canonicalResourceList(resources, 'requests', kind);
}
