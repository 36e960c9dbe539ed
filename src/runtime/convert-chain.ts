/**
 * A CRD's convert stage, as one function: the registered converter, then validation against the registered schema
 * (typed mode), then Orkestra's `normalize` (in memory, never written back). Each step only when declared.
 */
import type { TSchema } from 'typebox';
import type { CrdDefinition } from '../definition/types.js';
import type { KubeObject } from '../kube/resource.js';
import { convertStage, type ConverterRegistry, type ConvertContext } from '../operatorbox/converters.js';
import { compileNormalize, withNormalize } from '../operatorbox/normalize.js';
import { schemaStage } from '../operatorbox/typed-schema.js';

/**
 * Compiles the chain once, when the CRD activates; throws a TemplateError when a normalize template does not
 * compile. `now` is the runtime's clock, read by normalize's clock notes.
 */
export function convertChain(
  crd: CrdDefinition,
  context: ConvertContext,
  converters: ConverterRegistry | undefined,
  schema: TSchema | undefined,
  now?: () => number,
): (object: KubeObject) => KubeObject {
  const convert = convertStage(converters?.get(crd.name), context);
  const validate = schema === undefined ? undefined : schemaStage(crd.name, schema);
  const checked = validate === undefined ? convert : (object: KubeObject): KubeObject => validate(convert(object));
  const normalize = crd.normalize === undefined ? undefined : compileNormalize(crd.name, crd.normalize, crd.templateDialect, crd.notes, now);
  return withNormalize(checked, normalize);
}
