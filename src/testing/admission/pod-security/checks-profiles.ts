/**
 * The baseline Pod Security Standards checks on security profiles, as k8s.io/pod-security-admission v0.37.2 runs
 * them at `latest`: policy/check_appArmorProfile.go, check_seLinuxOptions.go (its 1.31 types),
 * check_seccompProfile_baseline.go (its 1.19 version, on the fields; the annotations are not read any more) and
 * check_windowsHostProcess.go. Each names who set the bad value: `pod`, then the containers, joined with ` and `.
 */
import { goQuote } from '../../go/go-values.js';
import type { JsonObject } from '../../patch/json-value.js';
import {
  boolField,
  compareGoStrings,
  containerName,
  containersPhrase,
  joinQuote,
  objectField,
  pluralize,
  podContainers,
  securityContext,
  sortedSet,
  stringField,
  type CheckResult,
  type PodSecurityCheck,
} from './check-helpers.js';

const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

/** The AppArmor and seccomp profile types baseline allows when one is set. */
const ALLOWED_PROFILE_TYPES = new Set(['RuntimeDefault', 'Localhost']);

/** The SELinux types baseline allows (the 1.31 list; `''` is unset). */
const ALLOWED_SELINUX_TYPES = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t', 'container_engine_t']);

/** Who set a forbidden value: `pod` when the pod did, then the containers that did, joined with ` and `. */
function setters(pod: boolean, containers: readonly string[]): string[] {
  const who = pod ? ['pod'] : [];
  if (containers.length > 0) who.push(containersPhrase(containers));
  return who;
}

/** The pod's and its containers' forbidden profile types in `field` of their security contexts. */
function badProfileTypes(spec: JsonObject, field: string): { pod: boolean; containers: string[]; types: string[] } {
  const types: string[] = [];
  const podProfile = objectField(objectField(spec, 'securityContext'), field);
  const pod = podProfile !== undefined && !ALLOWED_PROFILE_TYPES.has(stringField(podProfile, 'type'));
  if (pod) types.push(stringField(podProfile, 'type'));
  const containers: string[] = [];
  for (const container of podContainers(spec)) {
    const profile = objectField(securityContext(container), field);
    if (profile === undefined || ALLOWED_PROFILE_TYPES.has(stringField(profile, 'type'))) continue;
    containers.push(containerName(container));
    types.push(stringField(profile, 'type'));
  }
  return { pod, containers, types };
}

/** An AppArmor annotation value baseline allows: empty, `runtime/default`, or a `localhost/` profile. */
function allowedAppArmorAnnotation(value: string): boolean {
  return value === '' || value === 'runtime/default' || value.startsWith('localhost/');
}

/** The deprecated AppArmor annotations asking for another profile, each as `key="value"`, sorted. */
function forbiddenAppArmorAnnotations(metadata: JsonObject): string[] {
  const forbidden: string[] = [];
  for (const [key, value] of Object.entries(objectField(metadata, 'annotations') ?? {})) {
    if (!key.startsWith(APPARMOR_ANNOTATION_PREFIX) || typeof value !== 'string' || allowedAppArmorAnnotation(value)) continue;
    forbidden.push(`${key}=${goQuote(value)}`);
  }
  return forbidden.sort(compareGoStrings);
}

/** appArmorProfile: no profile type but RuntimeDefault or Localhost, and no annotation asking for another profile. */
function appArmorProfile(metadata: JsonObject, spec: JsonObject): CheckResult | undefined {
  const bad = badProfileTypes(spec, 'appArmorProfile');
  const who = setters(bad.pod, bad.containers);
  const values = sortedSet(bad.types);
  const annotations = forbiddenAppArmorAnnotations(metadata);
  if (annotations.length > 0) {
    values.push(...annotations);
    who.push(pluralize('annotation', 'annotations', annotations.length));
  }
  if (who.length === 0) return undefined;
  return {
    reason: pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', values.length),
    detail: `${who.join(' and ')} must not set AppArmor profile type to ${joinQuote(values)}`,
  };
}

