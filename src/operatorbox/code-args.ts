/**
 * The `args` of a CRD's hooks or constructor as code receives them (docs/orkestra-compatibility.md#hook-and-
 * constructor-args), as Orkestra's kubeclient hands them (`WithArgs`, `ScopedFor`, `ResolveArgsMap`):
 *
 * - hooks: every text containing `{{`, at the top or inside nested maps, is a template rendered against the object
 *   being reconciled (the same data and functions as its templates) and handed over as text; other values (numbers,
 *   booleans, lists, texts without `{{`) as written. A template that fails fails the reconcile (retried with
 *   backoff), where Orkestra hands the hook the unrendered text. `onNotFound` (no object) gets them as written.
 * - a constructor: as written, in {@link ConstructorDeps.args} and every reconciler context (Orkestra's
 *   constructors render their args themselves).
 *
 * Compiled once per CRD activation; each hook call gets a fresh copy, so a hook may change its own.
 */
import type { CrdDefinition } from '../definition/types.js';
import type { KubeObject } from '../kube/resource.js';
import { compileTemplate, type CompiledTemplate, type TemplateLimits } from '../template/index.js';
import { templateData, type ChildrenView } from './template-data.js';

export type Args = Readonly<Record<string, unknown>>;

/** The args of one CRD's code, ready to hand over. */
export interface CodeArgs {
  /** As written in the definition. */
  readonly written: Args;
  /** For a hook's object: templates rendered. Absent for a constructor (it gets them as written). */
  render?(object: KubeObject, children: ChildrenView): Args;
}

type Compiled = { readonly template: CompiledTemplate } | { readonly map: Readonly<Record<string, Compiled>> } | { readonly value: unknown };

const NONE: CodeArgs = Object.freeze({ written: Object.freeze({}) });

/** The args of the CRD's hooks (generic box) or constructor; empty when none are declared. `now`: the runtime's clock, for the clock notes. */
export function codeArgs(crd: CrdDefinition, limits?: Partial<TemplateLimits>, now?: () => number): CodeArgs {
  const box = crd.operatorBox;
  if (!box.default) return box.constructor?.args === undefined ? NONE : { written: box.constructor.args };
  const written = box.hooks?.args;
  if (written === undefined) return NONE;
  const dialect = crd.templateDialect ?? 'katalog';
  const options = { dialect, ...(crd.notes === undefined ? {} : { notes: crd.notes }), ...(limits === undefined ? {} : { limits }), ...(now === undefined ? {} : { now }) };
  const compile = (value: unknown, name: string): Compiled => {
    if (typeof value === 'string' && value.includes('{{')) return { template: compileTemplate(value, { ...options, name }) };
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return { map: Object.fromEntries(Object.entries(value).map(([key, item]) => [key, compile(item, `${name}.${key}`)])) };
    }
    return { value };
  };
  const root = compile(written, `spec.crds.${crd.name}.operatorBox.hooks.args`);
  return {
    written,
    render: (object, children) => renderArgs(root, templateData(object, children, {}, dialect)) as Args,
  };
}

function renderArgs(compiled: Compiled, data: Readonly<Record<string, unknown>>): unknown {
  if ('template' in compiled) return compiled.template.renderString(data);
  if ('map' in compiled) return Object.fromEntries(Object.entries(compiled.map).map(([key, item]) => [key, renderArgs(item, data)]));
  return structuredClone(compiled.value);
}
