/**
 * Orkestra's result map of a `protocol: postgres` call (orkspace/orkestra `pkg/external/postgres.go`, and
 * `pkg/external/docs/02-result-maps.md`), built from the text the server sent:
 * - `result`: the first column of the first row as text (`""` without rows; `""` for NULL; `true`/`false` for a
 *   boolean, as Go prints it);
 * - `rows`: every row as `{column: value}`; `rowCount`: their number as text;
 * - `raw`: the first row as `{column: value}` (`{}` without rows), the map 02-result-maps.md documents;
 * - `error`: `""`; `called`: `"true"`.
 * Values are typed as Orkestra's templates see pgx's values: booleans, numbers (int2/int4/int8/oid/float4/float8;
 * an int8 beyond 2^53 stays text), JSON/JSONB parsed, NULL as null, everything else (numeric, text, dates, uuid,
 * arrays…) as the server's text.
 */
import type { QueryResult } from './protocol-postgres-connection.js';

const BOOL = 16;
const INTEGERS = new Set([20, 21, 23, 26]);
const FLOATS = new Set([700, 701]);
const JSON_TYPES = new Set([114, 3802]);

/** One column's text as the value the templates see. */
export function columnValue(text: string | null, typeOid: number): unknown {
  if (text === null) return null;
  if (typeOid === BOOL) return text === 't';
  if (INTEGERS.has(typeOid)) {
    const value = Number(text);
    return Number.isSafeInteger(value) ? value : text;
  }
  if (FLOATS.has(typeOid)) return Number(text);
  if (JSON_TYPES.has(typeOid)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text; // the server vouches for its JSON; text is the fallback for the unexpected, not an error
    }
  }
  return text;
}

/** One column's text as `result` shows it. */
function scalarText(text: string | null, typeOid: number): string {
  if (text === null) return '';
  if (typeOid === BOOL) return text === 't' ? 'true' : 'false';
  return text;
}

/** Sets an own enumerable property, even one named `__proto__` (a column may be called anything). */
function setColumn(row: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(row, name, { value, enumerable: true, writable: true, configurable: true });
}

/** The result map of a successful query. */
export function postgresResult(result: QueryResult): Record<string, unknown> {
  const rows = result.rows.map((values) => {
    const row: Record<string, unknown> = {};
    result.columns.forEach((column, index) => setColumn(row, column.name, columnValue(values[index] ?? null, column.typeOid)));
    return row;
  });
  const first = result.rows[0];
  const firstColumn = result.columns[0];
  return {
    result: first !== undefined && firstColumn !== undefined ? scalarText(first[0] ?? null, firstColumn.typeOid) : '',
    raw: rows[0] ?? {},
    rows,
    rowCount: String(rows.length),
    error: '',
    called: 'true',
  };
}

/** The result map of a failed call: `error` says what failed (never the URL, the password or row data). */
export function postgresErrorResult(error: string): Record<string, unknown> {
  return { result: '', raw: {}, rows: [], rowCount: '0', error, called: 'true' };
}
