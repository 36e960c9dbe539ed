/**
 * Profiles named by a template (`resources: {profile: "{{ .spec.size }}"}`), which Orkestra renders per reconcile
 * before it looks the name up (orkspace/orkestra pkg/profiles/docs/02-internals.md, "Template expressions").
 * katalog expands such an entry at load once for every name the reference can take (the user-defined names of
 * the class in scope and Orkestra's built-ins), each exactly as the literal name would expand, and records the
 * fields that differ as an {@link EntryProfileChoice} on the entry; rendering picks the variant by the rendered
 * name (src/operatorbox/profile-choice.ts). The entry itself holds the first variant, so that every load check
 * sees a complete entry.
 */
import type { Path } from '../path.js';
import { ProblemList } from '../problems.js';
import { isMap } from '../schema-check.js';
import { checkTemplates } from '../template-check.js';
import type { EntryProfileChoice, ProfileReference } from '../profile-choice-types.js';
import type { ProfileScope } from './apply.js';
import { BUILTIN_PROFILES, CASE_SENSITIVE_BUILTINS, type ProfileClass } from './catalog.js';
import { CLASS_LABELS } from './registry.js';
import { ENTRY_PROFILE_CLASSES } from './expand-policy.js';
import { WORKLOAD_KINDS } from './expand-workload.js';

type Map = Record<string, unknown>;

/** The key under which the lift hands an entry's choice to the normaliser (operator-box.ts takes it out). */
export const CHOICE_KEY = 'katalog.dev/profile-choice';

/** Most combinations one entry may expand into (the product of the candidates of its templated references). */
export const MAX_VARIANTS = 256;

interface Found {
  readonly at: readonly string[];
  readonly profileClass: ProfileClass;
  readonly name: string;
}

const isTemplate = (value: unknown): value is string => typeof value === 'string' && value.includes('{{');

/** The `profile` fields of an entry of `kind` that are templates, in a fixed order. */
function templatedReferences(kind: string, entry: Map): Found[] {
  const found: Found[] = [];
  const look = (at: readonly string[], profileClass: ProfileClass): void => {
    let holder: unknown = entry;
    for (const key of at.slice(0, -1)) holder = isMap(holder) ? holder[key] : undefined;
    const name = isMap(holder) ? holder.profile : undefined;
    if (isTemplate(name)) found.push({ at, profileClass, name });
  };
  const own = ENTRY_PROFILE_CLASSES[kind];
  if (own !== undefined) look(['profile'], own);
  if (WORKLOAD_KINDS.has(kind)) {
    look(['resources', 'profile'], 'resources');
    look(['securityContext', 'profile'], 'containerSecurity');
    look(['podSecurity', 'profile'], 'podSecurity');
    for (const probe of ['startup', 'liveness', 'readiness']) look(['probes', probe, 'profile'], 'probes');
    look(['rollingUpdate', 'profile'], 'rollingUpdate');
  }
  if (kind === 'horizontalPodAutoscalers') look(['behavior', 'profile'], 'hpa');
  if (kind === 'podDisruptionBudgets') look(['behavior', 'profile'], 'pdb');
  return found;
}

function setProfile(entry: Map, at: readonly string[], name: string | undefined): void {
  let holder: unknown = entry;
  for (const key of at.slice(0, -1)) holder = isMap(holder) ? holder[key] : undefined;
  if (!isMap(holder)) return;
  if (name === undefined) delete holder.profile;
  else holder.profile = name;
}

function referenceOf(scope: ProfileScope, found: Found): ProfileReference {
  const declared = [...(scope.registry.get(found.profileClass)?.keys() ?? [])];
  const caseless = !CASE_SENSITIVE_BUILTINS.has(found.profileClass);
  // A built-in shadowed by a declared name stays reachable in another case where names are caseless (`Large`
  // names the built-in when `large` is declared, as the literal would); where they are not, it is unreachable.
  const builtin = Object.keys(BUILTIN_PROFILES[found.profileClass]).filter((name) => !declared.includes(name) || (caseless && literalOf(declared, name) !== undefined));
  return {
    field: found.at.join('.'),
    profileClass: found.profileClass,
    label: CLASS_LABELS[found.profileClass],
    name: found.name,
    declared,
    builtin,
    caseless,
  };
}

