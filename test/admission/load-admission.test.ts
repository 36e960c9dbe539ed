// Loading admission rules: every generation's form normalises to one frozen AdmissionRules; bad rules are errors
// at file:line:column; the webhook configurations follow the rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/index.js';
import { DefinitionError } from '../../src/errors.js';
import { webhookConfigurations } from '../../src/index.js';

const entry = (body: string, apiVersion = 'orkestra.orkspace.io/v1') => `
apiVersion: ${apiVersion}
kind: Katalog
metadata: { name: shop }
spec:
  crds:
    store:
      apiTypes: { group: shop.example.io, version: v1, kind: Store, plural: stores }
${body}`;

test('current (admission: {validation, mutation}), early (validation: {rules}) and katalog.dev forms give the same model', () => {
  const current = parseDefinition(entry(`      admission:
        validation:
          rules:
            - { field: spec.replicas, max: "10", message: too many }
        mutation:
          rules:
            - { field: spec.replicas, default: 2 }`));
  const early = parseDefinition(entry(`      validation:
        rules:
          - { field: spec.replicas, max: "10", message: too many }
      mutation:
        rules:
          - { field: spec.replicas, default: 2 }`, 'orkestra.konductor.io/v1Alpha'));
  const katalog = parseDefinition(entry(`      validation:
        rules:
          - { field: spec.replicas, operator: lte, value: "10", message: too many }
      mutation:
        rules:
          - { field: spec.replicas, default: 2 }`, 'katalog.dev/v1'));
  const rules = (d: ReturnType<typeof parseDefinition>) => d.crds.get('store')?.admission;
  assert.deepEqual(rules(current), rules(early));
  assert.deepEqual(rules(current), rules(katalog));
  assert.deepEqual(rules(current)?.validation[0]?.operator, 'lte');
  assert.ok(Object.isFrozen(rules(current)?.validation));
});

function problems(text: string): string[] {
  try {
    parseDefinition(text, { source: 'shop.yaml' });
  } catch (error) {
    assert.ok(error instanceof DefinitionError);
    return error.problems.map((p) => `${p.line ?? '?'}:${p.column ?? '?'} ${p.message}`);
  }
  return assert.fail('expected problems');
}

test('bad rules are reported where they are written', () => {
  const found = problems(entry(`      validation:
        rules:
          - { field: spec.tag, regex: "([", message: bad }
          - { field: spec.n, between: "1", message: bad }
          - { field: spec.n, greaterThan: many, message: bad }
      mutation:
        rules:
          - { field: spec.x }`));
  assert.ok(found.some((p) => /^11:\d+ not a valid regular expression/.test(p)), found.join('\n'));
  assert.ok(found.some((p) => /^12:\d+ operator "between" needs "min,max"/.test(p)), found.join('\n'));
  assert.ok(found.some((p) => /^16:\d+ a mutation rule needs default or override/.test(p)), found.join('\n'));
  assert.ok(found.some((p) => /^13:\d+ operator "greaterThan" compares numbers/.test(p)), found.join('\n'));
});

test('validation.external and mutation.external load with fires (reconcile: false keeps a call to admission); operator unique loads', () => {
  const definition = parseDefinition(entry(`      validation:
        external:
          - { name: quota, url: "http://quota/{{ .metadata.namespace }}", method: post, or: [{ field: spec.metered, equals: "true" }] }
          - { name: audit, url: "http://audit", fires: { reconcile: false }, continueOnError: true }
        rules:
          - { field: spec.name, operator: unique, message: taken }
      mutation:
        external:
          - { name: tier, url: "http://tiers/{{ .metadata.name }}", cacheFor: 30s }
        rules:
          - { field: spec.tier, default: "{{ .external.tier.body }}" }`));
  const admission = definition.crds.get('store')?.admission;
  assert.equal(admission?.validation[0]?.operator, 'unique');
  assert.deepEqual(admission?.validationExternal?.map((call) => [call.name, call.method, call.anyOf.length, call.continueOnError, call.atReconcile]), [
    ['quota', 'POST', 1, false, true],
    ['audit', 'GET', 0, true, false],
  ]);
  assert.deepEqual(admission?.mutationExternal?.map((call) => [call.name, call.cacheForMs, call.atReconcile]), [['tier', 30_000, true]]);
  const found = problems(entry(`      validation:
        external:
          - { name: a, url: "ftp://x" }
          - { name: b, url: "http://x", protocol: grpc, query: "GET k" }
        rules:
          - { field: spec.name, message: taken }`));
  assert.ok(found.some((p) => p.includes('http:// or https://')), found.join('\n'));
  assert.ok(found.some((p) => p.includes('external protocol grpc')), found.join('\n'));
});

