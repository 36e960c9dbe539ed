/**
 * `when` / `anyOf` conditions (SPEC §4.3): operator aliases become short names (`equals` → `eq`), and what can
 * be checked offline is checked: an operator that needs a value has one, and a literal value fits its `valueType`.
 */
import type { Condition } from './types.js';
import type { Path } from './path.js';
import type { Origin, ProblemList } from './problems.js';
import { normalizeOperator } from '../template/index.js';
import type { ConditionInput } from './schema-operator-box.js';
import { toPlain } from './freeze.js';

type Operator = Condition['operator'];

const NO_VALUE: ReadonlySet<Operator> = new Set(['exists', 'notExists']);

/** The short name of an operator as written (`greaterThan` → `gt`; short names map to themselves). */
export function shortOperator(written: string): Operator {
  return normalizeOperator(written) ?? (written as Operator);
}

/**
 * Normalises a checked list of conditions. Items the schema check rejected (`undefined`) are skipped; problems
 * go to `problems` at `path[i]` of `origin`.
 */
export function normalizeConditions(
  list: readonly (Partial<ConditionInput> | undefined)[] | undefined,
  origin: Origin,
  path: Path,
  problems: ProblemList,
): Condition[] {
  const result: Condition[] = [];
  (list ?? []).forEach((item, index) => {
    if (item?.field === undefined || item.operator === undefined) return;
    const operator = shortOperator(item.operator);
    const hasValue = item.value !== undefined && item.value !== null;
    if (!hasValue && !NO_VALUE.has(operator)) {
      problems.add(origin, [...path, index, 'value'], 'missing-field', `operator "${item.operator}" needs a value`);
    }
    if (hasValue && item.valueType !== undefined && !fitsType(item.value, item.valueType)) {
      problems.add(origin, [...path, index, 'value'], 'invalid-value', `value ${JSON.stringify(item.value)} is not a valid ${item.valueType}`);
    }
    result.push({
      field: item.field,
      operator,
      ...(hasValue ? { value: toPlain(item.value) } : {}),
      ...(item.valueType === undefined ? {} : { valueType: item.valueType }),
    });
  });
  return result;
}

/** Whether a literal value can be read as `type`; template strings are decided at render time. */
function fitsType(value: unknown, type: NonNullable<ConditionInput['valueType']>): boolean {
  if (typeof value === 'string' && value.includes('{{')) return true;
  if (Array.isArray(value)) return value.every((item) => fitsType(item, type));
  const text = String(value).trim();
  switch (type) {
    case 'int':
      return /^[-+]?\d+$/.test(text);
    case 'float':
      return text !== '' && Number.isFinite(Number(text));
    case 'bool':
      return text === 'true' || text === 'false';
    default:
      return true;
  }
}
