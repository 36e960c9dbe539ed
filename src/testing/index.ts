/**
 * katalog/testing: an in-process Kubernetes API server on real HTTP for tests, the way Go operator authors use
 * envtest. `@kubernetes/client-node` and kubectl talk to it unchanged. See docs/testing.md.
 * @packageDocumentation
 */
export {
  startTestApiServer,
  type TestApiServer,
  type TestApiServerOptions,
  type ObjectFilter,
  type RestartOptions,
} from './api-server.js';
export type { AuthorizationOptions } from './authorization.js';
export type { DirectPatchOptions, DirectDeleteOptions } from './direct-access.js';
export type { Faults, FailureRule, LatencyRule, LostAnswerRule, RequestMatch, StallOptions, WatchFaultFilter } from './faults.js';
export type { ChaosOptions, ChaosRun, ChaosStats } from './faults/chaos.js';
export type { RequestCounter, RequestFilter, RequestRecord } from './requests.js';
export type { PatchType } from './operations/patch.js';
export type { PropagationPolicy } from './operations/delete-options.js';
export { SIMULATE_ANNOTATION, type WorkloadSimulationOptions } from './controllers/workloads/simulation-options.js';
export { crdManifest, type CrdManifestConversionWebhook, type CrdManifestSpec, type CrdManifestVersion } from './crd-manifest.js';
export { StatusError, type KubeStatus, type StatusCause } from './status-errors.js';
export type { Clock, TimerHandle } from '../util/clock.js';
export { KatalogError, KubeError } from '../errors.js';
export { startKubeApiServer, type KubeApiServer, type KubeApiServerOptions } from './control-plane/kube-apiserver.js';
