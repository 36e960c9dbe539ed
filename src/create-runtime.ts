/**
 * `createRuntime(definition, options)`: load → validate → normalise → Runtime, with the inspection router attached.
 * Validation is synchronous, so a bad definition or bad options throw here, before anything touches a cluster.
 * No logic of its own.
 */
import { normalizeDefinition, parseDefinition } from './definition/index.js';
import type { Definition } from './definition/types.js';
import { DefinitionError, RuntimeError } from './errors.js';
import { missingProtocolClients } from './operatorbox/external-protocols.js';
import { listen } from './http/listen.js';
import { createInspectionRouter } from './http/router.js';
import { inspectionViewOf } from './http/view.js';
import { resolveOptions, type RuntimeOptions } from './options.js';
import { Runtime } from './runtime/runtime.js';
import type { HttpSurface } from './runtime/surface.js';

/** A YAML text, a parsed Katalog/Komposer object, or what `loadDefinition` / `parseDefinition` returned. */
export type DefinitionInput = string | Definition | Readonly<Record<string, unknown>>;

/**
 * Creates a runtime for a definition. Throws a `DefinitionError` listing every problem of the definition, or a
 * `RuntimeError` for invalid options (an external call whose protocol has no client among them: `mongo` and
 * `kafka` need the host's `externalProtocols`); starts nothing (call `start()`).
 *
 * A string is YAML text, never a file path: createRuntime reads no files (a Komposer's includes need async reads).
 * A one-line string that ends in `.yaml` or `.yml` is refused with a `DefinitionError` that says to use
 * `createRuntime(await loadDefinition(path), options)`, rather than parsed as a YAML scalar.
 */
export function createRuntime(definition: DefinitionInput, options: RuntimeOptions = {}): Runtime {
  if (typeof definition === 'string') refuseFilePath(definition);
  const resolved = resolveOptions(options);
  const loaded = typeof definition === 'string' ? parseDefinition(definition, { source: '<yaml>' }) : normalizeDefinition(definition);
  const missing = missingProtocolClients(loaded, resolved.externalProtocols, 'runtime', 'externalProtocols');
  if (missing.length > 0) throw new RuntimeError('E_OPTIONS', `external calls without a protocol client:\n${missing.map((line) => `  - ${line}`).join('\n')}`);
  return new Runtime(loaded, resolved, (runtime): HttpSurface => {
    const router = createInspectionRouter(inspectionViewOf(runtime), {
      onError: (error, request) => resolved.logger.error('inspection API failed', { ...request, error }),
    });
    return { router, listen: (listenOptions) => listen(router, listenOptions) };
  });
}

function refuseFilePath(text: string): void {
  const trimmed = text.trim();
  if (trimmed.includes('\n') || !/\.ya?ml$/i.test(trimmed)) return;
  throw new DefinitionError([
    {
      code: 'file-path',
      path: '',
      message:
        `createRuntime() takes YAML text or a parsed definition, and got the file path "${trimmed}"; ` +
        `load the file first: createRuntime(await loadDefinition(${JSON.stringify(trimmed)}), options)`,
    },
  ]);
}
