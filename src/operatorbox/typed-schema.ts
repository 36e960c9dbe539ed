/**
 * Typed mode (SPEC §2.2 `mode: typed`): a TypeBox schema registered in code validates every object before
 * templates, hooks or a reconciler see it. An object that does not match fails its reconcile with a message that
 * lists what is wrong (and so shows in its Ready condition); nothing else runs for it.
 */
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { RuntimeError } from '../errors.js';
import { keyOf, type KubeObject } from '../kube/resource.js';

const SHOWN = 5;

/** The validation step of a CRD with a registered schema. */
export function schemaStage(crd: string, schema: TSchema): (object: KubeObject) => KubeObject {
  return (object) => {
    const candidate: unknown = object;
    if (Value.Check(schema, candidate)) return object;
    const errors = [...Value.Errors(schema, object)];
    const listed = errors.slice(0, SHOWN).map((error) => `${error.instancePath === '' ? '/' : error.instancePath}: ${error.message}`);
    const more = errors.length > SHOWN ? `; and ${errors.length - SHOWN} more` : '';
    throw new RuntimeError('E_SCHEMA', `${object.kind ?? crd} ${keyOf(object)} does not match the schema registered for CRD ${crd}: ${listed.join('; ')}${more}`);
  };
}
