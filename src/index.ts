/**
 * katalog: an embeddable Kubernetes operator runtime.
 * @packageDocumentation
 */
export { KatalogError, DefinitionError, TemplateError, RuntimeError, KubeError, formatProblem, toError } from './errors.js';
export type { DefinitionProblem } from './errors.js';
