/**
 * Orkestra's `external:` calls lifted into katalog's shape (docs/orkestra-compatibility.md#external-calls):
 * `operatorBox.external` stays, `hooks.external` joins it (its results reach the hooks as `.external` in
 * templates, and the hooks run after the calls), `preReconcile.external` and each gate's `external` stay where
 * they are. In each call: `or` becomes `anyOf`, the method is upper-cased, `protocol: http` and the fields HTTP
 * does not use (`query`, `poolSize`) go; `protocol: prometheus` stays with its `query`. Refused by name: other
 * protocols (redis, postgres, mongo, kafka, nats, mqtt, grpc), credentials in the document or the
 * environment (`token`, `auth.env`), `include`, `sleep`, admission-only calls (`fires.reconcile: false`), a
 * call's own `retryBackoff`. A constructor's calls (`constructor.external`, a katalog extension) are lifted in
 * place; admission rules' calls are lifted by orkestra-lift-admission.ts.
 */
import type { Path } from './path.js';
import { liftConditionBlocks } from './orkestra-lift-box.js';
import { refuse, type Lift } from './orkestra-lift-steps.js';
import type { Refusal } from './orkestra-features.js';
import { isMap } from './schema-check.js';

type Map = Record<string, unknown>;

const ANCHOR = 'external-calls';

const REFUSED_CALL_FIELDS: Readonly<Record<string, Refusal>> = {
  token: { feature: 'external token', reason: 'a credential written in the document (or an environment variable) is not read; put it in a Secret and use auth.secretRef', anchor: ANCHOR },
  include: { feature: 'external include (calls from another file)', reason: 'not implemented yet', anchor: 'not-yet-implemented' },
  sleep: { feature: 'external sleep', reason: "it is Orkestra's testing delay", anchor: ANCHOR },
  retryBackoff: { feature: "an external call's own retryBackoff", reason: 'a failed call fails the cycle, which the runtime retries with its backoff', anchor: ANCHOR },
};

/** Lifts one `external` list (in place), at `path`. */
export function liftExternalList(lift: Lift, list: unknown, path: Path): void {
  if (!Array.isArray(list)) return;
  const onlyInclude = new WeakSet<Map>();
  list.forEach((call: unknown, index) => {
    if (!isMap(call)) return;
    if (Object.hasOwn(call, 'include')) onlyInclude.add(call);
    liftCall(lift, call, [...path, index]);
  });
  // An entry that was only a refused `include` is gone (its refusal is reported; "missing name" would be noise).
  let kept = 0;
  list.forEach((call: unknown, index) => {
    if (isMap(call) && onlyInclude.has(call) && Object.keys(call).length === 0) return;
    if (kept !== index) lift.origin.positions?.alias([...path, index], [...path, kept]);
    list[kept] = call;
    kept += 1;
  });
  list.length = kept;
}

function liftCall(lift: Lift, call: Map, path: Path): void {
  liftConditionBlocks(lift, call, path);
  if (typeof call.method === 'string') call.method = call.method.toUpperCase();
  const protocol = call.protocol;
  if (protocol === '' || protocol === 'http' || protocol === undefined) {
    delete call.protocol;
    delete call.query; // HTTP does not use it (Orkestra: "HTTP: unused")
  } else if (protocol !== 'prometheus') {
    const name = typeof protocol === 'string' ? protocol : String(protocol);
    refuse(lift, call, 'protocol', path, {
      feature: `external protocol ${name}`,
      reason: 'katalog makes HTTP calls and Prometheus queries only (no database or broker clients)',
      anchor: ANCHOR,
    });
    delete call.query;
  }
  delete call.poolSize; // connection pools of the stateful protocols
  for (const [key, refusal] of Object.entries(REFUSED_CALL_FIELDS)) if (Object.hasOwn(call, key)) refuse(lift, call, key, path, refusal);
  const fires = call.fires;
  if (Object.hasOwn(call, 'fires')) {
    if (isMap(fires) && fires.reconcile === false) {
      refuse(lift, call, 'fires', path, { feature: 'admission-only external calls (fires.reconcile: false)', reason: "katalog's admission router makes no calls", anchor: ANCHOR });
    } else delete call.fires;
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
