/**
 * The restricted Pod Security Standards checks, as k8s.io/pod-security-admission v0.37.2 runs them at `latest`:
 * policy/check_allowPrivilegeEscalation.go (1.25), check_capabilities_restricted.go (1.25),
 * check_procMount_restricted.go, check_restrictedVolumes.go, check_runAsNonRoot.go (1.35), check_runAsUser.go (1.35)
 * and check_seccompProfile_restricted.go (1.25). Some stand in for a baseline check (`overrides`), which restricted
 * then does not run.
 */
import type { JsonObject } from '../../patch/json-value.js';
import { procMountDefaultOnly } from './checks-baseline.js';
import { badSeccompProfiles } from './checks-profiles.js';
import {
  boolField,
  containerName,
  containersPhrase,
  inUserNamespace,
  isWindowsPod,
  joinQuote,
  numberField,
  objectField,
  objectsField,
  pluralize,
  podContainers,
  securityContext,
  sortedSet,
  stringField,
  stringsField,
  type CheckResult,
  type PodSecurityCheck,
} from './check-helpers.js';

/** The volume sources restricted allows. */
const ALLOWED_VOLUME_SOURCES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'image', 'persistentVolumeClaim', 'projected', 'secret'];

/** The volume sources restricted refuses, in the order kube looks for them to name a volume's type. */
const RESTRICTED_VOLUME_SOURCES = [
  'hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'nfs', 'iscsi', 'glusterfs', 'rbd', 'flexVolume',
  'cinder', 'cephfs', 'flocker', 'fc', 'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk',
  'portworxVolume', 'scaleIO', 'storageos',
];

/** allowPrivilegeEscalation: every container of a pod not for Windows sets `allowPrivilegeEscalation: false`. */
function allowPrivilegeEscalation(_metadata: JsonObject, spec: JsonObject): CheckResult | undefined {
  if (isWindowsPod(spec)) return undefined;
  const names = podContainers(spec)
    .filter((container) => boolField(securityContext(container), 'allowPrivilegeEscalation') !== false)
    .map(containerName);
  if (names.length === 0) return undefined;
  return {
    reason: 'allowPrivilegeEscalation != false',
    detail: `${containersPhrase(names)} must set securityContext.allowPrivilegeEscalation=false`,
  };
}

