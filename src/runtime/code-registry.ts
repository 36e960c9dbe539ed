/**
 * Code registered for the definition: hook sets and constructors by the name the definition references, or for
 * a CRD directly. `start()` checks that every reference has code behind it, naming what is missing.
 */
import type { CrdDefinition } from '../definition/types.js';
import { RuntimeError } from '../errors.js';
import type { ConstructorFactory, Hooks } from '../operatorbox/types.js';

/** Where a CRD's hooks or constructor come from, for the inspection API: `yaml` (named in the definition) or `code`. */
export type CodeSource = 'yaml' | 'code';

export interface ResolvedCode {
  readonly hooks: { readonly value: Hooks; readonly name: string; readonly source: CodeSource } | undefined;
  readonly constructor: { readonly value: ConstructorFactory; readonly name: string; readonly source: CodeSource } | undefined;
}

export class CodeRegistry {
  private readonly hooks = new Map<string, Hooks>();
  private readonly constructors = new Map<string, ConstructorFactory>();
  private readonly crdHooks = new Map<string, Hooks>();
  private readonly crdConstructors = new Map<string, ConstructorFactory>();

  registerHooks(name: string, hooks: Hooks): void {
    checkHooks(name, hooks);
    this.hooks.set(name, hooks);
  }

  registerConstructor(name: string, factory: ConstructorFactory): void {
    checkConstructor(name, factory);
    this.constructors.set(name, factory);
  }

  /** Hooks for one CRD, whatever the definition names (source `code`). */
  registerCrdHooks(crd: string, hooks: Hooks): void {
    checkHooks(`for CRD ${crd}`, hooks);
    this.crdHooks.set(crd, hooks);
  }

  registerCrdConstructor(crd: string, factory: ConstructorFactory): void {
    checkConstructor(`for CRD ${crd}`, factory);
    this.crdConstructors.set(crd, factory);
  }

  /** The code of one CRD; code registered for the CRD directly wins over the name in the definition. */
  resolve(crd: CrdDefinition): ResolvedCode {
    const box = crd.operatorBox;
    const direct = this.crdHooks.get(crd.name);
    const named = box.hooks === undefined ? undefined : this.hooks.get(box.hooks.function);
    const hooks =
      direct !== undefined
        ? { value: direct, name: box.hooks?.function ?? crd.name, source: 'code' as const }
        : named !== undefined && box.hooks !== undefined
          ? { value: named, name: box.hooks.function, source: 'yaml' as const }
          : undefined;
    const directCtor = this.crdConstructors.get(crd.name);
    const declared = declaredConstructor(crd);
    const namedCtor = declared === undefined ? undefined : this.constructors.get(declared.function);
    const constructor =
      directCtor !== undefined
        ? { value: directCtor, name: declared?.function ?? crd.name, source: 'code' as const }
        : namedCtor !== undefined && declared !== undefined
          ? { value: namedCtor, name: declared.function, source: 'yaml' as const }
          : undefined;
    return { hooks, constructor };
  }

  /** Every reference of the enabled CRDs that no code answers, as messages. */
  missing(crds: Iterable<CrdDefinition>): string[] {
    const problems: string[] = [];
    for (const crd of crds) {
      if (!crd.enabled) continue;
      const { hooks, constructor } = this.resolve(crd);
      if (crd.operatorBox.hooks !== undefined && hooks === undefined) {
        problems.push(`CRD ${crd.name}: hooks "${crd.operatorBox.hooks.function}" are not registered (pass them in options.hooks or call registerHooks)`);
      }
      if (!crd.operatorBox.default && constructor === undefined) {
        const name = declaredConstructor(crd)?.function;
        problems.push(
          name === undefined
            ? `CRD ${crd.name}: operatorBox.default is false but no constructor is registered for it`
            : `CRD ${crd.name}: constructor "${name}" is not registered (pass it in options.constructors or call registerConstructor)`,
        );
      }
      if (crd.operatorBox.default && this.crdConstructors.has(crd.name)) {
        problems.push(`CRD ${crd.name}: a constructor is registered for it but its operatorBox.default is true; set default: false`);
      }
    }
    return problems;
  }
}

/**
 * The constructor the definition declares. Read as an own property: every object inherits a `constructor`
 * from Object.prototype, which must never pass for a declared one.
 */
export function declaredConstructor(crd: CrdDefinition): { readonly function: string } | undefined {
  const box = crd.operatorBox;
  return Object.hasOwn(box, 'constructor') ? box.constructor : undefined;
}

const HOOK_NAMES = ['onReconcile', 'onCreate', 'onUpdate', 'onDelete', 'onNotFound'];

function checkHooks(name: string, hooks: Hooks): void {
  if (name === '') throw new RuntimeError('E_REGISTRATION', 'hooks need a name');
  if (typeof hooks !== 'object' || hooks === null) throw new RuntimeError('E_REGISTRATION', `hooks ${name}: expected an object of hook functions`);
  for (const [hook, fn] of Object.entries(hooks)) {
    if (!HOOK_NAMES.includes(hook)) throw new RuntimeError('E_REGISTRATION', `hooks ${name}: unknown hook "${hook}" (known: ${HOOK_NAMES.join(', ')})`);
    if (typeof fn !== 'function') throw new RuntimeError('E_REGISTRATION', `hooks ${name}: ${hook} is not a function`);
  }
}

function checkConstructor(name: string, factory: ConstructorFactory): void {
  if (name === '') throw new RuntimeError('E_REGISTRATION', 'a constructor needs a name');
  if (typeof factory !== 'function') throw new RuntimeError('E_REGISTRATION', `constructor ${name}: expected a function`);
}
