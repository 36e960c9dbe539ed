/**
 * The module `katalog run --code <module>` loads: hooks and constructors under the names the definition uses.
 *
 * Its shape (docs/cli.md): named exports `hooks` (an object of hook sets by name) and/or `constructors` (an object
 * of constructor factories by name), or a default export that is an object with those two keys. Other exports are
 * ignored, so the module can export its hooks for its own tests as well.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RuntimeError, toError, type ConstructorFactory, type Hooks } from '../index.js';

/** What the module provides. */
export interface OperatorCode {
  readonly hooks: Readonly<Record<string, Hooks>>;
  readonly constructors: Readonly<Record<string, ConstructorFactory>>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function table<T>(module: string, key: string, value: unknown): Readonly<Record<string, T>> {
  if (value === undefined) return {};
  if (!isRecord(value)) throw new RuntimeError('E_CODE_MODULE', `${module}: "${key}" must be an object of ${key} by name, got ${Array.isArray(value) ? 'an array' : typeof value}`);
  return value as Record<string, T>;
}

/**
 * Imports the module at `path` (relative to `cwd`) and reads its hooks and constructors. Their contents are checked
 * when they are registered with the runtime.
 * @throws RuntimeError `E_CODE_MODULE` when the module cannot be imported or has neither export.
 */
export async function loadOperatorCode(path: string, cwd: string): Promise<OperatorCode> {
  const file = resolve(cwd, path);
  let exports: Record<string, unknown>;
  try {
    exports = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    throw new RuntimeError('E_CODE_MODULE', `cannot load --code ${path}: ${toError(error).message}`, { cause: error });
  }
  const named = exports['hooks'] !== undefined || exports['constructors'] !== undefined;
  const fallback = exports['default'];
  const source = named ? exports : isRecord(fallback) ? fallback : {};
  if (source['hooks'] === undefined && source['constructors'] === undefined) {
    throw new RuntimeError('E_CODE_MODULE', `${path} exports neither "hooks" nor "constructors" (named, or as keys of its default export)`);
  }
  return { hooks: table<Hooks>(path, 'hooks', source['hooks']), constructors: table<ConstructorFactory>(path, 'constructors', source['constructors']) };
}
