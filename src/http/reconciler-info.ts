/**
 * The `reconciler` object of `/katalog/{crd}` (SPEC §4.5, §6): what runs a CRD's reconcile and where each piece
 * comes from. Pure: built from the normalised definition and the code the runtime resolved for the CRD.
 *
 * Decisions where the spec is silent (docs/inspection-api.md):
 * - `hooks` and `constructor` always carry all three keys; when nothing is configured they read
 *   `{"configured":false,"source":null,"function":null}`.
 * - Their `source` is the code registry's answer: `yaml` when the definition names the function and code is
 *   registered under that name, `code` when code is registered for the CRD directly (it wins over the name in the
 *   definition). A name in the definition with no code behind it yet (before `start()`, which refuses to start
 *   without it) still reads `yaml`.
 * - `finalizers.values` lists what katalog puts on a custom resource whose deletion needs it (SPEC §4.5, the
 *   finalizer rule in docs/reliability.md): for the generic box, `katalog.dev/cleanup` followed by the declared ones;
 *   for a custom constructor, nothing (the constructor manages its own). Whether a given resource carries them
 *   depends on what it renders (children out of garbage collection's reach), so it is not a per-CRD fact here.
 *   `source` is `yaml` when the generic box adds finalizers the definition declares, else `code` (katalog's own
 *   cleanup finalizer alone, or a constructor, which manages finalizers in its own code).
 * - `templates` counts entries per phase and kind; kinds with no entry and phases with no entry are left out,
 *   so a CRD without templates has `"templates":{}`.
 */
import { TEMPLATE_KINDS, type CrdDefinition, type TemplateKind, type TemplatePhase } from '../definition/types.js';
import { CLEANUP_FINALIZER } from '../operatorbox/generic-box.js';
import { declaredConstructor, type CodeSource, type ResolvedCode } from '../runtime/code-registry.js';

/** Whether hooks (or a constructor) are configured, where they come from, and the name they go by. */
export interface CodeInfo {
  readonly configured: boolean;
  readonly source: CodeSource | null;
  readonly function: string | null;
}

export type TemplatePhaseName = 'onCreate' | 'onReconcile' | 'onDelete';

export interface ReconcilerInfo {
  readonly type: 'generic' | 'custom';
  readonly hooks: CodeInfo;
  readonly constructor: CodeInfo;
  readonly finalizers: { readonly values: readonly string[]; readonly source: CodeSource };
  readonly templates: Readonly<Partial<Record<TemplatePhaseName, Readonly<Partial<Record<TemplateKind, number>>>>>>;
}

const PHASES: readonly TemplatePhaseName[] = ['onCreate', 'onReconcile', 'onDelete'];

const NOT_CONFIGURED: CodeInfo = Object.freeze({ configured: false, source: null, function: null });

/** The reconciler object of a CRD; `code` is what the runtime resolved for it (undefined: nothing registered). */
export function reconcilerInfo(crd: CrdDefinition, code: ResolvedCode | undefined): ReconcilerInfo {
  const box = crd.operatorBox;
  const declaredHooks = box.hooks;
  const declaredCtor = declaredConstructor(crd);
  const generic = box.default;
  return {
    type: generic ? 'generic' : 'custom',
    hooks: codeInfo(code?.hooks, declaredHooks?.function),
    constructor: codeInfo(code?.constructor, declaredCtor?.function),
    finalizers: {
      values: generic ? [CLEANUP_FINALIZER, ...crd.finalizers.filter((f) => f !== CLEANUP_FINALIZER)] : [],
      source: generic && crd.finalizers.length > 0 ? 'yaml' : 'code',
    },
    templates: templateCounts(box),
  };
}

function codeInfo(resolved: { readonly name: string; readonly source: CodeSource } | undefined, declared: string | undefined): CodeInfo {
  if (resolved !== undefined) return { configured: true, source: resolved.source, function: resolved.name };
  if (declared !== undefined) return { configured: true, source: 'yaml', function: declared };
  return NOT_CONFIGURED;
}

function templateCounts(box: Readonly<Record<TemplatePhaseName, TemplatePhase>>): ReconcilerInfo['templates'] {
  const result: Partial<Record<TemplatePhaseName, Partial<Record<TemplateKind, number>>>> = {};
  for (const phase of PHASES) {
    const entries = box[phase];
    let counts: Partial<Record<TemplateKind, number>> | undefined;
    for (const kind of TEMPLATE_KINDS) {
      const n = entries[kind]?.length ?? 0;
      if (n === 0) continue;
      counts ??= {};
      counts[kind] = n;
    }
    if (counts !== undefined) result[phase] = counts;
  }
  return result;
}
