// Loading the Orkestra template kinds: current Orkestra's keys (hpa, pdb, custom; pkg/types/types_hook_templates.go)
// become katalog's kind names, copies of kinds katalog does not copy are refused by name, and `katalog rbac` grants
// every kind the templates create.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/index.js';
import { rbacRequirements } from '../../src/cli/rbac-rules.js';

const doc = (phase: string): string => `apiVersion: orkestra.orkspace.io/v1
kind: Katalog
metadata: { name: kinds }
spec:
  crds:
    shop:
      apiTypes: { group: example.io, version: v1, kind: Shop, plural: shops }
      operatorBox:
        onReconcile:
${phase}`;

describe('Orkestra template kinds at load', () => {
  test("Orkestra's hpa, pdb and custom keys load as horizontalPodAutoscalers, podDisruptionBudgets and customResource", () => {
    const definition = parseDefinition(
      doc(`          hpa: [{ maxReplicas: "3" }]
          pdb: [{ minAvailable: "1" }]
          custom: [{ apiVersion: cache.example.io/v1, kind: Cache, metadata: { name: c } }]
          pods: [{ image: nginx }]
`),
    );
    const phase = definition.crds.get('shop')?.operatorBox.onReconcile ?? {};
    assert.deepEqual(Object.keys(phase), ['pods', 'podDisruptionBudgets', 'horizontalPodAutoscalers', 'customResource']);
    assert.equal(phase.horizontalPodAutoscalers?.[0]?.path, 'spec.crds.shop.operatorBox.onReconcile.horizontalPodAutoscalers[0]');
  });

  test('an alias beside the full name is a conflict, with the position of the alias', () => {
    assert.throws(
      () => parseDefinition(doc('          hpa: [{ maxReplicas: 3 }]\n          horizontalPodAutoscalers: [{ maxReplicas: 3 }]\n'), { source: 'kinds.yaml' }),
      (error: Error) => error.message.includes('kinds.yaml:10:11') && error.message.includes('hpa and horizontalPodAutoscalers name the same template kind'),
    );
  });

  test('fromNetworkPolicy, fromLimitRange and fromResourceQuota load as copies; spec fields beside them are errors at their place', () => {
    for (const [kind, field, specField] of [
      ['networkPolicies', 'fromNetworkPolicy', 'podSelector: {}'],
      ['limitRanges', 'fromLimitRange', 'limits: []'],
      ['resourceQuotas', 'fromResourceQuota', 'hard: {}'],
    ] as const) {
      const definition = parseDefinition(doc(`          ${kind}: [{ name: x, ${field}: org-default, fromNamespace: platform, toNamespaces: [a, b] }]\n`));
      const entry = Object.values(definition.crds.get('shop')?.operatorBox.onReconcile ?? {}).flat()[0];
      assert.deepEqual(entry?.copy, { from: 'org-default', fromNamespace: 'platform', toNamespaces: ['a', 'b'] }, field);
      assert.throws(
        () => parseDefinition(doc(`          ${kind}: [{ name: x, ${field}: org-default, ${specField} }]\n`), { source: 'kinds.yaml' }),
        (error: Error) => error.message.includes('kinds.yaml:10:') && error.message.includes(`cannot be written beside ${field}`),
        field,
      );
    }
    assert.throws(() => parseDefinition(doc('          limitRanges: [{ name: x, fromResourceQuota: q }]\n')), /fromResourceQuota does not fit a limitRanges entry; use fromLimitRange/);
  });

  test('katalog rbac grants create/patch/delete on each kind the templates create', () => {
    const definition = parseDefinition(
      doc(`          pods: [{ image: nginx }]
          persistentVolumes: [{ capacity: 1Gi }]
          persistentVolumeClaims: [{ storage: 1Gi }]
          networkPolicies: [{ podSelector: {} }]
          pdb: [{ minAvailable: 1 }]
          limitRanges: [{ limits: [{ type: Container }] }]
          resourceQuotas: [{ hard: { cpu: "1" } }]
          priorityClasses: [{ value: 10 }]
          hpa: [{ maxReplicas: 2 }]
          custom: [{ apiVersion: cert-manager.io/v1, kind: Certificate, metadata: { name: c } }]
`),
    );
    const { cluster, notes } = rbacRequirements(definition);
    const granted = (group: string, resource: string): string[] => cluster.filter((rule) => rule.apiGroups.includes(group) && rule.resources.includes(resource)).flatMap((rule) => [...rule.verbs]);
    for (const [group, resource] of [
      ['', 'pods'],
      ['', 'persistentvolumes'],
      ['', 'persistentvolumeclaims'],
      ['networking.k8s.io', 'networkpolicies'],
      ['policy', 'poddisruptionbudgets'],
      ['', 'limitranges'],
      ['', 'resourcequotas'],
      ['scheduling.k8s.io', 'priorityclasses'],
      ['autoscaling', 'horizontalpodautoscalers'],
      ['cert-manager.io', 'certificates'],
    ] as const) {
      assert.deepEqual(granted(group, resource), ['get', 'list', 'watch', 'create', 'patch', 'delete'], `${group}/${resource}`);
    }
    assert.ok(notes.some((note) => note.includes('plural of Certificate')), 'the guessed plural of a custom kind is noted');
  });
});
