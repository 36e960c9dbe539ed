/**
 * The compiled admission rules of one definition, found by the resource an AdmissionReview names. Built once per
 * router (or per tool): compiling the templates of every rule up front makes a bad template fail at creation.
 */
import type { CrdDefinition, Definition } from '../definition/index.js';
import { compileMutation, type MutationResult } from './mutation.js';
import { compileValidation, type Moment, type ValidationResult } from '../rules/validation.js';
import type { GroupVersionResource } from './review.js';
import { AdmissionCalls, DEFAULT_ADMISSION_CALL_BUDGET_MS as DEFAULT_BUDGET_MS, type AdmissionCallsOptions } from './admission-calls.js';

/** How the rules' external calls are made (router options). */
export type CallSettings = Pick<AdmissionCallsOptions, 'readSecret' | 'now' | 'budgetMs' | 'request' | 'protocols'>;

/** Label that marks a custom resource protected from deletion (Orkestra's). */
export const DELETION_PROTECTION_LABEL = 'orkestra.io/deletion-protection';

export interface CompiledCrdRules {
  readonly crd: CrdDefinition;
  readonly validate: (object: Record<string, unknown>, moment: Moment) => ValidationResult;
  readonly mutate: (object: Record<string, unknown>, moment: Moment) => MutationResult;
  /** `validation.external` / `mutation.external`, when declared. */
  readonly validationCalls?: AdmissionCalls;
  readonly mutationCalls?: AdmissionCalls;
}

/**
 * Rules by `group/resource` of every enabled CRD that declares admission rules. `peers` reads the custom resources
 * of a CRD (by name) for `operator: unique`; a definition with a unique rule at admission needs it, and without it
 * this throws (naming the rule) rather than admit duplicates unchecked.
 */
export function compileDefinitionRules(
  definition: Definition,
  peers?: (crd: string) => Iterable<Record<string, unknown>>,
  settings: CallSettings = { now: () => Date.now(), budgetMs: DEFAULT_BUDGET_MS },
): ReadonlyMap<string, CompiledCrdRules> {
  const byResource = new Map<string, CompiledCrdRules>();
  for (const crd of definition.crds.values()) {
    if (!crd.enabled || crd.admission === undefined) continue;
    const unique = crd.admission.validation.find((rule) => rule.operator === 'unique' && rule.atAdmission);
    if (unique !== undefined && peers === undefined) {
      throw new Error(`${unique.path} (operator: unique) needs the custom resources of CRD "${crd.name}": pass peers to createAdmissionRouter (for example (crd) => cachedObjects(runtime, crd)); see docs/admission.md`);
    }
    const validate = compileValidation(crd.admission.validation, crd.templateDialect, crd.notes);
    const crdPeers = peers === undefined ? undefined : () => peers(crd.name);
    const calls = (which: 'validation' | 'mutation'): { validationCalls?: AdmissionCalls } | { mutationCalls?: AdmissionCalls } => {
      const list = which === 'validation' ? crd.admission?.validationExternal : crd.admission?.mutationExternal;
      if (list === undefined || list.length === 0) return {};
      const secret = AdmissionCalls.needingSecrets(list)[0];
      if (secret !== undefined && settings.readSecret === undefined) {
        throw new Error(`spec.crds.${crd.name}.${which}.external: call "${secret}" reads auth.secretRef: pass readSecret to createAdmissionRouter; see docs/admission.md`);
      }
      const made = new AdmissionCalls({ name: `spec.crds.${crd.name}.${which}.external`, calls: list, dialect: crd.templateDialect, notes: crd.notes, ...settings });
      return which === 'validation' ? { validationCalls: made } : { mutationCalls: made };
    };
    byResource.set(`${crd.apiTypes.group}/${crd.apiTypes.plural}`, {
      crd,
      validate: (object, moment) => validate(object, moment, crdPeers),
      mutate: compileMutation(crd.admission.mutation, crd.templateDialect, crd.notes),
      ...calls('validation'),
      ...calls('mutation'),
    });
  }
  return byResource;
}

/** The rules for the resource of a request (any version: the definition serves one version per CRD). */
export function rulesFor(rules: ReadonlyMap<string, CompiledCrdRules>, resource: GroupVersionResource): CompiledCrdRules | undefined {
  return rules.get(`${resource.group}/${resource.resource}`);
}
