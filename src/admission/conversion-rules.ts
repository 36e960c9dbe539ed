/**
 * The conversion rules of a definition, compiled once: for each group and kind, the storage version, the declared
 * paths (Orkestra's `conversion.paths`, their spec templates compiled) and the TypeScript converter the host
 * registered for the CRD. {@link convertObject} converts one object as Orkestra's webhook does
 * (`health/conversion_logic.go`): the same version only gets its apiVersion; a declared (from, to) path replaces
 * `spec` with its rendered spec; everything else (metadata, status) is kept; a pair no path declares is an error.
 */
import type { ConversionPath, Definition } from '../definition/index.js';
import { KatalogError, toError } from '../errors.js';
import { compileValue, type CompiledValue } from '../template/index.js';

/**
 * Converts a custom resource to `toVersion` (a bare version, `v1`) in code. It receives a private copy of the
 * object and returns the converted object (or a promise of it); its apiVersion and metadata are set by the
 * router afterwards (metadata is never changed by a conversion). A throw is the request's failure.
 */
export type VersionConverter = (object: Record<string, unknown>, toVersion: string) => Record<string, unknown> | Promise<Record<string, unknown>>;

interface KindRules {
  readonly crds: readonly string[];
  readonly kind: string;
  readonly paths: ReadonlyMap<string, CompiledValue>;
  readonly converter: VersionConverter | undefined;
}

export type ConversionRules = ReadonlyMap<string, KindRules>;

const pairKey = (from: string, to: string): string => `${from}>${to}`;
const kindKey = (group: string, kind: string): string => `${group}/${kind}`;

/**
 * Compiles the paths of every CRD of `definition` and attaches `converters` (by CRD name). Throws a KatalogError
 * (`E_CONFIG`) for a converter named after no CRD, and when two entries of one group and kind (Orkestra declares
 * one entry per version) declare the same pair or different storage versions. `now` is the clock the paths'
 * templates read (the router's `clock`); default `Date.now`.
 */
export function compileConversionRules(definition: Definition, converters: Readonly<Record<string, VersionConverter>> = {}, now?: () => number): ConversionRules {
  for (const name of Object.keys(converters)) {
    if (!definition.crds.has(name)) throw new KatalogError('E_CONFIG', `conversion router: converters names "${name}", which is not a CRD of ${definition.name}`);
  }
  interface Draft {
    readonly crds: string[];
    readonly kind: string;
    storage: string | undefined;
    readonly paths: Map<string, { readonly crd: string; readonly path: ConversionPath }>;
    converter: VersionConverter | undefined;
  }
  const drafts = new Map<string, Draft>();
  for (const crd of definition.crds.values()) {
    const converter = converters[crd.name];
    if (crd.conversion === undefined && converter === undefined) continue;
    const key = kindKey(crd.apiTypes.group, crd.apiTypes.kind);
    const draft: Draft = drafts.get(key) ?? { crds: [], kind: crd.apiTypes.kind, storage: undefined, paths: new Map(), converter: undefined };
    drafts.set(key, draft);
    draft.crds.push(crd.name);
    if (converter !== undefined) {
      if (draft.converter !== undefined) throw new KatalogError('E_CONFIG', `conversion router: two converters are registered for kind ${key} (${draft.crds.join(', ')}); register one`);
      draft.converter = converter;
    }
    const storage = crd.conversion?.storageVersion;
    if (storage !== undefined && draft.storage !== undefined && storage !== draft.storage) {
      throw new KatalogError('E_CONFIG', `conversion router: the entries of kind ${key} declare different storage versions (${draft.storage}, ${storage} in ${crd.name})`);
    }
    draft.storage ??= storage;
    for (const path of crd.conversion?.paths ?? []) {
      const pair = pairKey(path.from, path.to);
      const other = draft.paths.get(pair);
      if (other !== undefined) throw new KatalogError('E_CONFIG', `conversion router: the path ${path.from} → ${path.to} of kind ${key} is declared by both ${other.crd} and ${crd.name}; keep one`);
      draft.paths.set(pair, { crd: crd.name, path });
    }
  }
  const rules = new Map<string, KindRules>();
  for (const [key, draft] of drafts) {
    const paths = new Map<string, CompiledValue>();
    for (const [pair, { crd, path }] of draft.paths) {
      const definitionCrd = definition.crds.get(crd);
      const dialect = definitionCrd?.templateDialect ?? 'katalog';
      const notes = definitionCrd?.notes;
      const index = definitionCrd?.conversion?.paths.indexOf(path) ?? 0;
      paths.set(pair, compileValue(path.spec, { name: `spec.crds.${crd}.conversion.paths[${index}].spec`, dialect, ...(notes === undefined ? {} : { notes }), ...(now === undefined ? {} : { now }) }));
    }
    rules.set(key, { crds: draft.crds, kind: draft.kind, paths, converter: draft.converter });
  }
  return rules;
}

/** Thrown for an object that cannot be converted; its message is the ConversionReview's failure message. */
export class ConversionFailure extends Error {}

function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const at = apiVersion.lastIndexOf('/');
  return at < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, at), version: apiVersion.slice(at + 1) };
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Converts `object` to `desiredApiVersion`; throws a {@link ConversionFailure} saying why it cannot. */
export async function convertObject(rules: ConversionRules, object: Record<string, unknown>, desiredApiVersion: string): Promise<Record<string, unknown>> {
  const apiVersion = object['apiVersion'];
  const kind = object['kind'];
  if (typeof apiVersion !== 'string' || apiVersion === '') throw new ConversionFailure('object missing apiVersion');
  if (typeof kind !== 'string' || kind === '') throw new ConversionFailure('object missing kind');
  const source = splitApiVersion(apiVersion);
  const target = splitApiVersion(desiredApiVersion);
  if (source.group !== target.group) throw new ConversionFailure(`cannot convert ${kind} from group ${source.group} to ${desiredApiVersion}`);
  const kindRules = rules.get(kindKey(source.group, kind));
  if (kindRules === undefined) throw new ConversionFailure(`no conversion rules for kind "${kind}" of group "${source.group}"`);
  const metadata = object['metadata'];
  if (source.version === target.version) return { ...structuredClone(object), apiVersion: desiredApiVersion };
  const compiled = kindRules.paths.get(pairKey(source.version, target.version));
  let converted: Record<string, unknown>;
  if (compiled !== undefined) {
    const data = { ...object, metadata: metadata ?? {}, spec: object['spec'] ?? {}, status: object['status'] ?? {} };
    let spec: unknown;
    try {
      spec = compiled.render(data);
    } catch (error) {
      throw new ConversionFailure(`converting spec from ${source.version} to ${target.version}: ${toError(error).message}`);
    }
    converted = { ...structuredClone(object), spec };
  } else if (kindRules.converter !== undefined) {
    let result: unknown;
    try {
      result = await kindRules.converter(structuredClone(object), target.version);
    } catch (error) {
      throw new ConversionFailure(`the converter of ${kindRules.crds.join(', ')} failed from ${source.version} to ${target.version}: ${toError(error).message}`);
    }
    if (!isMap(result)) throw new ConversionFailure(`the converter of ${kindRules.crds.join(', ')} returned no object from ${source.version} to ${target.version}`);
    converted = result;
  } else {
    throw new ConversionFailure(`no conversion path declared for ${source.version} → ${target.version} in kind "${kind}"; add conversion.paths with from: ${source.version} and to: ${target.version}`);
  }
  return { ...converted, apiVersion: desiredApiVersion, kind, ...(metadata === undefined ? {} : { metadata: structuredClone(metadata) }) };
}
