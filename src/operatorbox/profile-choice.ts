/**
 * Rendering an entry whose profile is named by a template (docs/orkestra-compatibility.md#profiles-named-by-a-template).
 * The loader expanded the entry once per name the reference can take ({@link EntryProfileChoice}); here each
 * variant is compiled once when the CRD activates, and a render renders the name templates and looks the
 * variant up: no expansion, no YAML, per reconcile. A name that is not a profile of the class fails the reconcile
 * with an error naming the entry, the class, the name and the names known (retried with backoff, like any
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
  if (reference.declared.includes(rendered)) return rendered;
  const builtin = reference.caseless ? rendered.toLowerCase() : rendered;
  return reference.builtin.includes(builtin) ? builtin : undefined;
}

function known(reference: ProfileReference): string {
  const parts: string[] = [];
  if (reference.declared.length > 0) parts.push(`declared ${reference.declared.join(', ')}`);
  if (reference.builtin.length > 0) parts.push(`built-in ${reference.builtin.join(', ')}`);
  return parts.join('; ');
}

/** Longest rendered name quoted in a message. */
const SHOWN = 63;

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
      const shown = rendered.length > SHOWN ? `${rendered.slice(0, SHOWN)}...` : rendered;
      throw new KatalogError(
        'E_PROFILE',
        `${choice.path}.${reference.field}: unknown ${reference.label} profile "${shown}" (profiles.${reference.profileClass}), named by "${reference.name}"; known: ${known(reference)}`,
      );
    }
    keys.push(name);
  });
  const body = choice.bodies.get(keys.join('\n'));
  if (body === undefined) throw new KatalogError('E_PROFILE', `${choice.path}: no expansion for the profiles ${keys.join(', ')} (a katalog bug)`);
  return body;
}
