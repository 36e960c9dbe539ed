/**
 * The `leaderElection` runtime option, and the one function that resolves its defaults and checks its timing
 * constraints. Defaults are the Kubernetes ecosystem's: a 15 s lease, a 10 s renew deadline, a 2 s retry period.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { RuntimeError } from '../errors.js';
import type { DurationInput } from '../options.js';
import { parseDuration } from '../util/duration.js';
import { shardLeaseName, shardProblems, type ShardOptions } from './sharding.js';

/** What the host passes as `leaderElection`. */
export interface LeaderElectionOptions {
  /** Namespace of the Lease (usually the operator's own). */
  readonly namespace: string;
  /** Name of the Lease; with sharding, each shard uses `${name}-shard-${index}`. */
  readonly name: string;
  /** This replica's identity in the Lease; default `${hostname}-${8 random hex digits}`. Must be unique per replica. */
  readonly identity?: string;
  /** How long others wait, after they last saw the Lease change, before taking it over. Default 15s. */
  readonly leaseDuration?: DurationInput;
  /** The leader steps down when it has not renewed for this long. Must be below `leaseDuration`. Default 10s. */
  readonly renewDeadline?: DurationInput;
  /** Time between attempts to acquire or renew. Must be below `renewDeadline`. Default 2s. */
  readonly retryPeriod?: DurationInput;
}

/** Leader election with every default filled in, durations in milliseconds, the Lease name final. */
export interface ResolvedLeaderElection {
  readonly lease: { readonly namespace: string; readonly name: string };
  readonly identity: string;
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
  readonly shard: ShardOptions | undefined;
}

export const DEFAULT_LEASE_DURATION_MS = 15_000;
export const DEFAULT_RENEW_DEADLINE_MS = 10_000;
export const DEFAULT_RETRY_PERIOD_MS = 2_000;

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** The default identity: the host name plus 8 random hex digits, so two processes on one host never collide. */
export function defaultIdentity(): string {
  return `${hostname()}-${randomBytes(4).toString('hex')}`;
}

/**
 * Resolves defaults and checks the options: Lease namespace and name are valid Kubernetes names, durations are
 * positive, `retryPeriod < renewDeadline < leaseDuration`, and the shard (if any) is valid.
 * @throws RuntimeError `E_OPTIONS` naming every problem at once.
 */
export function resolveLeaderElection(options: LeaderElectionOptions, shard?: ShardOptions): ResolvedLeaderElection {
  const { resolved, problems } = checkLeaderElection(options, shard);
  if (resolved === undefined) throw new RuntimeError('E_OPTIONS', `invalid leaderElection options:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return resolved;
}

/**
 * {@link resolveLeaderElection} without the throw, for callers that collect problems from several options
 * (`resolveOptions`): `resolved` is undefined exactly when `problems` is not empty.
 */
export function checkLeaderElection(options: LeaderElectionOptions, shard?: ShardOptions): { resolved: ResolvedLeaderElection | undefined; problems: string[] } {
  const problems: string[] = [];
  const duration = (field: string, value: DurationInput | undefined, fallback: number): number => {
    if (value === undefined) return fallback;
    const ms = typeof value === 'number' ? value : parseDuration(value);
    if (ms === undefined || !Number.isFinite(ms) || ms <= 0) {
      problems.push(`leaderElection.${field}: ${JSON.stringify(value)} is not a positive duration (milliseconds or a string such as "15s")`);
      return fallback;
    }
    return ms;
  };
  const leaseDurationMs = duration('leaseDuration', options.leaseDuration, DEFAULT_LEASE_DURATION_MS);
  const renewDeadlineMs = duration('renewDeadline', options.renewDeadline, DEFAULT_RENEW_DEADLINE_MS);
  const retryPeriodMs = duration('retryPeriod', options.retryPeriod, DEFAULT_RETRY_PERIOD_MS);
  if (renewDeadlineMs >= leaseDurationMs) {
    problems.push(
      `leaderElection.renewDeadline (${renewDeadlineMs}ms) must be below leaseDuration (${leaseDurationMs}ms): ` +
        'the leader must step down before the others may take the Lease over',
    );
  }
  if (retryPeriodMs >= renewDeadlineMs) {
    problems.push(
      `leaderElection.retryPeriod (${retryPeriodMs}ms) must be below renewDeadline (${renewDeadlineMs}ms): ` +
        'the leader must get at least one more try to renew before it steps down',
    );
  }
  const namespace = typeof options.namespace === 'string' ? options.namespace : '';
  if (namespace.length > 63 || !DNS_LABEL.test(namespace)) {
    problems.push(`leaderElection.namespace: ${JSON.stringify(options.namespace)} is not a valid namespace (lower-case DNS label, at most 63 characters)`);
  }
  const base = typeof options.name === 'string' ? options.name : '';
  const name = shard === undefined ? base : shardLeaseName(base, shard);
  if (name.length > 253 || !DNS_SUBDOMAIN.test(name)) {
    problems.push(`leaderElection.name: ${JSON.stringify(name)} is not a valid Lease name (lower-case DNS subdomain, at most 253 characters)`);
  }
  const identity = options.identity ?? defaultIdentity();
  if (typeof identity !== 'string' || identity === '') problems.push('leaderElection.identity: must be a non-empty string');
  if (shard !== undefined) problems.push(...shardProblems(shard));
  if (problems.length > 0) return { resolved: undefined, problems };
  const resolved: ResolvedLeaderElection = {
    lease: { namespace, name },
    identity,
    leaseDurationMs,
    renewDeadlineMs,
    retryPeriodMs,
    shard: shard === undefined ? undefined : { index: shard.index, count: shard.count },
  };
  return { resolved, problems };
}
