/**
 * `createRuntime(definition, options)`: load → validate → normalise → Runtime, with the inspection router attached.
 * Validation is synchronous, so a bad definition or bad options throw here, before anything touches a cluster.
 * No logic of its own.
 */
import { normalizeDefinition, parseDefinition } from './definition/index.js';
import type { Definition } from './definition/types.js';
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
 * `RuntimeError` for invalid options; starts nothing (call `start()`).
 */
export function createRuntime(definition: DefinitionInput, options: RuntimeOptions = {}): Runtime {
  const resolved = resolveOptions(options);
  const loaded = typeof definition === 'string' ? parseDefinition(definition, { source: '<yaml>' }) : normalizeDefinition(definition);
  return new Runtime(loaded, resolved, (runtime): HttpSurface => {
    const router = createInspectionRouter(inspectionViewOf(runtime), {
      onError: (error, request) => resolved.logger.error('inspection API failed', { ...request, error }),
    });
    return { router, listen: (listenOptions) => listen(router, listenOptions) };
  });
}
