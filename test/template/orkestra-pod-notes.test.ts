// Orkestra's pod notes over `_pods` (what katalog's enrich `pods` target puts beside a workload child), row by row
// against Orkestra's catalog (orkspace/orkestra pkg/note/catalog_generated.go @ eacb2604, domain "pods") and its
// table tests (pkg/note/kube_pods_test.go @ eacb2604); and the summary katalog builds from a real Pod object.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileTemplate, type TemplateData } from '../../src/template/index.js';
import { podSummary } from '../../src/operatorbox/enrich-pods.js';

const CATALOG = 'pkg/note/catalog_generated.go @ eacb2604 (pods)';
const TESTS = 'pkg/note/kube_pods_test.go @ eacb2604';

const pod = (name: string, ip: string, phase: string, ready: boolean, restartCount: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name, ip, phase, ready, node: 'node-1', restartCount, ordinal: -1, exitCode: -1, containers: [], ...extra,
});
const container = (name: string, state: string, reason: string): Record<string, unknown> => ({ name, image: 'nginx:latest', state, reason, ready: false, restartCount: 3 });

function render(source: string, children: Record<string, unknown>): unknown {
  const data: TemplateData = { metadata: { name: 'web' }, spec: {}, status: {}, inputs: {}, children };
  return compileTemplate(source, { name: 't', dialect: 'orkestra' }).render(data);
}

describe(`pod notes (${CATALOG}; ${TESTS})`, () => {
  const deployment = (pods: unknown[] | undefined): Record<string, unknown> => ({ deployment: { metadata: { name: 'web' }, ...(pods === undefined ? {} : { _pods: pods }) } });

  test('names, IPs, nodes and phases are joined with ", "; an empty IP or node is left out', () => {
    const two = deployment([pod('web-abc', '10.0.0.1', 'Running', true, 0), pod('web-def', '10.0.0.2', 'Pending', false, 0)]);
    const rows: Array<[string, Record<string, unknown>, unknown]> = [
      ['{{ podNames .children.deployment }}', two, 'web-abc, web-def'],
      ['{{ podIPs .children.deployment }}', two, '10.0.0.1, 10.0.0.2'],
      ['{{ podIPs .children.deployment }}', deployment([pod('web-abc', '', 'Pending', false, 0)]), ''],
      ['{{ podNodes .children.deployment }}', two, 'node-1, node-1'],
      ['{{ podPhases .children.deployment }}', two, 'Running, Pending'],
      ['{{ podNames .children.deployment }}', deployment([]), ''],
      ['{{ podNames .children.deployment }}', deployment(undefined), ''],
      ['{{ podNames .children.missing }}', {}, ''],
    ];
    for (const [source, children, expected] of rows) assert.equal(render(source, children), expected, source);
  });

  test('counts: podCount, readyPodCount, podMaxRestarts; hasCrashingPod is more than two restarts', () => {
    const three = deployment([pod('web-0', 'a', 'Running', true, 1), pod('web-1', 'b', 'Running', true, 5), pod('web-2', 'c', 'Pending', false, 3)]);
    assert.equal(render('{{ podCount .children.deployment }}', three), 3);
    assert.equal(render('{{ readyPodCount .children.deployment }}', three), 2);
    assert.equal(render('{{ podMaxRestarts .children.deployment }}', three), 5);
    assert.equal(render('{{ podCount .children.deployment }}', deployment(undefined)), 0);
    assert.equal(render('{{ hasCrashingPod .children.deployment }}', deployment([pod('web-abc', 'a', 'Running', false, 3)])), true);
    assert.equal(render('{{ hasCrashingPod .children.deployment }}', deployment([pod('web-abc', 'a', 'Running', true, 2)])), false, 'threshold is > 2');
    assert.equal(render('{{ hasCrashingPod .children.deployment }}', deployment([])), false);
  });

  test('podByOrdinal and podContainerState read the StatefulSet member by ordinal', () => {
    const sts = { statefulset: { _pods: [0, 1, 2].map((n) => pod(`redis-${n}`, `10.0.0.${n + 1}`, 'Running', true, 0, { ordinal: n, containers: [container('app', n === 2 ? 'Waiting' : 'Running', '')] })) } };
    assert.equal(render('{{ (podByOrdinal .children.statefulset 0).name }}', sts), 'redis-0');
    assert.equal(render('{{ (podByOrdinal .children.statefulset 2).ip }}', sts), '10.0.0.3');
    assert.equal(render('{{ podByOrdinal .children.statefulset 9 }}', sts), null);
    assert.equal(render('{{ podContainerState .children.statefulset 2 "app" }}', sts), 'Waiting');
    assert.equal(render('{{ podContainerState .children.statefulset 0 "sidecar" }}', sts), '');
  });

  test('container reasons: each *Detected note, and the distinct reasons in order', () => {
    const withReason = (reason: string, state = 'Waiting'): Record<string, unknown> =>
      deployment([pod('p-0', 'a', 'Running', true, 0, { containers: [container('app', 'Running', '')] }), pod('p-1', 'b', 'Pending', false, 0, { containers: [container('app', state, reason)] })]);
    const detected: Array<[string, string, string?]> = [
      ['podCrashLoopDetected', 'CrashLoopBackOff'],
      ['podImagePullBackOffDetected', 'ImagePullBackOff'],
      ['podErrImagePullDetected', 'ErrImagePull'],
      ['podErrorDetected', 'Error', 'Terminated'],
      ['podOOMKilledDetected', 'OOMKilled', 'Terminated'],
      ['podCreateContainerErrorDetected', 'CreateContainerError'],
      ['podInvalidImageNameDetected', 'InvalidImageName'],
      ['podRunContainerErrorDetected', 'RunContainerError'],
      ['podPreStartHookErrorDetected', 'PreStartHookError'],
      ['podPostStartHookErrorDetected', 'PostStartHookError'],
    ];
    for (const [note, reason, state] of detected) {
      assert.equal(render(`{{ ${note} .children.deployment }}`, withReason(reason, state)), true, note);
      assert.equal(render(`{{ ${note} .children.deployment }}`, withReason('Other', state)), false, `${note} (another reason)`);
      assert.equal(render(`{{ ${note} .children.deployment }}`, deployment(undefined)), false, `${note} (no _pods)`);
    }
    const mixed = deployment([
      pod('p-0', 'a', 'Running', true, 0, { containers: [container('app', 'Waiting', 'CrashLoopBackOff'), container('sidecar', 'Waiting', 'ImagePullBackOff')] }),
      pod('p-1', 'b', 'Running', true, 0, { containers: [container('app', 'Waiting', 'CrashLoopBackOff'), container('x', 'Running', '')] }),
    ]);
    assert.equal(render('{{ podContainerReasons .children.deployment }}', mixed), 'CrashLoopBackOff, ImagePullBackOff');
  });
});

