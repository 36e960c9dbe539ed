/**
 * Data functions: toJson fromJson b64enc b64dec sha256sum index len.
 */
import { createHash } from 'node:crypto';
import { failTooLarge, FunctionFailure } from './failure.js';
import { fixed, variadic, type FunctionContext, type TemplateFunction } from './function-type.js';
import { countCodePoints, getKey, isForbiddenKey, isMap, kindOf, printValue, toJson } from './values.js';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function text(value: unknown, context: FunctionContext): string {
  return typeof value === 'string' ? value : printValue(value, context.maxLength, context.maxDepth);
}

/** One step of `index`: a list by integer position, a map by key; missing containers and positions give missing. */
function indexOnce(container: unknown, key: unknown): unknown {
  if (container === undefined || container === null) return undefined;
  if (Array.isArray(container)) {
    const position = typeof key === 'string' && /^\d+$/.test(key) ? Number(key) : key;
    if (typeof position !== 'number' || !Number.isInteger(position)) {
      throw new FunctionFailure(`index: a list needs an integer position, got a ${kindOf(key)}`);
    }
    return position >= 0 && position < container.length ? (container[position] as unknown) : undefined;
  }
  if (isMap(container)) {
    if (typeof key !== 'string' && typeof key !== 'number') throw new FunctionFailure(`index: a map needs a string key, got a ${kindOf(key)}`);
    return getKey(container, String(key));
  }
  return undefined;
}

export const DATA_FUNCTIONS: Readonly<Record<string, TemplateFunction>> = {
  toJson: fixed(1, ([value], context) => toJson(value ?? null, context.maxLength, context.maxDepth)),
  fromJson: fixed(1, ([value], context) => {
    const source = text(value, context);
    try {
      return JSON.parse(source) as unknown;
    } catch {
      // JSON.parse quotes the text it could not read; the text comes from the data, so only its size is said.
      throw new FunctionFailure(`fromJson: the text (${source.length} characters) is not valid JSON`);
    }
  }),
  b64enc: fixed(1, ([value], context) => {
    const source = text(value, context);
    if (Math.ceil(source.length / 3) * 4 > context.maxLength) failTooLarge('the result of b64enc', context.maxLength);
    return Buffer.from(source, 'utf8').toString('base64');
  }),
  b64dec: fixed(1, ([value], context) => {
    const source = text(value, context);
    if (!BASE64.test(source)) throw new FunctionFailure('b64dec: the text is not valid base64');
    return Buffer.from(source, 'base64').toString('utf8');
  }),
  sha256sum: fixed(1, ([value], context) => createHash('sha256').update(text(value, context), 'utf8').digest('hex')),
  index: variadic(1, ([container, ...keys]) => keys.reduce<unknown>((current, key) => indexOnce(current, key), container)),
  len: fixed(1, ([value]) => {
    if (value === undefined || value === null) return 0;
    if (typeof value === 'string') return countCodePoints(value);
    if (Array.isArray(value)) return value.length;
    if (isMap(value)) return Object.keys(value).filter((k) => !isForbiddenKey(k)).length;
    throw new FunctionFailure(`len: a ${kindOf(value)} has no length`);
  }),
};
