// Which status-only updates an Orkestra CRD's reconcile follows: the status keys its operatorBox reads (templates,
// conditions, status fields), never for a katalog.dev/v1 document, and at most MAX_ECHO_CHAIN echoes of one object in
// a row. Orkestra's side: orkspace/orkestra pkg/runtime/informer/factory.go @ eacb2604bc775f58156f6f49907c4e5d494ebf30
// and event.go @ 03fdefea413d0e5751279aec448b792c6d9023c7 (every informer Update event is enqueued; there is no
// generation predicate).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/index.js';
import { EchoChains, MAX_ECHO_CHAIN, statusEchoOf, statusReads } from '../../src/controller/status-echo.js';
import type { KubeObject } from '../../src/kube/resource.js';

function crd(box: string, apiVersion = 'orkestra.orkspace.io/v1') {
  const definition = parseDefinition(`apiVersion: ${apiVersion}
kind: Katalog
metadata: { name: k }
spec:
  crds:
    app:
      apiTypes: { group: demo.io, version: v1, kind: App, plural: apps }
      operatorBox:
${box}`);
  const found = definition.crds.get('app');
  assert.ok(found);
  return found;
}

const object = (status: Record<string, unknown> | undefined): KubeObject => ({ apiVersion: 'demo.io/v1', kind: 'App', metadata: { name: 'a' }, ...(status === undefined ? {} : { status }) });

const PHASE_MACHINE = `        onCreate:
          configMaps:
            - name: "{{ .metadata.name }}-next"
              data: { step: "{{ .status.step }}" }
              when:
                - field: status.phase
                  operator: eq
                  value: Running
        status:
          fields:
            - path: phase
              value: Running
`;

describe('statusReads: the status keys an operatorBox reads', () => {
  test('condition fields and template reads name their keys; a child\'s status is not the object\'s', () => {
    assert.deepEqual([...(statusReads(crd(PHASE_MACHINE)) ?? [])].sort(), ['phase', 'step']);
    const children = crd('        status:\n          fields:\n            - path: ready\n              value: "{{ .children.deployment.status.readyReplicas }}"\n');
    assert.equal(statusReads(children), undefined);
  });

  test('a read of the whole status counts as every key', () => {
    const whole = crd('        status:\n          fields:\n            - path: seen\n              value: "{{ index .status \\"phase\\" }}"\n');
    assert.deepEqual([...(statusReads(whole) ?? [])], ['*']);
  });

  test('a katalog.dev/v1 document reads the status the cycle started with: no echo is followed', () => {
    assert.equal(statusReads(crd(PHASE_MACHINE, 'katalog.dev/v1')), undefined);
    assert.equal(statusEchoOf(crd(PHASE_MACHINE, 'katalog.dev/v1')), undefined);
  });
});

describe('statusEchoOf: the echo is followed only when a read key changed', () => {
  const echo = statusEchoOf(crd(PHASE_MACHINE));
  assert.ok(echo);
  test('a changed phase or step is followed; a changed condition or observedGeneration is not', () => {
    assert.equal(echo(object(undefined), object({ phase: 'Running' })), true);
    assert.equal(echo(object({ phase: 'Running', step: 'a' }), object({ phase: 'Running', step: 'b' })), true);
    assert.equal(echo(object({ phase: 'Running' }), object({ phase: 'Running', observedGeneration: 2, conditions: [{ type: 'Ready' }] })), false);
    assert.equal(echo(object({ phase: 'Running' }), object({ phase: 'Running' })), false);
  });
});

describe('EchoChains: at most MAX_ECHO_CHAIN echoes of one object in a row', () => {
  test('the chain stops at the bound and starts again after another trigger; objects count apart', () => {
    const chains = new EchoChains(() => true);
    let followed = 0;
    for (let i = 0; i < MAX_ECHO_CHAIN + 5; i++) if (chains.follow('ns/a', object({}), object({ n: i }))) followed++;
    assert.equal(followed, MAX_ECHO_CHAIN);
    assert.equal(chains.follow('ns/b', object({}), object({ n: 1 })), true, 'another object has its own chain');
    chains.reset('ns/a');
    assert.equal(chains.follow('ns/a', object({}), object({ n: 99 })), true);
  });

  test('the cap is reported once per chain, on the first echo it refuses; a new chain may report it again', () => {
    const capped: string[] = [];
    const chains = new EchoChains(() => true, (key) => capped.push(key));
    for (let i = 0; i < MAX_ECHO_CHAIN; i++) chains.follow('ns/a', object({}), object({ n: i }));
    assert.deepEqual(capped, [], 'the followed echoes report nothing');
    for (let i = 0; i < 3; i++) assert.equal(chains.follow('ns/a', object({}), object({ n: 100 + i })), false);
    assert.deepEqual(capped, ['ns/a']);
    chains.reset('ns/a');
    for (let i = 0; i <= MAX_ECHO_CHAIN; i++) chains.follow('ns/a', object({}), object({ n: i }));
    assert.deepEqual(capped, ['ns/a', 'ns/a']);
  });

  test('an echo that changed nothing read does not report the cap of a full chain', () => {
    const capped: string[] = [];
    let changed = true;
    const chains = new EchoChains(() => changed, (key) => capped.push(key));
    for (let i = 0; i < MAX_ECHO_CHAIN; i++) chains.follow('ns/a', object({}), object({ n: i }));
    changed = false;
    assert.equal(chains.follow('ns/a', object({}), object({})), false);
    assert.deepEqual(capped, []);
  });

  test('an echo whose read keys did not change is not followed and does not count', () => {
    const chains = new EchoChains(() => false);
    assert.equal(chains.follow('ns/a', object({}), object({})), false);
  });
});
