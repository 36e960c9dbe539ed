/** What every write carries besides the object. */
import type { ManagedFieldsEntry } from '../patch/index.js';

export interface WriteOptions {
  /** The field manager recorded in managedFields. */
  readonly manager: string;
  /** `dryRun=All`: compute and answer, store nothing. */
  readonly dryRun: boolean;
  /** Receives the warnings the write earns (a CEL rule a ratcheted value fails), for the answer's `Warning` headers. */
  readonly warn?: (warning: string) => void;
}

/** Options of a write whose managedFields were already computed (server-side apply). */
export interface ComputedWriteOptions extends WriteOptions {
  readonly managedFields?: ManagedFieldsEntry[];
  /**
   * The object was made by server-side apply, not decoded from a request body: kube-apiserver's decoder never saw it,
   * so a custom resource's nulls are validated instead of dropped (its defaults are still filled in).
   */
  readonly fromApply?: boolean;
}
