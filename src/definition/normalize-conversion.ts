/**
 * A CRD entry's `conversion` block → the model's {@link CrdConversion}. The schema check has already seen the
 * shapes; here: `storageVersion` is required with paths, a path converts between two different versions, a
 * (from, to) pair is declared once, and the spec templates compile (errors at their file:line:column).
 */
import type { CrdConversion, ConversionPath } from './conversion-types.js';
import type { Field } from './crd-entries.js';
import type { ProblemList } from './problems.js';
import { isMap } from './schema-check.js';
import { checkTemplates } from './template-check.js';
import { toPlain } from './freeze.js';

export function normalizeConversion(field: Field | undefined, problems: ProblemList): CrdConversion | undefined {
  if (field === undefined || !isMap(field.value)) return undefined;
  const { origin, path, value } = field;
  const storageVersion = typeof value['storageVersion'] === 'string' ? value['storageVersion'] : undefined;
  const paths: ConversionPath[] = [];
  const seen = new Set<string>();
  const written = Array.isArray(value['paths']) ? value['paths'] : [];
  written.forEach((item: unknown, index) => {
    if (!isMap(item) || typeof item['from'] !== 'string' || typeof item['to'] !== 'string' || !isMap(item['spec'])) return;
    const at = [...path, 'paths', index];
    const { from, to } = item;
    if (from === to) {
      problems.add(origin, [...at, 'to'], 'invalid-value', `a conversion path goes from one version to another; both are "${from}"`);
      return;
    }
    if (seen.has(`${from}>${to}`)) {
      problems.add(origin, at, 'duplicate-conversion-path', `the conversion path ${from} → ${to} is declared twice; keep one`);
      return;
    }
    seen.add(`${from}>${to}`);
    checkTemplates(item['spec'], [...at, 'spec'], origin, problems);
    paths.push({ from, to, spec: toPlain(item['spec']) as Record<string, unknown> });
  });
  if (paths.length > 0 && storageVersion === undefined) {
    problems.add(origin, path, 'missing-storage-version', 'conversion.storageVersion is required when paths are declared (the version objects are stored as)', { at: 'key' });
  }
  return { storageVersion, paths, participant: value['participant'] === true, updateCrd: value['updateCRD'] === true };
}
