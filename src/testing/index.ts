/**
 * katalog/testing: an in-process Kubernetes API server for tests.
 * @packageDocumentation
 */
export {};
