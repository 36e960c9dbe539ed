/**
 * CEL's string functions on a receiver: `contains`, `startsWith`, `endsWith`, `matches` (a partial match, as RE2's),
 * `size`, and the strings extension's `charAt`, `indexOf`, `lastIndexOf`, `lowerAscii`, `upperAscii`, `replace`,
 * `split`, `substring`, `trim` (positions counted in code points).
 */
import { asInt, asString, codePoints, size } from './operators.js';
import { CelUnsupported } from './parser.js';
import { CelEvalError, type CelValue } from './values.js';

export function regexp(pattern: string): RegExp {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    // An RE2 pattern JavaScript cannot read: the rule cannot be judged here.
    throw new CelUnsupported(`regular expression ${pattern}`);
  }
}

export function stringFunction(name: string, target: string, args: readonly CelValue[]): CelValue {
  const all = [target, ...args];
  const chars = (): string[] => codePoints(target);
  switch (name) {
    case 'contains':
      return target.includes(asString(name, args[0], all));
    case 'startsWith':
      return target.startsWith(asString(name, args[0], all));
    case 'endsWith':
      return target.endsWith(asString(name, args[0], all));
    case 'matches':
      return regexp(asString(name, args[0], all)).test(target);
    case 'size':
      return size(target);
    case 'lowerAscii':
      return target.replace(/[A-Z]/g, (c) => c.toLowerCase());
    case 'upperAscii':
      return target.replace(/[a-z]/g, (c) => c.toUpperCase());
    case 'trim':
      return target.trim();
    case 'charAt': {
      const at = Number(asInt(name, args[0], all));
      const list = chars();
      if (at < 0 || at > list.length) throw new CelEvalError(`index out of range: ${at}`);
      return list[at] ?? '';
    }
    case 'indexOf':
    case 'lastIndexOf': {
      const needle = asString(name, args[0], all);
      const list = chars();
      const needleChars = codePoints(needle);
      const offset = args.length > 1 ? Number(asInt(name, args[1], all)) : name === 'indexOf' ? 0 : list.length;
      if (offset < 0 || offset > list.length) throw new CelEvalError(`index out of range: ${offset}`);
      const matchesAt = (i: number): boolean => needleChars.every((c, j) => list[i + j] === c);
      if (name === 'indexOf') {
        for (let i = offset; i + needleChars.length <= list.length; i++) if (matchesAt(i)) return BigInt(i);
      } else {
        for (let i = Math.min(offset, list.length - needleChars.length); i >= 0; i--) if (matchesAt(i)) return BigInt(i);
      }
      return -1n;
    }
    case 'replace': {
      const from = asString(name, args[0], all);
      const to = asString(name, args[1], all);
      const limit = args.length > 2 ? Number(asInt(name, args[2], all)) : -1;
      if (limit < 0) return target.split(from).join(to);
      let out = target;
      let at = 0;
      for (let n = 0; n < limit; n++) {
        const found = out.indexOf(from, at);
        if (found < 0) break;
        out = out.slice(0, found) + to + out.slice(found + from.length);
        at = found + to.length;
      }
      return out;
    }
    case 'split': {
      const separator = asString(name, args[0], all);
      const limit = args.length > 1 ? Number(asInt(name, args[1], all)) : -1;
      if (limit === 0) return [];
      const parts = separator === '' ? chars() : target.split(separator);
      if (limit < 0 || parts.length <= limit) return parts;
      return [...parts.slice(0, limit - 1), parts.slice(limit - 1).join(separator)];
    }
    case 'substring': {
      const list = chars();
      const start = Number(asInt(name, args[0], all));
      const end = args.length > 1 ? Number(asInt(name, args[1], all)) : list.length;
      if (start < 0 || start > list.length) throw new CelEvalError(`index out of range: ${start}`);
      if (end < 0 || end > list.length) throw new CelEvalError(`index out of range: ${end}`);
      if (end < start) throw new CelEvalError(`invalid substring range. start: ${start}, end: ${end}`);
      return list.slice(start, end).join('');
    }
    default:
      throw new CelUnsupported(`string function ${name}`);
  }
}
