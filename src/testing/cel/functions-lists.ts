/**
 * CEL's list functions on a receiver: `size`, `join`, Kubernetes' list library (`isSorted`, `sum`, `min`, `max`,
 * `indexOf`, `lastIndexOf`) and the lists extension's `distinct`, `flatten`, `reverse`, `slice`, `sort`.
 */
import { arithmetic, asInt, asString, size } from './operators.js';
import { CelUnsupported } from './parser.js';
import { CelEvalError, celCompare, celEqual, isList, noOverload, type CelValue } from './values.js';

function sortedCheck(list: readonly CelValue[]): boolean {
  for (let i = 1; i < list.length; i++) {
    const order = celCompare(list[i - 1] ?? null, list[i] ?? null);
    if (order === undefined) throw noOverload('isSorted', [list]);
    if (order > 0) return false;
  }
  return true;
}

function extreme(name: 'min' | 'max', list: readonly CelValue[]): CelValue {
  const [first, ...rest] = list;
  if (first === undefined) throw new CelEvalError(`${name}(list) argument must not be empty`);
  let best = first;
  for (const item of rest) {
    const order = celCompare(item, best);
    if (order === undefined) throw noOverload(name, [list]);
    if (name === 'min' ? order < 0 : order > 0) best = item;
  }
  return best;
}

function sum(list: readonly CelValue[]): CelValue {
  let total: CelValue = 0n;
  for (const [i, item] of list.entries()) total = i === 0 ? item : arithmetic('+', total, item);
  return total;
}

export function listFunction(name: string, target: readonly CelValue[], args: readonly CelValue[]): CelValue {
  switch (name) {
    case 'size':
      return size(target);
    case 'join': {
      const separator = args.length > 0 ? asString(name, args[0], [target, ...args]) : '';
      return target.map((item) => asString(name, item, [target])).join(separator);
    }
    case 'isSorted':
      return sortedCheck(target);
    case 'sum':
      return sum(target);
    case 'min':
    case 'max':
      return extreme(name, target);
    case 'indexOf':
      return BigInt(target.findIndex((item) => celEqual(item, args[0] ?? null)));
    case 'lastIndexOf':
      return BigInt(target.findLastIndex((item) => celEqual(item, args[0] ?? null)));
    case 'distinct':
      return target.filter((item, i) => target.findIndex((other) => celEqual(other, item)) === i);
    case 'flatten':
      return target.flatMap((item) => (isList(item) ? item : [item]));
    case 'reverse':
      return [...target].reverse();
    case 'slice': {
      const start = Number(asInt(name, args[0], [target, ...args]));
      const end = Number(asInt(name, args[1], [target, ...args]));
      if (start < 0 || end > target.length || start > end) throw new CelEvalError(`cannot slice(${start}, ${end}), list is length ${target.length}`);
      return target.slice(start, end);
    }
    case 'sort':
      if (target.some((item) => celCompare(item, target[0] ?? null) === undefined)) throw noOverload('sort', [target]);
      return [...target].sort((a, b) => celCompare(a, b) ?? 0);
    default:
      throw new CelUnsupported(`list function ${name}`);
  }
}
