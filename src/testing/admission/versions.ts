/**
 * The versions admission works in, as kube-apiserver chooses them for a custom resource served in several versions.
 * A request is admitted in the version the client wrote in (its `requestKind`); a webhook or policy whose rules name
 * that version is sent the object in it. Under `matchPolicy: Equivalent` (the default) a rule that names another
 * served version of the same resource matches too, and that webhook or policy gets the object converted to the
 * version its rule names (`kind` and `resource` say which; `requestKind` still says the client's). Conversion is the
 * CRD's: the apiVersion rewritten (`None`) or a call of its conversion webhook (`Webhook`), then pruned to the
 * version's schema (resources/version-forms.ts), as kube-apiserver's VersionedAttributes convert it (the number of conversion calls differs: see docs/testing.md).
 */
import type { Cluster } from '../cluster.js';
import { conversionOf, convertObjects } from '../conversion/converted-views.js';
import { apiVersionOf } from '../resources/resource-type.js';
import type { KubeObject } from '../store/record.js';
import type { AdmissionWrite } from './admit.js';
import { decodedMutation, reviewForm } from './review-object.js';

/** The version the client wrote in: a write is held at it. */
export function requestVersionOf(request: AdmissionWrite): string {
  return request.view.version;
}

/**
 * The versions a rule may match the request in, the request's first: under Equivalent, the other served versions of
 * a custom resource (built-in kinds are served in one version here, and a Scale or Eviction is its own kind).
 */
export function candidateVersions(request: AdmissionWrite, matchPolicy: unknown): string[] {
  const own = requestVersionOf(request);
  if (matchPolicy === 'Exact' || request.kind !== undefined || request.view.type.builtin) return [own];
  return [own, ...request.view.type.versions.map((version) => version.name).filter((name) => name !== own)];
}

/**
 * `object` (held at `request.view`'s version, as the write holds it) in `version`: itself when it is there, else
 * converted as the CRD converts. A conversion webhook's failure is its 500.
 */
export async function atVersion(cluster: Cluster, request: AdmissionWrite, object: KubeObject | undefined, version: string): Promise<KubeObject | undefined> {
  if (object === undefined || version === request.view.version) return object;
  return convertedTo(cluster, request, object, apiVersionOf(request.view.type.group, version));
}

/** A held object in its review form at `version`, in review form there. */
export async function reviewedAt(cluster: Cluster, request: AdmissionWrite, object: KubeObject | undefined, version: string): Promise<KubeObject | undefined> {
  const converted = await atVersion(cluster, request, object, version);
  return converted === undefined || converted === object ? converted : reviewForm(request, converted, version);
}

/** `object` at `version` (a mutating webhook's result) back at the version the write holds. */
export async function heldVersion(cluster: Cluster, request: AdmissionWrite, object: KubeObject, version: string): Promise<KubeObject> {
  if (version === request.view.version) return object;
  return convertedTo(cluster, request, object, request.view.apiVersion);
}

async function convertedTo(cluster: Cluster, request: AdmissionWrite, object: KubeObject, apiVersion: string): Promise<KubeObject> {
  const conversion = conversionOf(cluster, request.view.type);
  if (conversion === undefined) return { ...object, apiVersion };
  const [converted] = await convertObjects(conversion, [object], apiVersion);
  return converted ?? object;
}

/**
 * A mutation's document (a webhook's patch or a policy's, applied at `version`) as the write holds it: converted back
 * when it was made at another version, then decoded and defaulted (decodedMutation; a document that is no object is
 * its 500, and so is, with `strict`, a field the kind does not declare).
 */
export async function mutationHeld(cluster: Cluster, request: AdmissionWrite, patched: unknown, version: string, strict = false): Promise<KubeObject> {
  if (version === request.view.version || typeof patched !== 'object' || patched === null || Array.isArray(patched)) return decodedMutation(request, patched, strict);
  return decodedMutation(request, await heldVersion(cluster, request, patched as KubeObject, version), strict);
}
