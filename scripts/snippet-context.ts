// What a ```ts fragment block of README.md or docs/*.md may use without declaring it (scripts/doc-snippets.mjs).
// A fragment is type-checked as a module that imports from here the names it uses and does not declare itself,
// so these stand for "the runtime you created above", "your hooks", and so on. Fragments never run.
// Keep this list short: a name belongs here only if a reader of the fragment knows where it comes from.
import type { KubeConfig } from '@kubernetes/client-node';
import type { Clock, ConstructorFactory, CrdDefinition, Definition, Hooks, KubeObject, Runtime, RuntimeOptions } from 'katalog';
import type { TestApiServer } from 'katalog/testing';

// The entry points, so that a fragment need not repeat its imports.
export { createRuntime, loadDefinition, resolveSettings } from 'katalog';
export type { ConstructorFactory, Hooks } from 'katalog';

/** The runtime made by `createRuntime` earlier on the page. */
export declare const runtime: Runtime;
/** What `loadDefinition('./katalog.yaml')` returned. */
export declare const definition: Definition;
/** One CRD of that definition, `definition.crds.get('website')`. */
export declare const crd: CrdDefinition;
/** Options for `createRuntime`. */
export declare const options: RuntimeOptions;
/** The cluster's configuration, usually `KubeConfig.loadFromDefault()`. */
export declare const kubeConfig: KubeConfig;
/** The test API server started by `startTestApiServer()`. */
export declare const server: TestApiServer;
/** A katalog clock, for example a fake one in tests. */
export declare const clock: Clock;
/** A Katalog as YAML text. */
export declare const yamlText: string;
/** A custom resource. */
export declare const cr: KubeObject;
/** Your hooks and constructors, registered by name. */
export declare const websiteHooks: Hooks;
export declare const reportHooks: Hooks;
export declare const auditHooks: Hooks;
export declare const newBackupReconciler: ConstructorFactory;
export declare const newX: ConstructorFactory;
/** Your own code: a pager, a logger, a backup routine. */
export declare const pager: { notify(text: string): void };
export declare const log: { info(text: string): void };
export declare function takeBackup(object: KubeObject, signal: AbortSignal): Promise<void>;
