/**
 * In-process converters (SPEC §3.3) for CRDs whose versions differ in shape but that have no conversion webhook.
 *
 * The runtime reads custom resources at the internal version, and the API server converts what it stores. Without
 * a webhook (`conversion.strategy: None`) it only rewrites `apiVersion`: an object written as v1alpha1 arrives
 * labelled v1 but still shaped like v1alpha1. A converter registered for the CRD sees every object before templates
 * and hooks do and returns it in the internal version's shape. It runs on every reconcile, so it must accept
 * objects that already have that shape (and return them unchanged).
 */
import { RuntimeError } from '../errors.js';
import type { KubeObject } from '../kube/resource.js';

/** What a converter knows besides the object. */
export interface ConvertContext {
  /** The CRD's name in the Katalog. */
  readonly crd: string;
  /** The internal version (`v1`): the shape to return. */
  readonly version: string;
  /** `group/version` of the internal version. */
  readonly apiVersion: string;
}

/**
 * Converts one object to the internal version's shape. It receives a private copy: it may change it in place and
 * return nothing, or return a new object. Throwing fails the reconcile (retried with backoff).
 */
export type Converter = (object: KubeObject, context: ConvertContext) => KubeObject | void;

/** Converters by CRD name; one per CRD. */
export class ConverterRegistry {
  private readonly converters = new Map<string, Converter>();

  /** Registers the converter of a CRD (replacing an earlier one). Takes effect when the CRD next activates. */
  register(crd: string, converter: Converter): void {
    if (crd === '') throw new RuntimeError('E_REGISTRATION', 'a converter needs the name of its CRD');
    if (typeof converter !== 'function') throw new RuntimeError('E_REGISTRATION', `converter for ${crd}: expected a function`);
    this.converters.set(crd, converter);
  }

  get(crd: string): Converter | undefined {
    return this.converters.get(crd);
  }
}

/**
 * The convert stage of a CRD: the identity without a converter; otherwise the converter, with `apiVersion` set to
 * the internal version afterwards and a result that is not an object reported as an error.
 */
export function convertStage(converter: Converter | undefined, context: ConvertContext): (object: KubeObject) => KubeObject {
  if (converter === undefined) return (object) => object;
  return (object) => {
    const result = converter(object, context) ?? object;
    if (typeof result !== 'object' || result === null || Array.isArray(result)) {
      throw new RuntimeError('E_CONVERT', `the converter of ${context.crd} returned ${Array.isArray(result) ? 'a list' : typeof result}; expected the object`);
    }
    result.apiVersion = context.apiVersion;
    return result;
  };
}
