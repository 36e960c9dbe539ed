// One conformance suite, two servers: every test here runs against the in-process test API server (default) and,
// with KATALOG_CONFORMANCE_BACKEND=kube-apiserver and KUBEBUILDER_ASSETS, against a real kube-apiserver and etcd
// (scripts/ci-conformance.sh builds them and runs this). One server is started for the whole file: the real
// one takes seconds to start, and every test uses names of its own instead of a reset.
import { after, before, describe } from 'node:test';
import { admissionPolicySuite } from './admission-policies.js';
import { admissionPolicyObjectSuite } from './admission-policy-objects.js';
import { admissionReviewSuite } from './admission-reviews.js';
import { admissionVersionSuite } from './admission-versions.js';
import { applySuite } from './apply.js';
import { startBackend, type Backend } from './backend.js';
import { bindingSuite } from './binding.js';
import { builtinDefaultsSuite } from './builtin-defaults.js';
import { builtinUpdatesSuite } from './builtin-updates.js';
import { builtinMoreValidationSuite } from './builtin-validation-more.js';
import { builtinValidationSuite } from './builtin-validation.js';
import { celRuleSuite } from './cel-rules.js';
import { crdDefaultsSuite } from './crd-defaults.js';
import { crdSchemaSuite } from './crd-schemas.js';
import { crdSuite } from './crds.js';
import { conversionWebhookSuite } from './conversion-webhooks.js';
import { conversionManagedFieldsSuite } from './conversion-managed-fields.js';
import { conversionRequestVersionSuite } from './conversion-request-version.js';
import { crdSpecRuleSuite } from './crd-spec-rules.js';
import { deletionSuite } from './deletion.js';
import { evictionSuite } from './eviction.js';
import { fieldSelectorSuite } from './field-selectors.js';
import { fieldValidationSuite } from './field-validation.js';
import { jsonPatchSuite } from './json-patch.js';
import { listMergeSuite } from './list-merges.js';
import { objectMetaSuite } from './object-meta.js';
import { storedFormSuite } from './stored-form.js';
import { patchDecodingSuite } from './patch-decoding.js';
import { listSuite } from './lists.js';
import { mutatingPolicyObjectSuite } from './mutating-policy-objects.js';
import { mutatingPolicySuite } from './mutating-policies.js';
import { podSecuritySuite } from './pod-security.js';
import { queryParameterSuite } from './query-parameters.js';
import { runtimeSuite } from './runtime.js';
import { scaleSuite } from './scale.js';
import { schemaValidationSuite } from './schema-validation.js';
import { statusAndFinalizerSuite } from './status-finalizers.js';
import { typedApplySuite } from './typed-apply.js';
import { versionSchemaSuite } from './version-schemas.js';
import { watchListSuite } from './watch-list.js';
import { watchSuite } from './watch.js';
import { webhookConfigurationSuite } from './webhook-configurations.js';

const choice = process.env['KATALOG_CONFORMANCE_BACKEND'] ?? 'in-process';

describe(`conformance (${choice})`, () => {
  let current: Backend | undefined;
  const backend = (): Backend => {
    if (current === undefined) throw new Error('the backend did not start');
    return current;
  };
  before(async () => {
    current = await startBackend(process.env);
  });
  after(async () => {
    await current?.stop();
  });

  watchSuite(backend);
  watchListSuite(backend);
  applySuite(backend);
  listMergeSuite(backend);
  scaleSuite(backend);
  statusAndFinalizerSuite(backend);
  deletionSuite(backend);
  evictionSuite(backend);
  bindingSuite(backend);
  crdSuite(backend);
  crdSpecRuleSuite(backend);
  fieldSelectorSuite(backend);
  fieldValidationSuite(backend);
  objectMetaSuite(backend);
  storedFormSuite(backend);
  patchDecodingSuite(backend);
  jsonPatchSuite(backend);
  typedApplySuite(backend);
  schemaValidationSuite(backend);
  celRuleSuite(backend);
  crdDefaultsSuite(backend);
  crdSchemaSuite(backend);
  builtinDefaultsSuite(backend);
  builtinValidationSuite(backend);
  builtinUpdatesSuite(backend);
  builtinMoreValidationSuite(backend);
  queryParameterSuite(backend);
  listSuite(backend);
  runtimeSuite(backend);
  admissionReviewSuite(backend);
  admissionPolicyObjectSuite(backend);
  mutatingPolicyObjectSuite(backend);
  conversionWebhookSuite(backend);
  conversionManagedFieldsSuite(backend);
  conversionRequestVersionSuite(backend);
  versionSchemaSuite(backend);
  admissionPolicySuite(backend);
  mutatingPolicySuite(backend);
  podSecuritySuite(backend);
  admissionVersionSuite(backend);
  webhookConfigurationSuite(backend);
});