/** What seLinuxOptions found wrong across the pod and its containers. */
interface SELinuxFindings {
  readonly types: string[];
  user: boolean;
  role: boolean;
}

/** True when `options` are allowed; records what is wrong with them in `findings` otherwise. */
function validSELinuxOptions(options: JsonObject, findings: SELinuxFindings): boolean {
  const type = stringField(options, 'type');
  const typeAllowed = ALLOWED_SELINUX_TYPES.has(type);
  if (!typeAllowed) findings.types.push(type);
  const user = stringField(options, 'user') !== '';
  const role = stringField(options, 'role') !== '';
  findings.user ||= user;
  findings.role ||= role;
  return typeAllowed && !user && !role;
}

/** seLinuxOptions: no SELinux type outside the allowed ones, and no SELinux user or role. */
function seLinuxOptions(_metadata: JsonObject, spec: JsonObject): CheckResult | undefined {
  const findings: SELinuxFindings = { types: [], user: false, role: false };
  const podOptions = objectField(objectField(spec, 'securityContext'), 'seLinuxOptions');
  const pod = podOptions !== undefined && !validSELinuxOptions(podOptions, findings);
  const containers = podContainers(spec)
    .filter((container) => {
      const options = objectField(securityContext(container), 'seLinuxOptions');
      return options !== undefined && !validSELinuxOptions(options, findings);
    })
    .map(containerName);
  const who = setters(pod, containers);
  if (who.length === 0) return undefined;
  const types = sortedSet(findings.types);
  const wrong = types.length > 0 ? [`${pluralize('type', 'types', types.length)} ${joinQuote(types)}`] : [];
  if (findings.user) wrong.push('user may not be set');
  if (findings.role) wrong.push('role may not be set');
  return { reason: 'seLinuxOptions', detail: `${who.join(' and ')} set forbidden securityContext.seLinuxOptions: ${wrong.join('; ')}` };
}

/** The seccompProfile refusal for profile types set to something other than RuntimeDefault or Localhost, if any. */
export function badSeccompProfiles(spec: JsonObject): CheckResult | undefined {
  const bad = badProfileTypes(spec, 'seccompProfile');
  const who = setters(bad.pod, bad.containers);
  if (who.length === 0) return undefined;
  return {
    reason: 'seccompProfile',
    detail: `${who.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(bad.types))}`,
  };
}

/** seccompProfile_baseline (1.19): a seccomp profile, where set, is RuntimeDefault or Localhost. */
function seccompProfileBaseline(_metadata: JsonObject, spec: JsonObject): CheckResult | undefined {
  return badSeccompProfiles(spec);
}

/** True when a security context sets `windowsOptions.hostProcess: true`. */
function hostProcess(context: JsonObject | undefined): boolean {
  return boolField(objectField(context, 'windowsOptions'), 'hostProcess') === true;
}

/** windowsHostProcess: neither the pod nor a container sets `windowsOptions.hostProcess: true`. */
function windowsHostProcess(_metadata: JsonObject, spec: JsonObject): CheckResult | undefined {
  const containers = podContainers(spec)
    .filter((container) => hostProcess(securityContext(container)))
    .map(containerName);
  const who = setters(hostProcess(objectField(spec, 'securityContext')), containers);
  if (who.length === 0) return undefined;
  return { reason: 'hostProcess', detail: `${who.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true` };
}

/** The baseline checks on security profiles, under their registry IDs. */
export const PROFILE_CHECKS: readonly PodSecurityCheck[] = [
  { id: 'appArmorProfile', level: 'baseline', check: appArmorProfile },
  { id: 'seLinuxOptions', level: 'baseline', check: seLinuxOptions },
  { id: 'seccompProfile_baseline', level: 'baseline', check: seccompProfileBaseline },
  { id: 'windowsHostProcess', level: 'baseline', check: windowsHostProcess },
];
