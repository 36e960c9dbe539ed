/**
 * The JSONPath subset CRDs use in `additionalPrinterColumns[].jsonPath`: `.a.b`, `.a[0]`, `.a['b.c']`, `.a[*].b`
 * and filters such as `[?(@.type=="Ready")]` (`==`, `!=`). A path it does not understand selects nothing. Pure.
 */

type Step = { readonly field: string } | { readonly index: number } | { readonly all: true } | { readonly filter: { path: string[]; op: '==' | '!='; value: string } };

function parse(path: string): Step[] | undefined {
  const steps: Step[] = [];
  let i = path.startsWith('{') && path.endsWith('}') ? 1 : 0;
  const end = i === 1 ? path.length - 1 : path.length;
  if (path[i] === '$') i++;
  while (i < end) {
    const ch = path[i];
    if (ch === '.') {
      let j = i + 1;
      while (j < end && path[j] !== '.' && path[j] !== '[') j++;
      if (j > i + 1) steps.push({ field: path.slice(i + 1, j) });
      i = j;
    } else if (ch === '[') {
      const close = path.indexOf(']', i);
      if (close < 0) return undefined;
      const inner = path.slice(i + 1, close).trim();
      i = close + 1;
      if (inner === '*') steps.push({ all: true });
      else if (/^\d+$/.test(inner)) steps.push({ index: Number(inner) });
      else if (/^'.*'$|^".*"$/.test(inner)) steps.push({ field: inner.slice(1, -1) });
      else {
        const match = /^\?\(@((?:\.[\w-]+)+)\s*(==|!=)\s*(?:"([^"]*)"|'([^']*)'|([\w.-]+))\)$/.exec(inner);
        if (match === null) return undefined;
        steps.push({ filter: { path: (match[1] ?? '').slice(1).split('.'), op: match[2] === '!=' ? '!=' : '==', value: match[3] ?? match[4] ?? match[5] ?? '' } });
      }
    } else return undefined;
  }
  return steps;
}

function child(value: unknown, field: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[field] : undefined;
}

/** The values `path` selects in `root` (empty when none or when the path is not understood). */
export function evaluateJsonPath(root: unknown, path: string): unknown[] {
  const steps = parse(path.trim());
  if (steps === undefined) return [];
  let current: unknown[] = [root];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const value of current) {
      if ('field' in step) {
        const v = child(value, step.field);
        if (v !== undefined) next.push(v);
      } else if ('index' in step) {
        if (Array.isArray(value) && step.index < value.length) next.push(value[step.index]);
      } else if ('all' in step) {
        if (Array.isArray(value)) next.push(...(value as unknown[]));
        else if (typeof value === 'object' && value !== null) next.push(...Object.values(value));
      } else if (Array.isArray(value)) {
        for (const item of value as unknown[]) {
          let v: unknown = item;
          for (const segment of step.filter.path) v = child(v, segment);
          const text = v === undefined || v === null ? undefined : typeof v === 'object' ? JSON.stringify(v) : String(v as string | number | boolean);
          if ((step.filter.op === '==') === (text === step.filter.value)) next.push(item);
        }
      }
    }
    current = next;
  }
  return current;
}