/** A literal that names the built-in `name` (lower case) past the declared names: itself, or in upper case. */
function literalOf(declared: readonly string[], name: string): string | undefined {
  if (!declared.includes(name)) return name;
  const upper = name.toUpperCase();
  return declared.includes(upper) ? undefined : upper;
}

/** A variant's key: the chosen name per reference, `d:` for a declared profile and `b:` for a built-in. */
export function variantKey(keys: readonly string[]): string {
  return keys.join('\n');
}

/**
 * Every combination of one name per reference (declared names, then built-ins), as pairs of the variant key part
 * and the literal that expands it; the first combination takes each reference's first name.
 */
function combinations(references: readonly ProfileReference[]): Array<Array<readonly [string, string]>> {
  let out: Array<Array<readonly [string, string]>> = [[]];
  for (const reference of references) {
    const names: Array<readonly [string, string]> = [
      ...reference.declared.map((name) => [`d:${name}`, name] as const),
      ...reference.builtin.map((name) => [`b:${name}`, literalOf(reference.declared, name) ?? name] as const),
    ];
    out = out.flatMap((prefix) => names.map((name) => [...prefix, name]));
  }
  return out;
}

/**
 * Expands the profiles of one entry with `expand` (the literal-name expansion): directly when no `profile` of it
 * is a template; else once per combination of names, leaving the first in `entry` and the choice under
 * {@link CHOICE_KEY}. Problems of the expansion are reported once (every variant differs from the first only in
 * the profile's fields).
 */
export function expandChoosing(scope: ProfileScope, kind: string, entry: Map, path: Path, expand: (entry: Map, scope: ProfileScope) => void): void {
  if (Object.hasOwn(entry, CHOICE_KEY)) {
    scope.problems.add(scope.origin, [...path, CHOICE_KEY], 'unknown-field', `unknown field "${CHOICE_KEY}" (katalog's own, not written in a definition)`, { at: 'key' });
    delete entry[CHOICE_KEY];
  }
  const found = templatedReferences(kind, entry);
  if (found.length === 0) {
    expand(entry, scope);
    return;
  }
  const before = scope.problems.size;
  for (const one of found) checkTemplates(one.name, [...path, ...one.at], scope.origin, scope.problems);
  const references = found.map((one) => referenceOf(scope, one));
  const count = references.reduce((product, reference) => product * (reference.declared.length + reference.builtin.length), 1);
  const first = references[0];
  if (count === 0) {
    const empty = references.find((reference) => reference.declared.length + reference.builtin.length === 0) ?? first;
    const message = `the ${empty?.label ?? ''} profile is named by a template, but no ${empty?.profileClass ?? ''} profile is declared and Orkestra has no built-in one: declare the profiles it can name under profiles.${empty?.profileClass ?? ''}`;
    scope.problems.add(scope.origin, [...path, ...(found[references.indexOf(empty as ProfileReference)]?.at ?? [])], 'unknown-profile', message);
  } else if (count > MAX_VARIANTS) {
    const message = `the templated profile names of this entry (${references.map((r) => r.field).join(', ')}) can take ${count} combinations; katalog expands at most ${MAX_VARIANTS} per entry: name some of them literally`;
    scope.problems.add(scope.origin, [...path, ...(found[0]?.at ?? [])], 'too-many-profiles', message);
  }
  if (scope.problems.size > before) {
    for (const one of found) setProfile(entry, one.at, undefined);
    expand(entry, scope);
    return;
  }
  const variants = combinations(references).map((names, index) => {
    const copy = structuredClone(entry);
    found.forEach((one, at) => setProfile(copy, one.at, names[at]?.[1]));
    expand(copy, index === 0 ? scope : { ...scope, problems: new ProblemList() });
    return { key: variantKey(names.map(([key]) => key)), body: copy };
  });
  const base = variants[0]?.body ?? {};
  const fields = new Set<string>();
  for (const { body } of variants) {
    for (const key of new Set([...Object.keys(base), ...Object.keys(body)])) {
      if (JSON.stringify(body[key]) !== JSON.stringify(base[key])) fields.add(key);
    }
  }
  for (const key of Object.keys(entry)) delete entry[key];
  Object.assign(entry, base);
  const choice: EntryProfileChoice = {
    references,
    fields: [...fields],
    variants: Object.fromEntries(variants.map(({ key, body }) => [key, Object.fromEntries([...fields].filter((field) => body[field] !== undefined).map((field) => [field, body[field]]))])),
  };
  entry[CHOICE_KEY] = choice;
}

