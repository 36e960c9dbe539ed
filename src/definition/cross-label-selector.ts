/**
 * Orkestra's `cross[].labelSelector`: the target CRD found through a CRD entry's own `labelSelector` instead of by
 * name. Orkestra keys its registry of informers by each CRD entry's `labelSelector` and takes the first entry that
 * has one of the written pairs, key and value compared case aside (`pkg/runtime/kordinator` `GetInformerByLabelSelector`,
 * read by `pkg/runtime/reconciler/run_template_reconcile.go` `readCross`). katalog resolves it once, at load: the
 * one CRD of the definition whose `labelSelector` has such a pair; none, or more than one, is a load error (Orkestra
 * walks a map, so which of several it takes is not defined).
 */
import type { CrdDefinition } from './types.js';
import type { Path } from './path.js';
import type { Origin, ProblemList } from './problems.js';

const NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Why `key` is not a label key (`[prefix/]name`), or undefined. */
function keyProblem(key: string): string | undefined {
  const slash = key.indexOf('/');
  const prefix = slash < 0 ? undefined : key.slice(0, slash);
  const name = slash < 0 ? key : key.slice(slash + 1);
  if (prefix !== undefined && (prefix.length > 253 || !SUBDOMAIN.test(prefix))) return `the prefix "${prefix}" is not a DNS subdomain (lowercase letters, digits, "-" and ".")`;
  if (name.length > 63 || !NAME.test(name)) return `"${name}" is not a label name (at most 63 letters, digits, "-", "_" or ".", beginning and ending with a letter or digit)`;
  return undefined;
}

/**
 * The written labelSelector as pairs, with a problem at each key or value that is not label syntax (a template
 * is not one: the target is found when the definition loads, before any custom resource exists).
 */
export function checkLabelSelector(selector: Readonly<Record<string, unknown>>, origin: Origin, path: Path, problems: ProblemList): Record<string, string> | undefined {
  const pairs: Record<string, string> = {};
  const before = problems.items.length;
  const entries = Object.entries(selector);
  if (entries.length === 0) problems.add(origin, path, 'invalid-value', 'cross labelSelector needs at least one label (key: value)');
  for (const [key, value] of entries) {
    const why = keyProblem(key);
    if (why !== undefined) {
      problems.add(origin, [...path, key], 'invalid-value', `cross labelSelector key "${key}": ${why}`, { at: 'key' });
      continue;
    }
    const text = typeof value === 'string' ? value : String(value);
    if (text.length > 63 || (text !== '' && !NAME.test(text))) {
      problems.add(origin, [...path, key], 'invalid-value', `cross labelSelector ${key}: "${text}" is not a label value (at most 63 letters, digits, "-", "_" or ".", beginning and ending with a letter or digit; no template)`);
      continue;
    }
    pairs[key] = text;
  }
  return problems.items.length > before ? undefined : pairs;
}

/** The equality pairs of a CRD entry's `labelSelector` (`k=v`, `k==v`; set-based and negated terms select no cross entry). */
function equalities(selector: string | undefined): Array<readonly [string, string]> {
  if (selector === undefined) return [];
  const out: Array<readonly [string, string]> = [];
  for (const term of selector.split(',')) {
    const match = /^\s*([^=!\s]+)\s*==?\s*([^=\s]*)\s*$/.exec(term);
    if (match?.[1] !== undefined && match[2] !== undefined) out.push([match[1].toLowerCase(), match[2].toLowerCase()]);
  }
  return out;
}

/** The CRD whose labelSelector has one of `pairs` (case aside); a problem at `path` when none or several do. */
export function crdByLabelSelector(crds: ReadonlyArray<[string, CrdDefinition]>, pairs: Readonly<Record<string, string>>, origin: Origin, path: Path, problems: ProblemList): string | undefined {
  const wanted = Object.entries(pairs).map(([key, value]) => `${key.toLowerCase()}=${value.toLowerCase()}`);
  const found = crds.filter(([, crd]) => equalities(crd.labelSelector).some(([key, value]) => wanted.includes(`${key}=${value}`))).map(([name]) => name);
  const written = Object.entries(pairs).map(([key, value]) => `${key}=${value}`).join(', ');
  if (found.length === 1) return found[0];
  if (found.length === 0) {
    const declared = crds.filter(([, crd]) => crd.labelSelector !== undefined).map(([name, crd]) => `${name} (${crd.labelSelector ?? ''})`);
    problems.add(origin, path, 'unknown-cross-crd', `cross labelSelector ${written} matches the labelSelector of no CRD of this definition${declared.length === 0 ? ' (none declares a labelSelector)' : `; declared: ${declared.join(', ')}`}`);
  } else {
    problems.add(origin, path, 'invalid-value', `cross labelSelector ${written} matches the labelSelector of several CRDs (${found.join(', ')}); name the one to read with crd`);
  }
  return undefined;
}

/** How a `cross[]` entry names its target: `crd`, or (Orkestra) `labelSelector`, which needs `as`; undefined = a problem reported. */
export function crossTarget(
  input: { readonly crd?: string | undefined; readonly labelSelector?: Readonly<Record<string, unknown>> | undefined; readonly as?: string | undefined },
  origin: Origin,
  path: Path,
  problems: ProblemList,
): { readonly crd: string; readonly labelSelector?: Record<string, string> } | undefined {
  const selector = input.labelSelector;
  if (selector === undefined) {
    if (input.crd !== undefined) return { crd: input.crd };
    problems.add(origin, path, 'missing-field', 'a cross entry needs crd (the other CRD\'s name), or labelSelector to find it');
    return undefined;
  }
  if (input.crd !== undefined) {
    problems.add(origin, [...path, 'labelSelector'], 'invalid-value', 'a cross entry names its CRD by crd or by labelSelector, not both', { at: 'key' });
    return undefined;
  }
  const pairs = checkLabelSelector(selector, origin, [...path, 'labelSelector'], problems);
  if (input.as === undefined) {
    problems.add(origin, [...path, 'labelSelector'], 'invalid-value', 'a cross entry found by labelSelector needs as (the key under .cross), as in Orkestra', { at: 'key' });
    return undefined;
  }
  return pairs === undefined ? undefined : { crd: '', labelSelector: pairs };
}
