/**
 * Admission of PATCH (merge, JSON, strategic) and server-side apply, as kube-apiserver does it: the patch is applied
 * to the stored object first, and the webhooks see the patched object, as an UPDATE (or a CREATE, for an apply that
 * creates the object), with the stored object as `oldObject`. What the mutating webhooks make of it is what is
 * stored; the validating webhooks see it after the write's own checks.
 *
 * The patch is computed twice: once to learn the patched object (a dry run), once to store it. When the stored
 * object changed in between (another write while the webhooks were called: its resourceVersion moved, or it was
 * created or deleted), the whole admission is run again on the new state, as kube-apiserver's update loop retries
 * on a conflict; after a few tries the request fails with 409. The two results are not compared: an apply stamps
 * its managed fields with the current second, so they differ whenever the webhooks' round trip crosses one.
 */
import type { Cluster } from '../cluster.js';
import type { PatchOptions, PatchResult } from '../operations/patch.js';
import type { ResourceView } from '../resources/resource-type.js';
import { conflict } from '../status-errors.js';
import type { KubeObject } from '../store/record.js';
import { admitWrite, hasAdmission, type AdmittedWrite } from './admit.js';

const ATTEMPTS = 5;

/** The stored object's resourceVersion, or undefined when there is none (an apply that creates it). */
function versionOf(object: KubeObject | undefined): unknown {
  return (object?.['metadata'] as { resourceVersion?: unknown } | undefined)?.resourceVersion;
}

/** The store changed between the dry run and the write: admission must see the new patched object. */
class StalePatch extends Error {}

export interface PatchAdmission {
  readonly view: ResourceView;
  readonly namespace: string;
  readonly name: string;
  readonly subresource: 'status' | undefined;
  readonly dryRun: boolean;
  /** What the request set of its PatchOptions that UpdateOptions (or CreateOptions) have (AdmissionWrite's). */
  readonly options: Readonly<Record<string, unknown>>;
  /** The stored object as the client would read it, or undefined when an apply creates it. Read again per attempt. */
  readonly oldObject: () => KubeObject | undefined;
}

/** The patch, run under admission; `run` carries out the patch with the options given (see patchObject). */
export async function admitPatch(
  cluster: Cluster,
  request: PatchAdmission,
  run: (options: Pick<PatchOptions, 'dryRun' | 'replace' | 'managedFields'>) => PatchResult,
): Promise<AdmittedWrite & { readonly created: boolean }> {
  if (!hasAdmission(cluster, { key: request.view.type.key, namespace: request.namespace })) {
    const result = run({ dryRun: request.dryRun });
    return { record: result.record, warnings: [], created: result.created };
  }
  for (let attempt = 1; ; attempt++) {
    const oldObject = request.oldObject();
    let patched: KubeObject | undefined;
    const preview = run({
      dryRun: true,
      replace: (object) => {
        patched = structuredClone(object);
        return object;
      },
    });
    if (patched === undefined) throw new Error('katalog/testing: the patch produced no object to admit');
    const seen = patched;
    let created = preview.created;
    try {
      const admitted = await admitWrite(
        cluster,
        {
          operation: preview.created ? 'CREATE' : 'UPDATE',
          view: request.view,
          namespace: request.namespace,
          name: request.name,
          subresource: request.subresource,
          object: structuredClone(seen),
          oldObject,
          dryRun: request.dryRun,
          options: request.options,
        },
        (object, dryRun, managedFields) => {
          const result = run({
            dryRun,
            ...(managedFields === undefined ? {} : { managedFields }),
            replace: (candidate) => {
              if (versionOf(request.oldObject()) !== versionOf(oldObject)) throw new StalePatch();
              return object ?? candidate;
            },
          });
          created = result.created;
          return result.record;
        },
      );
      return { ...admitted, created };
    } catch (error) {
      if (!(error instanceof StalePatch)) throw error;
      if (attempt >= ATTEMPTS) throw conflict(request.view.type, request.name, 'the object kept changing while the admission webhooks were called; try again');
    }
  }
}
