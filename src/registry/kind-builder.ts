/**
 * The contract of a template kind: a builder turns the rendered short form of one entry (`deployments: [{ image,
 * replicas }]`) into a full manifest. Builders are pure: same body and context, same manifest; they never talk to
 * the API server. Ownership (owner references, labels) and the namespace are added by the registry afterwards, so
 * a builder only says what the child is.
 */
import type { KubeObject } from '../kube/resource.js';

/** What a builder knows besides the rendered body. */
export interface BuildContext {
  /** The custom resource that declares the child. */
  readonly parent: { readonly name: string; readonly namespace: string | undefined };
  /** The value of the `katalog.dev/owner` label this parent's children carry (default selectors use it). */
  readonly ownerLabel: string;
  /** The entry's document path (`spec.crds.website.operatorBox.onCreate.deployments[0]`), for messages. */
  readonly source: string;
}

/** Turns one rendered short form into a full manifest. */
export interface KindBuilder {
  /**
   * `apiVersion` and `kind` of the manifests this builder produces (`apps/v1`, `Deployment`). Absent for builders
   * whose manifests name their own kind (`resources`).
   */
  readonly produces?: { readonly apiVersion: string; readonly kind: string } | undefined;
  /**
   * The fields of the short form, besides the ones every entry may carry (`name`, `namespace`, `labels`,
   * `annotations`). When given, an entry with any other field is rejected when the CRD activates, with a
   * suggestion. Leave it out to accept anything.
   */
  readonly fields?: readonly string[] | undefined;
  /**
   * Builds the manifest from the rendered body (template actions already evaluated; `reconcile`, `when` and
   * `anyOf` removed). Throws an Error whose message says what is wrong; the registry prefixes the entry's path.
   */
  build(body: Readonly<Record<string, unknown>>, context: BuildContext): KubeObject;
}

/** The fields every template entry may carry, whatever its kind. */
export const COMMON_ENTRY_FIELDS: readonly string[] = Object.freeze(['name', 'namespace', 'labels', 'annotations']);