describe('the pod summary katalog builds from a Pod (the shape the notes read)', () => {
  test('ready from the Ready condition, restarts summed over containers, ordinal from the StatefulSet name, first exit code', () => {
    const summary = podSummary(
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'db-2', namespace: 'ns' },
        spec: { nodeName: 'node-7' },
        status: {
          phase: 'Running',
          podIP: '10.1.0.9',
          conditions: [{ type: 'Ready', status: 'True' }],
          containerStatuses: [
            { name: 'db', image: 'postgres:16', ready: true, restartCount: 2, state: { running: {} } },
            { name: 'init', image: 'busybox', ready: false, restartCount: 1, state: { terminated: { reason: 'Completed', exitCode: 0 } } },
          ],
        },
      },
      'db',
    );
    assert.deepEqual(summary, {
      name: 'db-2',
      ip: '10.1.0.9',
      phase: 'Running',
      ready: true,
      node: 'node-7',
      restartCount: 3,
      ordinal: 2,
      exitCode: 0,
      containers: [
        { name: 'db', image: 'postgres:16', state: 'Running', reason: '', ready: true, restartCount: 2 },
        { name: 'init', image: 'busybox', state: 'Terminated', reason: 'Completed', ready: false, restartCount: 1 },
      ],
    });
    const bare = podSummary({ metadata: { name: 'web-5d9-abc' } }, undefined);
    assert.deepEqual([bare['ready'], bare['ordinal'], bare['exitCode'], bare['ip']], [false, -1, -1, '']);
  });
});