/** capabilities_restricted: every container of a pod not for Windows drops ALL and adds only NET_BIND_SERVICE. */
function capabilitiesRestricted(_metadata: JsonObject, spec: JsonObject): CheckResult | undefined {
  if (isWindowsPod(spec)) return undefined;
  const missingDropAll: string[] = [];
  const addingForbidden: string[] = [];
  const forbidden: string[] = [];
  for (const container of podContainers(spec)) {
    const capabilities = objectField(securityContext(container), 'capabilities');
    if (!stringsField(capabilities, 'drop').includes('ALL')) missingDropAll.push(containerName(container));
    const added = stringsField(capabilities, 'add').filter((capability) => capability !== 'NET_BIND_SERVICE');
    if (added.length === 0) continue;
    addingForbidden.push(containerName(container));
    forbidden.push(...added);
  }
  const details: string[] = [];
  if (missingDropAll.length > 0) details.push(`${containersPhrase(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  if (addingForbidden.length > 0) {
    details.push(`${containersPhrase(addingForbidden)} must not include ${joinQuote(sortedSet(forbidden))} in securityContext.capabilities.add`);
  }
  return details.length === 0 ? undefined : { reason: 'unrestricted capabilities', detail: details.join('; ') };
}

/** The type restricted names a refused volume by: its first restricted source, or `unknown`. */
function restrictedVolumeType(volume: JsonObject): string {
  return RESTRICTED_VOLUME_SOURCES.find((source) => objectField(volume, source) !== undefined) ?? 'unknown';
}

/** restrictedVolumes: every volume is of an allowed source (this covers hostPathVolumes). */
function restrictedVolumes(_metadata: JsonObject, spec: JsonObject): CheckResult | undefined {
  const refused = objectsField(spec, 'volumes').filter((volume) => !ALLOWED_VOLUME_SOURCES.some((source) => objectField(volume, source) !== undefined));
  if (refused.length === 0) return undefined;
  const names = refused.map((volume) => stringField(volume, 'name'));
  const types = sortedSet(refused.map(restrictedVolumeType));
  return {
    reason: 'restricted volume types',
    detail:
      `${pluralize('volume', 'volumes', names.length)} ${joinQuote(names)} ${pluralize('uses', 'use', names.length)} ` +
      `${pluralize('restricted volume type', 'restricted volume types', types.length)} ${joinQuote(types)}`,
  };
}

/** Who set a forbidden value: `pod` when the pod did, then the containers that did, joined with ` and `. */
function setters(pod: boolean, containers: readonly string[]): string {
  const who = pod ? ['pod'] : [];
  if (containers.length > 0) who.push(containersPhrase(containers));
  return who.join(' and ');
}

/** runAsNonRoot (1.35): outside a user namespace, the pod or every container sets `runAsNonRoot: true`, none false. */
function runAsNonRoot(_metadata: JsonObject, spec: JsonObject): CheckResult | undefined {
  if (inUserNamespace(spec)) return undefined;
  const podValue = boolField(objectField(spec, 'securityContext'), 'runAsNonRoot');
  const explicitlyBad: string[] = [];
  const implicitlyBad: string[] = [];
  for (const container of podContainers(spec)) {
    const value = boolField(securityContext(container), 'runAsNonRoot');
    if (value === false) explicitlyBad.push(containerName(container));
    else if (value === undefined && podValue !== true) implicitlyBad.push(containerName(container));
  }
  const reason = 'runAsNonRoot != true';
  if (podValue === false || explicitlyBad.length > 0) {
    return { reason, detail: `${setters(podValue === false, explicitlyBad)} must not set securityContext.runAsNonRoot=false` };
  }
  if (implicitlyBad.length === 0) return undefined;
  return { reason, detail: `pod or ${containersPhrase(implicitlyBad)} must set securityContext.runAsNonRoot=true` };
}

/** runAsUser (1.35): outside a user namespace, neither the pod nor a container sets `runAsUser: 0`. */
function runAsUser(_metadata: JsonObject, spec: JsonObject): CheckResult | undefined {
  if (inUserNamespace(spec)) return undefined;
  const pod = numberField(objectField(spec, 'securityContext'), 'runAsUser') === 0;
  const containers = podContainers(spec)
    .filter((container) => numberField(securityContext(container), 'runAsUser') === 0)
    .map(containerName);
  if (!pod && containers.length === 0) return undefined;
  return { reason: 'runAsUser=0', detail: `${setters(pod, containers)} must not set runAsUser=0` };
}

/** seccompProfile_restricted (1.25): a pod not for Windows sets RuntimeDefault or Localhost, for itself or for every container. */
function seccompProfileRestricted(_metadata: JsonObject, spec: JsonObject): CheckResult | undefined {
  if (isWindowsPod(spec)) return undefined;
  const explicit = badSeccompProfiles(spec);
  if (explicit !== undefined) return explicit;
  if (objectField(objectField(spec, 'securityContext'), 'seccompProfile') !== undefined) return undefined;
  const unset = podContainers(spec)
    .filter((container) => objectField(securityContext(container), 'seccompProfile') === undefined)
    .map(containerName);
  if (unset.length === 0) return undefined;
  return {
    reason: 'seccompProfile',
    detail: `pod or ${containersPhrase(unset)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
  };
}

/** The restricted checks, under their registry IDs, with the baseline checks they stand in for. */
export const RESTRICTED_CHECKS: readonly PodSecurityCheck[] = [
  { id: 'allowPrivilegeEscalation', level: 'restricted', check: allowPrivilegeEscalation },
  { id: 'capabilities_restricted', level: 'restricted', overrides: ['capabilities_baseline'], check: capabilitiesRestricted },
  { id: 'procMount_restricted', level: 'restricted', overrides: ['procMount'], check: procMountDefaultOnly },
  { id: 'restrictedVolumes', level: 'restricted', overrides: ['hostPathVolumes'], check: restrictedVolumes },
  { id: 'runAsNonRoot', level: 'restricted', check: runAsNonRoot },
  { id: 'runAsUser', level: 'restricted', check: runAsUser },
  { id: 'seccompProfile_restricted', level: 'restricted', overrides: ['seccompProfile_baseline'], check: seccompProfileRestricted },
];
