/**
 * Namespace guards (`allowedNamespaces` / `restrictedNamespaces`, from Orkestra): which namespaces' custom
 * resources a CRD reconciles. Applied to queue keys, so an object outside the guard is never reconciled (its
 * events are dropped before the queue). Wildcards: a leading or trailing `*` (`kube-*`, `*-system`), or `*` alone.
 * When `allowed` is non-empty it decides alone (Orkestra: allowedNamespaces wins). Cluster-scoped objects pass.
 */
import type { NamespaceGuard } from '../definition/types.js';

function matches(pattern: string, namespace: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('*')) return namespace.startsWith(pattern.slice(0, -1));
  if (pattern.startsWith('*')) return namespace.endsWith(pattern.slice(1));
  return pattern === namespace;
}

/** The predicate on `namespace/name` keys, or `undefined` when there is no guard. */
export function namespaceGuardFilter(guard: NamespaceGuard | undefined): ((key: string) => boolean) | undefined {
  if (guard === undefined) return undefined;
  return (key) => {
    const slash = key.indexOf('/');
    if (slash < 0) return true;
    const namespace = key.slice(0, slash);
    if (guard.allowed.length > 0) return guard.allowed.some((p) => matches(p, namespace));
    return !guard.restricted.some((p) => matches(p, namespace));
  };
}

/** Both predicates (either may be absent). */
export function bothFilters(a: ((key: string) => boolean) | undefined, b: ((key: string) => boolean) | undefined): ((key: string) => boolean) | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return (key) => a(key) && b(key);
}
