/**
 * A CRD entry's `conversion` (Orkestra's `CRDConversion`, docs/orkestra-compatibility.md#conversion) in the frozen
 * model: the explicit paths the conversion webhook router answers ConversionReviews with.
 */

/** One declared direction: an object at `from` becomes an object at `to` whose `spec` is `spec` rendered. */
export interface ConversionPath {
  /** Bare versions (`v1alpha1`), never a whole apiVersion. */
  readonly from: string;
  readonly to: string;
  /**
   * The target version's whole `spec`: string leaves with actions are templates rendered against the source
   * object (a single action keeps the type of its value), other leaves are copied.
   */
  readonly spec: Readonly<Record<string, unknown>>;
}

export interface CrdConversion {
  /** The version objects are stored as; required when paths are declared. */
  readonly storageVersion: string | undefined;
  /** Declared order; one path per (from, to) pair. Empty for a participant. */
  readonly paths: readonly ConversionPath[];
  /** Orkestra's marker for the version whose paths another entry declares (console statistics only). */
  readonly participant: boolean;
  /** Orkestra's `updateCRD` (patch the CRD's caBundle at start): carried; katalog writes the CA when installing CRDs. */
  readonly updateCrd: boolean;
}