test('spec.security.deletionProtection protects every CRD unless protectCRs is false; without it the entry setting does nothing', () => {
  const on = parseDefinition(entry(`      deletionProtection: { protectCRs: false }
    cart:
      apiTypes: { group: shop.example.io, version: v1, kind: Cart, plural: carts }
  security: { deletionProtection: { enabled: true } }`));
  assert.equal(on.crds.get('store')?.admission?.protectDelete, false);
  assert.equal(on.crds.get('cart')?.admission?.protectDelete, true);
  const off = parseDefinition(entry(`      deletionProtection: { protectCRs: true }`));
  assert.equal(off.crds.get('store')?.admission, undefined);
});

test('webhook configurations: a rule per CRD with its operations, https only, caBundle base64', () => {
  const definition = parseDefinition(entry(`      webhooks: { operations: [CREATE] }
      validation:
        rules:
          - { field: spec.image, message: required }
  security: { deletionProtection: { enabled: true } }`));
  const configs = webhookConfigurations(definition, { url: 'https://hooks.example.com/admission/', caBundle: 'PEM', failurePolicy: 'Ignore' });
  const validating = configs.validating as { webhooks: Array<Record<string, unknown>> };
  const hook = validating.webhooks[0] ?? {};
  assert.deepEqual(hook.clientConfig, { url: 'https://hooks.example.com/admission/validate', caBundle: Buffer.from('PEM').toString('base64') });
  assert.deepEqual(hook.rules, [{ operations: ['CREATE', 'DELETE'], apiGroups: ['shop.example.io'], apiVersions: ['v1'], resources: ['stores'], scope: 'Namespaced' }]);
  assert.equal(hook.failurePolicy, 'Ignore');
  assert.equal(hook.sideEffects, 'None');
  assert.deepEqual(hook.admissionReviewVersions, ['v1']);
  const mutating = configs.mutating as { webhooks: Array<{ rules: unknown }> };
  assert.deepEqual(mutating.webhooks[0]?.rules, [{ operations: ['CREATE'], apiGroups: ['shop.example.io'], apiVersions: ['v1'], resources: ['stores'], scope: 'Namespaced' }]);
  assert.throws(() => webhookConfigurations(definition, { url: 'http://insecure' }), /must start with https:\/\//);
  // Names and ports kube-apiserver would refuse are refused here first, saying which option and why.
  const url = 'https://hooks.example.com/admission';
  assert.throws(() => webhookConfigurations(definition, { url, validatingWebhookName: 'validate' }), /validatingWebhookName should be a domain with at least three segments separated by dots \(the API server refuses it\), got "validate"/);
  assert.throws(() => webhookConfigurations(definition, { url, mutatingWebhookName: 'Mutate.Example.Com' }), /mutatingWebhookName must consist of lower case alphanumeric characters/);
  assert.throws(() => webhookConfigurations(definition, { url, name: 'Shop_Admission' }), /webhook configuration: name must consist of lower case/);
  assert.throws(() => webhookConfigurations(definition, { service: { name: 'shop-webhook', namespace: 'shop', port: 70000 } }), /service.port must be an integer from 1 to 65535 \(the API server refuses it\), got 70000/);
  assert.equal((webhookConfigurations(definition, { url, validatingWebhookName: 'check.shop.example.io' }).validating as { webhooks: Array<{ name: string }> }).webhooks[0]?.name, 'check.shop.example.io');
  const at = (path: string): { service: { name: string; namespace: string; path: string } } => ({ service: { name: 'shop-webhook', namespace: 'shop', path } });
  assert.throws(() => webhookConfigurations(definition, at('admission')), /service.path must start with a '\/' \(the API server refuses it\), got "admission"/);
  assert.throws(() => webhookConfigurations(definition, at('/my_hooks')), /service.path segment "my_hooks" must consist of lower case/);
  assert.throws(() => webhookConfigurations(definition, { service: { name: '', namespace: 'shop' } }), /service.name must not be empty/);
  assert.throws(() => webhookConfigurations(definition, { url: 'https://hooks.example.com/admission?x=1' }), /url must have no query or fragment/);
  assert.throws(() => webhookConfigurations(definition, { url: 'https://me:secret@hooks.example.com/admission' }), /url must not carry user information/);
  assert.doesNotThrow(() => webhookConfigurations(definition, at('/hooks/admission.v1/')));
  const service = webhookConfigurations(definition, { service: { name: 'shop-webhook', namespace: 'shop', port: 8443, path: '/admission' } });
  assert.deepEqual((service.validating as { webhooks: Array<{ clientConfig: unknown }> }).webhooks[0]?.clientConfig, { service: { name: 'shop-webhook', namespace: 'shop', path: '/admission/validate', port: 8443 } });
});
