/**
 * Orkestra's apiVersions and generations, and the table of Orkestra features katalog refuses (with the reason
 * and the anchor of docs/orkestra-compatibility.md that explains it). The refusal message names the feature,
 * its generation and the page; it is never an "unknown field".
 */
export const ORKESTRA_API_VERSIONS = ['orkestra.orkspace.io/v1', 'orkestra.konductor.io/v1Alpha', 'controller.orkestra.io/v1'] as const;

export const COMPATIBILITY_PAGE = 'docs/orkestra-compatibility.md';

/** Which generation of Orkestra's format a field belongs to, for messages. */
export type Generation = 'early' | 'documented' | 'current';

export const GENERATION_NAMES: Readonly<Record<Generation, string>> = {
  early: 'early Orkestra (iAlexeze/orkestra, "reconciler:" form)',
  documented: 'documented Orkestra (docs.orkestra.sh schema)',
  current: 'current Orkestra (orkspace/orkestra, operatorBox.reconciler form)',
};

export function isOrkestraApiVersion(value: unknown): boolean {
  return typeof value === 'string' && (ORKESTRA_API_VERSIONS as readonly string[]).includes(value);
}

/** A refused feature: why it cannot (or does not yet) work in katalog, and where the page explains it. */
export interface Refusal {
  readonly feature: string;
  readonly reason: string;
  readonly anchor: string;
}

/** Why rollback is refused: Orkestra's own code marks it unfinished and runs none of it. */
const ROLLBACK_UNFINISHED =
  'Orkestra marks rollback "IN DEVELOPMENT" and does not run it (orkspace/orkestra pkg/types/types_operatorbox.go @ 21ac6793, the comments of OperatorBoxConfig.Rollback and RollBackOnError), so there is no settled behaviour to match; keep rollBackOnError: false or delete it';

const CLI = "it is an input of Orkestra's own command line (ork), which katalog does not replace";

/** Refused fields of a CRD entry, by key. */
export const REFUSED_CRD_FIELDS: Readonly<Record<string, Refusal>> = {
  serve: { feature: 'serve (custom resources over the gateway)', reason: "it needs Orkestra's gateway", anchor: 'refused-runtime-services' },
  removeFinalizers: {
    feature: 'removeFinalizers',
    reason:
      "a testing switch of Orkestra whose meaning is not settled there (its docs: strip all finalizers on deletion; its reconciler: add the declared finalizers only when it is set); katalog adds its finalizers only when deletion needs work and removes them after the delete path, so delete the field",
    anchor: 'removefinalizers',
  },
};

/** Refused fields of an operatorBox (or of its reconciler block), by key. */
export const REFUSED_BOX_FIELDS: Readonly<Record<string, Refusal>> = {
  providers: { feature: 'providers', reason: 'Orkestra providers are Go plug-ins; write a hook instead', anchor: 'refused-runtime-services' },
  rollback: { feature: 'rollback (failure-recovery block)', reason: ROLLBACK_UNFINISHED, anchor: 'rollback' },
};

/** `rollBackOnError: true` (`false` is a no-op and is accepted). */
export const ROLLBACK_ON_ERROR: Refusal = { feature: 'rollBackOnError: true', reason: ROLLBACK_UNFINISHED, anchor: 'rollback' };

/** The keys Orkestra's `observe` block has; any other is refused with {@link observeKeyRefusal}. */
export const ORKESTRA_OBSERVE_KEYS = ['watch', 'events', 'include'] as const;

/** A key of `observe` that Orkestra's Observe type does not have. */
export function observeKeyRefusal(key: string): Refusal {
  return {
    feature: `observe.${key}`,
    reason: `Orkestra's observe block has only ${ORKESTRA_OBSERVE_KEYS.join(', ')} (orkspace/orkestra pkg/types/types_observe.go, type Observe); a watch entry's own keys (index, on, keyFrom, enqueueGate) go under observe.watch[]`,
    anchor: 'observe-keys',
  };
}

/** Refused fields of a template entry, by key. */
export const REFUSED_ENTRY_FIELDS: Readonly<Record<string, Refusal>> = {
};

/** Refused top-level blocks of a document. */
export const REFUSED_DOCUMENT_FIELDS: Readonly<Record<string, Refusal>> = {
  helm: { feature: 'Helm sources', reason: 'they need a Helm binary and chart repositories', anchor: 'komposer-sources' },
  registry: { feature: 'registry sources (OCI or git patterns)', reason: CLI + ' (ork pull)', anchor: 'komposer-sources' },
  providers: { feature: 'providers', reason: 'Orkestra providers are Go plug-ins; write a hook instead', anchor: 'refused-runtime-services' },
  endpoints: { feature: 'Katalog-wide endpoints switches', reason: 'the inspection router always serves its six routes', anchor: 'refused-runtime-services' },
};

/** Orkestra template kinds katalog has no short form for yet (none left: every kind of Orkestra's has one). */
export const REFUSED_TEMPLATE_KINDS: Readonly<Record<string, string>> = {};

/**
 * Keys current Orkestra (`pkg/types/types_hook_templates.go`) uses for template kinds that katalog, like Orkestra's
 * documentation and inspection API, names in full; the lift renames them.
 */
export const ORKESTRA_TEMPLATE_KIND_ALIASES: Readonly<Record<string, string>> = {
  hpa: 'horizontalPodAutoscalers',
  pdb: 'podDisruptionBudgets',
  custom: 'customResource',
};

/** The message of a refusal. */
export function refusalMessage(refusal: Refusal, written: string): string {
  return `${refusal.feature} ("${written}") is not supported by katalog: ${refusal.reason}; see ${COMPATIBILITY_PAGE}#${refusal.anchor}`;
}

/**
 * Fields that only Orkestra's formats have, with their generation: for katalog.dev/v1 documents, where they
 * are errors that say which Orkestra generation they come from.
 */
export const ORKESTRA_ONLY_CRD_FIELDS: Readonly<Record<string, Generation>> = {
  reconciler: 'early',
  namespaced: 'documented',
  crFiles: 'current',
  setup: 'current',
  endpoints: 'early',
};
