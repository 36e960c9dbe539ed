/**
 * The columns of a custom resource: its CRD version's `additionalPrinterColumns` after Name, or Age when it has
 * none, as the API server prints them (a `date` column shows an age; a missing value is null; several values are
 * comma-joined; objects as JSON). Pure.
 */
import type { KubeObject } from '../store/record.js';
import { ageOf } from './human-duration.js';
import { column, list, NAME_COLUMN, nameOf, rec, type ColumnDefinition, type ColumnSet } from './columns.js';
import { evaluateJsonPath } from './json-path.js';

interface PrinterColumn {
  readonly definition: ColumnDefinition;
  readonly jsonPath: string;
}

const AGE_COLUMN: PrinterColumn = {
  definition: column('Age', 'date', 'CreationTimestamp is a timestamp representing the server time when this object was created.'),
  jsonPath: '.metadata.creationTimestamp',
};

function cell(values: unknown[], type: string, now: number): unknown {
  if (values.length === 0) return null;
  if (type === 'date') return ageOf(values[0], now);
  if (values.length === 1) {
    const [value] = values;
    if (typeof value === 'object' && value !== null) return JSON.stringify(value);
    if (type === 'string' && typeof value !== 'string') return JSON.stringify(value);
    return value;
  }
  return values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(',');
}

/** The columns of `version` of a CRD. */
export function crdColumns(crd: KubeObject, version: string): ColumnSet {
  const entry = list(rec(crd['spec'])['versions'])
    .map(rec)
    .find((v) => v['name'] === version);
  const declared = list(entry?.['additionalPrinterColumns']).map(rec);
  const columns: PrinterColumn[] =
    declared.length === 0
      ? [AGE_COLUMN]
      : declared.map((c) => ({
          definition: column(String(c['name'] ?? ''), String(c['type'] ?? 'string'), String(c['description'] ?? ''), typeof c['priority'] === 'number' ? c['priority'] : 0, String(c['format'] ?? '')),
          jsonPath: String(c['jsonPath'] ?? ''),
        }));
  return {
    columns: [NAME_COLUMN, ...columns.map((c) => c.definition)],
    cells: (object, now) => [nameOf(object), ...columns.map((c) => cell(evaluateJsonPath(object, c.jsonPath), c.definition.type, now))],
  };
}
