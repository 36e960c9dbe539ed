/**
 * Building an object node of a compiled tree: copy its skeleton (the keys in order, constant values filled in),
 * then store the templated values. Copying a skeleton with spread lets V8 copy the object's shape in one step,
 * and the stores then overwrite keys that already exist, so no shape transitions happen per render.
 *
 * (A pool of identical copies of this function, one per object shape, made object building about twice as fast
 * again by keeping V8's caches per shape; we measured it and chose one readable function instead: a manifest
 * renders in about 3 µs, three orders of magnitude below the API write that applies it. docs/templates.md.)
 */

/**
 * Copies `skeleton` (own enumerable properties, in order) into a new plain object, then stores `a` at
 * `keys[0]`, `b` at `keys[1]`... for as many keys as there are (at most six; the caller stores the rest).
 */
export type BuildSite = (
  skeleton: Readonly<Record<string, unknown>>,
  keys: readonly string[],
  a: unknown,
  b: unknown,
  c: unknown,
  d: unknown,
  e: unknown,
  f: unknown,
) => Record<string, unknown>;

/** The most keys a {@link BuildSite} stores. */
export const SITE_KEYS = 6;

/** Unrolled stores (no array per call): nested so that an object with n templated keys makes n stores. */
export const buildObject: BuildSite = (skeleton, keys, a, b, c, d, e, f) => {
  const out: Record<string, unknown> = { ...skeleton };
  const n = keys.length;
  if (n > 0) {
    out[keys[0] as string] = a;
    if (n > 1) {
      out[keys[1] as string] = b;
      if (n > 2) {
        out[keys[2] as string] = c;
        if (n > 3) {
          out[keys[3] as string] = d;
          if (n > 4) {
            out[keys[4] as string] = e;
            if (n > 5) out[keys[5] as string] = f;
          }
        }
      }
    }
  }
  return out;
};
