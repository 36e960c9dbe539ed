/**
 * A template entry whose profile is named by a template (`resources: {profile: "{{ .spec.size }}"}`): the frozen
 * form of Orkestra's per-reconcile profile lookup (docs/orkestra-compatibility.md#profiles-named-by-a-template).
 * Every name the reference can take is expanded at load, exactly as the literal name would be; rendering picks one.
 */

/** One `profile` field of the entry that is a template. */
export interface ProfileReference {
  /** Where it is in the entry, as written (`resources.profile`, `probes.readiness.profile`, `behavior.profile`). */
  readonly field: string;
  /** The profile class (`resources`, `probes`...), as the `profiles:` block names it. */
  readonly profileClass: string;
  /** The class for messages (`resource`, `probe`, `HPA behavior`...). */
  readonly label: string;
  /** The template that renders the name. */
  readonly name: string;
  /** User-defined names (matched as written). */
  readonly declared: readonly string[];
  /** Orkestra's built-in names (lower case) a literal can reach past the declared ones. */
  readonly builtin: readonly string[];
  /** Whether a built-in name matches whatever its case (every class but probes, as in Orkestra). */
  readonly caseless: boolean;
}

/** The references of an entry and, for every combination of names they can take, the body fields it changes. */
export interface EntryProfileChoice {
  /** The templated `profile` fields of the entry, in a fixed order (the order of the names in a variant's key). */
  readonly references: readonly ProfileReference[];
  /**
   * Keyed by the names joined with `\n` (one per reference, in order; `d:<name>` a declared profile, `b:<name>` a
   * built-in): the top-level body fields whose value depends on the names, as the literal names expand them; a
   * field absent here is absent from that body.
   */
  readonly variants: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** The fields any variant sets or removes. */
  readonly fields: readonly string[];
}
