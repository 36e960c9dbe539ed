/**
 * A CRD entry's `normalize` block (Orkestra's canonical spec: `spec: {<path under .spec>: <template>}`, `types`,
 * `audit`) → the model's {@link NormalizeField} list, in declared order. The schema check has already seen the
 * shape; here: templates compile, paths are dot paths, a type names a field that is declared.
 */
import type { NormalizeField, StatusFieldType } from './types.js';
import type { Field } from './crd-entries.js';
import type { ProblemList } from './problems.js';
import { isMap } from './schema-check.js';
import { checkTemplates } from './template-check.js';

const TYPE_NAMES: Readonly<Record<string, StatusFieldType>> = { string: 'string', int: 'int', integer: 'int', float: 'float', number: 'float', bool: 'bool', boolean: 'bool' };

export function normalizeFields(field: Field | undefined, problems: ProblemList): NormalizeField[] {
  if (field === undefined || !isMap(field.value)) return [];
  const { origin, path } = field;
  const spec = field.value['spec'];
  const types = isMap(field.value['types']) ? field.value['types'] : {};
  if (!isMap(spec)) return [];
  checkTemplates(spec, [...path, 'spec'], origin, problems);
  const out: NormalizeField[] = [];
  for (const [key, value] of Object.entries(spec)) {
    if (typeof value !== 'string') continue;
    if (key.split('.').some((part) => part === '')) {
      problems.add(origin, [...path, 'spec', key], 'invalid-value', `"${key}" is not a dot path under .spec (no empty segments)`, { at: 'key' });
      continue;
    }
    const written = types[key];
    const type = typeof written === 'string' ? TYPE_NAMES[written] : undefined;
    out.push({ path: key, value, ...(type === undefined ? {} : { type }) });
  }
  for (const key of Object.keys(types)) {
    if (!Object.hasOwn(spec, key)) problems.add(origin, [...path, 'types', key], 'invalid-value', `normalize.types names "${key}", which normalize.spec does not declare`, { at: 'key' });
  }
  return out;
}
