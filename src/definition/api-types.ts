/**
 * `apiTypes` of a CRD entry: either a full declaration (group, version, kind, plural; scope defaults to
 * Namespaced) or `kind` alone for a built-in kind, completed from the built-in table. Anything in between is
 * an error, as in Orkestra.
 */
import type { ApiTypes } from './types.js';
import type { Field, RawCrd } from './crd-entries.js';
import type { ProblemList } from './problems.js';
import { builtInKind, BUILTIN_KIND_NAMES } from './builtin-kinds.js';
import { didYouMean, nearest } from './suggest.js';

const PLACEHOLDER: ApiTypes = { group: '', version: '', kind: '', plural: '', scope: 'Namespaced', builtIn: false };

/** Resolves the `apiTypes.*` fields of an entry. On a problem, returns a placeholder (the load fails anyway). */
export function resolveApiTypes(raw: RawCrd, problems: ProblemList): ApiTypes {
  const field = (name: string): Field | undefined => raw.fields.get(`apiTypes.${name}`);
  const text = (name: string): string | undefined => {
    const value = field(name)?.value;
    return typeof value === 'string' ? value : undefined;
  };
  const block = raw.fields.get('apiTypes');
  if (block === undefined) {
    if (!raw.complete) problems.add(raw.origin, [...raw.path, 'apiTypes'], 'missing-field', `missing required field "apiTypes" in CRD "${raw.name}"`);
    return PLACEHOLDER;
  }
  const [group, version, kind, plural] = [text('group'), text('version'), text('kind'), text('plural')];
  const scopeValue = text('scope');
  const scope = scopeValue === 'Cluster' || scopeValue === 'Namespaced' ? scopeValue : undefined;
  const declared = { group, version, kind, plural };
  const missing = Object.entries(declared).filter(([, value]) => value === undefined).map(([name]) => name);
  // A field that was written but failed its own check is not "missing": its problem is already reported.
  const broken = ['group', 'version', 'kind', 'plural', 'scope'].some((name) => field(name) !== undefined && text(name) === undefined);
  if (broken) return PLACEHOLDER;
  if (kind !== undefined && group === undefined && version === undefined && plural === undefined) {
    const table = builtInKind(kind);
    if (table === undefined) {
      const suggestion = nearest(kind, BUILTIN_KIND_NAMES);
      problems.add(
        field('kind')?.origin ?? block.origin,
        field('kind')?.path ?? block.path,
        'unknown-builtin-kind',
        `apiTypes declares only kind "${kind}", which is not a built-in kind; declare group, version, kind and plural${didYouMean(suggestion)}`,
        suggestion === undefined ? {} : { suggestion },
      );
      return PLACEHOLDER;
    }
    const scopeField = field('scope');
    if (scope !== undefined && scope !== table.scope && scopeField !== undefined) {
      problems.add(scopeField.origin, scopeField.path, 'invalid-value', `built-in kind ${kind} is ${table.scope}, not ${scope}`);
    }
    return table;
  }
  if (group === undefined || version === undefined || kind === undefined || plural === undefined) {
    problems.add(
      block.origin,
      block.path,
      'partial-api-types',
      `apiTypes is partially specified (missing ${missing.join(', ')}): declare kind alone for a built-in kind, or all of group, version, kind and plural`,
      { at: 'key' },
    );
    return PLACEHOLDER;
  }
  if (plural !== plural.toLowerCase()) {
    const pluralField = field('plural') ?? block;
    problems.add(pluralField.origin, pluralField.path, 'invalid-value', `plural "${plural}" must be lowercase`);
  }
  return { group, version, kind, plural, scope: scope ?? 'Namespaced', builtIn: false };
}
