/**
 * Short forms of the storage kinds, as Orkestra defines them (`pkg/types/types_pvc.go`):
 * `persistentVolumeClaims` (namespaced) and `persistentVolumes` (cluster-scoped).
 *
 * Orkestra requires a `name` on both; katalog gives them defaults like its other kinds: `<cr>-pvc`, and for the
 * cluster-scoped PersistentVolume `<namespace>-<cr>-pv`, so two custom resources of one name in different
 * namespaces never claim the same volume.
 */
import type { KindBuilder } from './kind-builder.js';
import { compact, deepMerge, defaultClusterName, defaultName, manifestError, metadataOf, ShortForm } from './short-form.js';

const DEFAULT_ACCESS_MODES = ['ReadWriteOnce'];

function accessModesOf(form: ShortForm): string[] {
  return form.stringList('accessModes') ?? DEFAULT_ACCESS_MODES;
}

function withOverride(spec: Record<string, unknown>, form: ShortForm): Record<string, unknown> {
  const override = form.map('spec');
  return override === undefined ? spec : deepMerge(spec, override);
}

export const persistentVolumeClaimsBuilder: KindBuilder = {
  produces: { apiVersion: 'v1', kind: 'PersistentVolumeClaim' },
  fields: ['storage', 'storageClassName', 'accessModes', 'volumeMode', 'volumeName', 'selector', 'spec'],
  build(body, context) {
    const form = new ShortForm(body);
    const spec = compact({
      accessModes: accessModesOf(form),
      storageClassName: form.string('storageClassName'),
      volumeMode: form.string('volumeMode'),
      volumeName: form.string('volumeName'),
      selector: form.map('selector'),
      resources: { requests: { storage: form.requiredString('storage', 'persistentVolumeClaims') } },
    });
    return { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: metadataOf(form, defaultName(context, 'pvc')), spec: withOverride(spec, form) };
  },
};

/** The volume source of a PersistentVolume: `hostPath`, or `csiDriver` with `csiVolumeHandle` (exclusive). */
function volumeSourceOf(form: ShortForm): Record<string, unknown> {
  const hostPath = form.string('hostPath');
  const driver = form.string('csiDriver');
  const handle = form.string('csiVolumeHandle');
  if (hostPath !== undefined && (driver !== undefined || handle !== undefined)) throw manifestError('"hostPath" and "csiDriver"/"csiVolumeHandle" exclude each other');
  if (hostPath !== undefined) return { hostPath: { path: hostPath } };
  if (driver !== undefined || handle !== undefined) {
    if (driver === undefined || handle === undefined) throw manifestError('"csiDriver" and "csiVolumeHandle" go together');
    return { csi: { driver, volumeHandle: handle } };
  }
  return {};
}

export const persistentVolumesBuilder: KindBuilder = {
  produces: { apiVersion: 'v1', kind: 'PersistentVolume' },
  fields: ['capacity', 'storageClassName', 'accessModes', 'reclaimPolicy', 'volumeMode', 'hostPath', 'csiDriver', 'csiVolumeHandle', 'spec'],
  build(body, context) {
    const form = new ShortForm(body);
    const metadata = metadataOf(form, defaultClusterName(context, 'pv'));
    delete metadata.namespace; // cluster-scoped: Orkestra ignores the namespace too
    const spec = compact({
      capacity: { storage: form.requiredString('capacity', 'persistentVolumes') },
      accessModes: accessModesOf(form),
      persistentVolumeReclaimPolicy: form.string('reclaimPolicy') ?? 'Retain',
      storageClassName: form.string('storageClassName'),
      volumeMode: form.string('volumeMode'),
      ...volumeSourceOf(form),
    });
    return { apiVersion: 'v1', kind: 'PersistentVolume', metadata, spec: withOverride(spec, form) };
  },
};
