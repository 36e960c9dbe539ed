/**
 * How compileValue builds the objects and lists of a rendered tree, fast: every object node has a
 * precomputed skeleton (its keys in order, its constant scalars filled in) that a render copies in one
 * step and then completes with the values that need work. Nothing of the skeleton is shared with the
 * output: callers may mutate a rendered tree.
 */
import type { TemplateData } from './compile-template.js';
import { buildObject, SITE_KEYS } from './build-object.js';
import type { RenderState } from './state.js';

/** Builds one node of the output. */
export type Build = (state: RenderState, data: TemplateData) => unknown;

/** A compiled node: a scalar known at compile time (`undefined`: left out), or a builder run per render. */
export interface Compiled {
  readonly value: unknown;
  readonly build: Build | undefined;
}

/** A node known at compile time: a string without actions, a number, a boolean, null, or `undefined`. */
export function constant(value: unknown): Compiled {
  return { value, build: undefined };
}

/** A node that must be built per render. */
export function dynamic(build: Build): Compiled {
  return { value: undefined, build };
}

/** A copy of `out` without the keys whose value is `undefined` (the rare path: a missing single-action leaf). */
function withoutMissing(out: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(out)) {
    const value = out[key];
    if (value !== undefined) kept[key] = value;
  }
  return kept;
}

/**
 * An object without a `__proto__` key. The skeleton holds the constant scalars and a placeholder for
 * every built value, so that the copy already has its final shape (key order included) and the built
 * values only overwrite existing properties.
 */
export function objectBuilder(keys: readonly string[], children: readonly Compiled[]): Build {
  const skeleton: Record<string, unknown> = {};
  const builtKeys: string[] = [];
  const builds: Build[] = [];
  keys.forEach((key, i) => {
    const child = children[i];
    if (child === undefined) return;
    if (child.build !== undefined) {
      skeleton[key] = null;
      builtKeys.push(key);
      builds.push(child.build);
    } else if (child.value !== undefined) {
      skeleton[key] = child.value;
    }
  });
  const n = builds.length;
  const site = buildObject;
  if (n === 0) return () => site(skeleton, builtKeys, null, null, null, null, null, null);
  const none: Build = () => null;
  const [b0 = none, b1 = none, b2 = none, b3 = none, b4 = none, b5 = none] = builds;
  return (state, data) => {
    // Values are built in key order, then stored by buildObject (see build-object.ts); unused slots are null.
    const a = b0(state, data);
    const b = n > 1 ? b1(state, data) : null;
    const c = n > 2 ? b2(state, data) : null;
    const d = n > 3 ? b3(state, data) : null;
    const e = n > 4 ? b4(state, data) : null;
    const f = n > 5 ? b5(state, data) : null;
    const out = site(skeleton, builtKeys, a, b, c, d, e, f);
    let missing = a === undefined || b === undefined || c === undefined || d === undefined || e === undefined || f === undefined;
    for (let i = SITE_KEYS; i < n; i++) {
      const value = (builds[i] as Build)(state, data);
      if (value === undefined) missing = true;
      out[builtKeys[i] as string] = value;
    }
    return missing ? withoutMissing(out) : out;
  };
}

/** An object with a `__proto__` key (a definition may have one): every key is defined as an own data property. */
export function definingBuilder(keys: readonly string[], children: readonly Compiled[]): Build {
  return (state, data) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const child = children[i] as Compiled;
      const rendered = child.build === undefined ? child.value : child.build(state, data);
      if (rendered !== undefined) {
        Object.defineProperty(out, keys[i] as string, { value: rendered, enumerable: true, writable: true, configurable: true });
      }
    }
    return out;
  };
}

/** A list: constant items are copied, built items built in order; a missing (`undefined`) item is left out. */
export function listBuilder(items: readonly Compiled[]): Build {
  const n = items.length;
  if (items.every((item) => item.build === undefined)) {
    const values = items.map((item) => item.value).filter((value) => value !== undefined);
    return () => values.slice();
  }
  return (state, data) => {
    const out = new Array<unknown>(n);
    let length = 0;
    for (let i = 0; i < n; i++) {
      const item = items[i] as Compiled;
      const value = item.build === undefined ? item.value : item.build(state, data);
      if (value !== undefined) out[length++] = value;
    }
    if (length < n) out.length = length;
    return out;
  };
}
