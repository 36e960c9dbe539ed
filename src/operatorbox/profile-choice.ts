/**
 * Rendering an entry whose profile is named by a template (docs/orkestra-compatibility.md#profiles-named-by-a-template).
 * The loader expanded the entry once per name the reference can take ({@link EntryProfileChoice}); here each
 * variant is compiled once when the CRD activates, and a render renders the name templates and looks the
 * variant up: no expansion, no YAML, per reconcile. A name that is not a profile of the class fails the reconcile
 * with an error naming the entry, the class, the name's template and the names known (retried with backoff, like any
 * render error). Orkestra logs a warning and builds the child without the profile's fields there
 * (pkg/resources/shared/resource.go ResolveResources); katalog does not apply a child it cannot build as declared.
 */
import type { EntryProfileChoice, ProfileReference, TemplateEntry } from '../definition/types.js';
import { KatalogError } from '../errors.js';
import type { CompiledValue, TemplateData } from '../template/index.js';

/** An entry's choice, compiled: the name templates, and the body of every combination of names. */
export interface CompiledProfileChoice {
  readonly choice: EntryProfileChoice;
  readonly names: readonly CompiledValue[];
  readonly bodies: ReadonlyMap<string, CompiledValue>;
  /** The entry's path, for messages. */
  readonly path: string;
}

/** Compiles `entry.profileChoice` with `compile` (the CRD's dialect, notes and limits); undefined when it has none. */
export function compileProfileChoice(entry: TemplateEntry, compile: (value: unknown, name: string) => CompiledValue): CompiledProfileChoice | undefined {
  const choice = entry.profileChoice;
  if (choice === undefined) return undefined;
  const names = choice.references.map((reference) => compile(reference.name, `${entry.path}.${reference.field}`));
  const bodies = new Map<string, CompiledValue>();
  for (const [key, fields] of Object.entries(choice.variants)) {
    const body: Record<string, unknown> = { ...entry.body };
    for (const field of choice.fields) delete body[field];
    for (const [field, value] of Object.entries(fields)) body[field] = value;
    bodies.set(key, compile(body, entry.path));
  }
  return { choice, names, bodies, path: entry.path };
}

/** The name `rendered` resolves to among the names expanded at load, as the literal name would resolve. */
function resolveName(reference: ProfileReference, rendered: string): string | undefined {
  if (reference.declared.includes(rendered)) return `d:${rendered}`;
  const builtin = reference.caseless ? rendered.toLowerCase() : rendered;
  return reference.builtin.includes(builtin) ? `b:${builtin}` : undefined;
}

/** The names that resolve, declared first (the message is cut at 256 characters in a condition; logs keep it whole). */
function known(reference: ProfileReference): string {
  return [...new Set([...reference.declared, ...reference.builtin])].join(', ');
}

/** The compiled body to render for `data`: the entry's own, or the variant its rendered profile names choose. */
export function bodyFor(compiled: { readonly body: CompiledValue; readonly choice?: CompiledProfileChoice | undefined }, data: TemplateData): CompiledValue {
  const choice = compiled.choice;
  if (choice === undefined) return compiled.body;
  const keys: string[] = [];
  choice.choice.references.forEach((reference, index) => {
    const value = choice.names[index]?.render(data);
    const rendered = value === undefined || value === null ? '' : String(value as string | number | boolean).trim();
    const name = resolveName(reference, rendered);
    if (name === undefined) {
      // The rendered name is custom-resource data: the message (Ready=False, Events, the inspection API's last
      // error) gives its length, never its text (docs/inspection-api.md#what-the-inspection-api-never-shows).
      const got = rendered === '' ? 'an empty name' : `a name (${rendered.length} characters)`;
      throw new KatalogError(
        'E_PROFILE',
        `${choice.path}.${reference.field}: "${reference.name}" rendered ${got} that is no ${reference.label} profile (profiles.${reference.profileClass}); known: ${known(reference)}`,
      );
    }
    keys.push(name);
  });
  const body = choice.bodies.get(keys.join('\n'));
  if (body === undefined) throw new KatalogError('E_PROFILE', `${choice.path}: no expansion for the profiles ${keys.join(', ')} (a katalog bug)`);
  return body;
}
