// Reconcile-time validation as a box: a deny halts the cycle before the inner box runs (the error names the rules,
// with templated messages as written), warnings do not, rules with `fires.reconcile: false` are not checked, the
// delete path is never validated; the two conditions keep their lastTransitionTime while their status stays.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/index.js';
import type { KubeObject } from '../../src/kube/resource.js';
import type { BoxInput, BoxOutput, OperatorBoxStage } from '../../src/operatorbox/stage.js';
import { ReconcileValidation, ValidatedBox, ValidationDeniedError } from '../../src/operatorbox/validated-box.js';
import { desiredStatus, type Condition } from '../../src/reconcile/status.js';

const crd = (rules: string) => {
  const definition = parseDefinition(
    `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: v }
spec:
  crds:
    site:
      apiTypes: { group: v.io, version: v1, kind: Site, plural: sites }
      validation:
        rules:
${rules}
`,
    { source: 'v.yaml' },
  );
  return definition.crds.get('site') ?? assert.fail('no CRD site');
};

class Recording implements OperatorBoxStage {
  readonly calls: string[] = [];
  reconcile(input: BoxInput): Promise<BoxOutput> {
    this.calls.push(`reconcile ${input.key}`);
    return Promise.resolve({ desired: [], writeStatus: true });
  }
  delete(input: BoxInput): Promise<Record<string, never>> {
    this.calls.push(`delete ${input.key}`);
    return Promise.resolve({});
  }
  notFound(key: string): Promise<Record<string, never>> {
    this.calls.push(`notFound ${key}`);
    return Promise.resolve({});
  }
}

const RULES = `          - { field: spec.image, prefix: "myorg/", message: "not {{ .spec.image }}", action: deny }
          - { field: spec.size, operator: exists, message: "size is needed", action: deny, fires: { reconcile: false } }
          - { field: spec.env, operator: exists, message: "set env", action: warn }`;

const input = (spec: Record<string, unknown>): BoxInput => ({ key: 'default/a', object: { metadata: { name: 'a', namespace: 'default' }, spec } as KubeObject, signal: new AbortController().signal });

describe('ValidatedBox', () => {
  test('a deny stops the cycle before the inner box; the error carries the templated message as written', async () => {
    const inner = new Recording();
    const validation = ReconcileValidation.of(crd(RULES)) ?? assert.fail('no rules at reconcile');
    const box = new ValidatedBox(inner, validation);
    await assert.rejects(box.reconcile(input({ image: 'docker.io/x-value' })), (error: unknown) => {
      assert.ok(error instanceof ValidationDeniedError);
      assert.equal(error.message, 'validation denied: field "spec.image": not {{ .spec.image }}');
      return true;
    });
    assert.deepEqual(inner.calls, []);
    // `fires: { reconcile: false }`: spec.size is absent and nothing is said; the warn rule does not halt.
    await box.reconcile(input({ image: 'myorg/web' }));
    await box.delete(input({ image: 'docker.io/x' }));
    assert.deepEqual(inner.calls, ['reconcile default/a', 'delete default/a']);
  });

  test('the conditions, rendered, and their lastTransitionTime kept while the status stays', () => {
    const validation = ReconcileValidation.of(crd(RULES)) ?? assert.fail('no rules at reconcile');
    const bad = input({ image: 'docker.io/x' }).object;
    const conditions = validation.conditions(bad, 't1');
    assert.deepEqual(
      conditions.map((c) => [c.type, c.status, c.reason, c.message]),
      [
        ['ValidationFailed', 'True', 'DenyRuleViolation', 'validation denied: field "spec.image": not docker.io/x'],
        ['ValidationWarning', 'True', 'WarnRuleViolation', 'field "spec.env": set env'],
      ],
    );
    const first = desiredStatus(bad, { ok: false, message: 'm' }, 't1', {}, { extraConditions: conditions });
    const stored = { ...bad, status: first };
    const good = { ...stored, spec: { image: 'myorg/a' } };
    const second = desiredStatus(good, { ok: true }, 't2', {}, { extraConditions: validation.conditions(good, 't2') });
    const byType = new Map((second['conditions'] as Condition[]).map((c) => [c.type, c]));
    assert.equal(byType.get('ValidationFailed')?.lastTransitionTime, 't2');
    assert.equal(byType.get('ValidationFailed')?.reason, 'ValidationPassed');
    assert.equal(byType.get('ValidationWarning')?.lastTransitionTime, 't1');
    assert.deepEqual([...byType.keys()], ['Ready', 'ValidationFailed', 'ValidationWarning']);
  });

  test('a CRD whose rules all skip the reconcile gets no validation', () => {
    assert.equal(ReconcileValidation.of(crd('          - { field: spec.a, operator: exists, message: m, fires: { reconcile: false } }')), undefined);
  });
});
