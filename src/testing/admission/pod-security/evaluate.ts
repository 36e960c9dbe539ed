/**
 * A pod judged against the Pod Security Standards at version `latest`, as k8s.io/pod-security-admission v0.37.2 does
 * it: policy/registry.go picks the checks of the level (restricted runs every baseline check it does not override,
 * baseline checks first, each group by ID in Go's string order), policy/checks.go words each refusal
 * `reason (detail)` and joins them with `, `, and admission/admission.go prefixes `violates PodSecurity "level:version"`.
 * Wiring it into admission (which requests, namespace labels, enforce, audit and warn) is elsewhere.
 */
import { goQuote } from '../../go/go-values.js';
import { HOST_CHECKS } from './checks-baseline.js';
import { PROFILE_CHECKS } from './checks-profiles.js';
import { RESTRICTED_CHECKS } from './checks-restricted.js';
import { compareGoStrings, type CheckResult, type PodSecurityCheck } from './check-helpers.js';

export type PodSecurityLevel = 'privileged' | 'baseline' | 'restricted';

/** The checks of a level, sorted by ID. */
function checksOf(level: 'baseline' | 'restricted'): PodSecurityCheck[] {
  return [...HOST_CHECKS, ...PROFILE_CHECKS, ...RESTRICTED_CHECKS]
    .filter((check) => check.level === level)
    .sort((a, b) => compareGoStrings(a.id, b.id));
}

const BASELINE = checksOf('baseline');
const RESTRICTED_ONLY = checksOf('restricted');
const OVERRIDDEN = new Set(RESTRICTED_ONLY.flatMap((check) => check.overrides ?? []));

/** The checks run at each level, in the order their refusals are listed. */
const CHECKS_BY_LEVEL: Readonly<Record<PodSecurityLevel, readonly PodSecurityCheck[]>> = {
  privileged: [],
  baseline: BASELINE,
  restricted: [...BASELINE.filter((check) => !OVERRIDDEN.has(check.id)), ...RESTRICTED_ONLY],
};

/** A refusal as ForbiddenDetail words it: `reason (detail)`, or the reason alone when there is no detail. */
function worded(result: CheckResult): string {
  const reason = result.reason === '' ? 'unknown forbidden reason' : result.reason;
  return result.detail === '' ? reason : `${reason} (${result.detail})`;
}

/** The refusals of a pod (its metadata and spec, as JSON) at `level` (latest), in kube's order. */
function refusals(level: PodSecurityLevel, metadata: Record<string, unknown>, spec: Record<string, unknown>): CheckResult[] {
  const found: CheckResult[] = [];
  for (const { check } of CHECKS_BY_LEVEL[level]) {
    const result = check(metadata, spec);
    if (result !== undefined) found.push(result);
  }
  return found;
}

/** Why a pod is not allowed at `level`, each `reason (detail)` or the reason alone (ForbiddenDetail's parts). */
export function podSecurityViolations(level: PodSecurityLevel, metadata: Record<string, unknown>, spec: Record<string, unknown>): string[] {
  return refusals(level, metadata, spec).map(worded);
}

/** The reasons alone (ForbiddenReason's parts: what a namespace update warns of for its existing pods). */
export function podSecurityReasons(level: PodSecurityLevel, metadata: Record<string, unknown>, spec: Record<string, unknown>): string[] {
  return refusals(level, metadata, spec).map((result) => (result.reason === '' ? 'unknown forbidden reason' : result.reason));
}

/**
 * kube-apiserver's words for the violations: `violates PodSecurity "restricted:latest": a, b` when enforced, `would
 * violate PodSecurity ...` as a warning.
 */
export function violationMessage(level: PodSecurityLevel, version: string, violations: readonly string[], mode: 'enforce' | 'warn' = 'enforce'): string {
  return `${mode === 'enforce' ? 'violates' : 'would violate'} PodSecurity ${goQuote(`${level}:${version}`)}: ${violations.join(', ')}`;
}
