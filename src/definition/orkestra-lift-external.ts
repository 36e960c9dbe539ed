/**
 * Orkestra's `external:` calls lifted into katalog's shape (docs/orkestra-compatibility.md#external-calls):
 * `operatorBox.external` stays, `hooks.external` joins it (its results reach the hooks as `.external` in
 * templates, and the hooks run after the calls), `preReconcile.external` and each gate's `external` stay where
 * they are. Each list's `{include: path}` entries are replaced by the fragment's calls first
 * (include-external.ts). In each call: `or` becomes `anyOf`, the method is upper-cased, `protocol: http` and the
 * fields HTTP does not use (`query`, `poolSize`) go; `protocol: prometheus` stays with its `query`; `redis`,
 * `postgres`, `mongo` and `kafka` stay with `query` and `poolSize` (their protocol clients make them);
 * `retryBackoff: 3s` (Orkestra's shorthand) becomes `{initial: 3s}`; `fires` stays only as `{reconcile: false}`;
 * `sleep` stays as written. Refused by name: the protocols Orkestra's own validation refuses (`nats`, `mqtt`,
 * `grpc`: declared in its types, no client) and credentials in the document or the environment (`token`,
 * `auth.env`). A constructor's calls
 * (`constructor.external`, a katalog extension) are lifted in place; admission rules' calls are lifted by
 * orkestra-lift-admission.ts.
 */
import type { Path } from './path.js';
import { liftConditionBlocks } from './orkestra-lift-box.js';
import { refuse, type Lift } from './orkestra-lift-steps.js';
import type { Refusal } from './orkestra-features.js';
import { isMap } from './schema-check.js';
import { expandExternalIncludes } from './include-external.js';
import { CLIENT_PROTOCOLS, EXTERNAL_PROTOCOLS } from './external-types.js';

type Map = Record<string, unknown>;

const ANCHOR = 'external-calls';

const REFUSED_CALL_FIELDS: Readonly<Record<string, Refusal>> = {
  token: { feature: 'external token', reason: 'a credential written in the document (or an environment variable) is not read; put it in a Secret and use auth.secretRef', anchor: ANCHOR },
};

/** Lifts one `external` list (in place), at `path`: its includes expanded, then each call. */
export function liftExternalList(lift: Lift, list: unknown, path: Path): void {
  if (!Array.isArray(list)) return;
  expandExternalIncludes(lift, list, path);
  list.forEach((call: unknown, index) => {
    if (isMap(call)) liftCall(lift, call, [...path, index]);
  });
}

function liftCall(lift: Lift, call: Map, path: Path): void {
  liftConditionBlocks(lift, call, path);
  if (typeof call.method === 'string') call.method = call.method.toUpperCase();
  const protocol = call.protocol;
  if (protocol === '' || protocol === 'http' || protocol === undefined) {
    delete call.protocol;
    delete call.query; // HTTP does not use it (Orkestra: "HTTP: unused")
  } else if (!(EXTERNAL_PROTOCOLS as readonly unknown[]).includes(protocol)) {
    const name = typeof protocol === 'string' ? protocol : String(protocol);
    refuse(lift, call, 'protocol', path, {
      feature: `external protocol ${name}`,
      // Orkestra's words (pkg/external/validate.go validateProtocol); nats, mqtt and grpc are "reserved for future support".
      reason: `Orkestra refuses it too: unknown protocol "${name}" — valid values: http, prometheus, redis, postgres, mongo, kafka`,
      anchor: ANCHOR,
    });
    delete call.query;
  }
  if (!(CLIENT_PROTOCOLS as readonly unknown[]).includes(protocol)) delete call.poolSize; // HTTP keeps no pool
  for (const [key, refusal] of Object.entries(REFUSED_CALL_FIELDS)) if (Object.hasOwn(call, key)) refuse(lift, call, key, path, refusal);
  // Orkestra's FiresConfig has `reconcile` only; absent or true is the default (fires at reconcile).
  const fires = call.fires;
  if (isMap(fires) && fires.reconcile !== false && Object.keys(fires).every((key) => key === 'reconcile')) delete call.fires;
  const retry = call.retryBackoff;
  if (typeof retry === 'string') {
    call.retryBackoff = { initial: retry };
    lift.origin.positions?.alias([...path, 'retryBackoff'], [...path, 'retryBackoff', 'initial']);
  }
  const auth = call.auth;
  if (isMap(auth) && Object.hasOwn(auth, 'env')) {
    refuse(lift, auth, 'env', [...path, 'auth'], { feature: 'auth.env', reason: 'katalog, a library, reads no environment variables; put the credential in a Secret and use auth.secretRef', anchor: ANCHOR });
    if (!Object.hasOwn(auth, 'secretRef')) delete call.auth; // reported above; "missing secretRef" would be noise
  }
}

/** The calls of an operatorBox (after its `reconciler` block is flattened): box, hooks and constructor. */
export function liftBoxExternal(lift: Lift, box: Map, path: Path): void {
  liftExternalList(lift, box.external, [...path, 'external']);
  const hooks = box.hooks;
  if (isMap(hooks) && Object.hasOwn(hooks, 'external')) {
    const list = hooks.external;
    delete hooks.external;
    const from = [...path, 'hooks', 'external'];
    liftExternalList(lift, list, from);
    if (Array.isArray(list)) {
      const existing = Array.isArray(box.external) ? box.external : [];
      const offset = existing.length;
      list.forEach((_call: unknown, index) => lift.origin.positions?.alias([...from, index], [...path, 'external', offset + index]));
      box.external = [...existing, ...list];
    }
  }
  // A katalog extension (Orkestra's constructor declaration has no external): results reach ctx.external.
  const ctor = box.constructor;
  if (isMap(ctor)) liftExternalList(lift, ctor.external, [...path, 'constructor', 'external']);
}

/** `preReconcile.external` and each gate's `external`. */
export function liftPreReconcileExternal(lift: Lift, pre: Map, path: Path): void {
  liftExternalList(lift, pre.external, [...path, 'external']);
  for (const key of ['enqueueGate', 'reconcileGate']) {
    const gate = pre[key];
    if (isMap(gate)) liftExternalList(lift, gate.external, [...path, key, 'external']);
  }
}
