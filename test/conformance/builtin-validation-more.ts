// How kube-apiserver 1.37.2 refuses a second batch of common mistakes in built-in kinds (POST), each expectation
// probed on it (temp/probes/builtin-validation-more.json): its 422 Invalid answers (status, reason, message, details),
// no Warning headers, and nothing stored (GET 404 after a refusal); each object is a minimal valid one of its kind with
// one mistake. What the server accepts instead is asserted too: 201, the Warning headers (none, or the one it gives),
// the stored value, then the object is deleted. The server defaults first, then validates. Checked:
// Deployment spec: a rolling update with maxUnavailable and maxSurge both 0 (named maxUnavailable), a percent without
// `%`, maxUnavailable over 100% or negative (maxSurge 150% is accepted: only maxUnavailable is capped, and the omitted
// one is defaulted to 25%), negative minReadySeconds and revisionHistoryLimit, progressDeadlineSeconds not above
// minReadySeconds. Probes: no handler, two handlers (the second named, Forbidden), httpGet without port (checked as
// port 0: Invalid, not Required), port 0, an invalid port name, tcpSocket port 70000, negative periodSeconds, a
// livenessProbe successThreshold other than 1 (a readinessProbe's 2 is accepted), exec without command. Env: a
// secretKeyRef without key (Required) but a configMapKeyRef without name (Invalid "" against the RFC 1123 subdomain
// rule), value with valueFrom and an empty valueFrom (both Invalid "" on valueFrom), an unsupported fieldRef path, an
// empty envFrom source. Resources: a negative limit; a fractional memory request (`0.5`) is accepted with a warning
// and stored as `500m`; an unknown name `Bogus` is two causes on the same field; an extended resource must be an
// integer, must have a limit, and its request must equal it. Volumes: duplicate names, two sources (the second named,
// Forbidden), a configMap without name, a secret item without path or with `..`, a mount without mountPath, two mounts
// on one path. CronJob schedules: robfig/cron's parse errors verbatim (range, field count, step 0, not a number);
// `@every 1h` and `@hourly` are accepted; `TZ=`/`CRON_TZ=` in the schedule is refused in favour of timeZone; an unknown
// timeZone is refused, Europe/Berlin accepted. HorizontalPodAutoscaler (autoscaling/v2): maxReplicas 0 is two causes
// (below the defaulted minReplicas 1, then Required), minReplicas above maxReplicas, scaleTargetRef without name, a
// Resource metric without target (three causes) or a Utilization target without averageUtilization.
// PodDisruptionBudget: minAvailable with maxUnavailable (the whole spec printed as the internal Go struct, field names
// capitalised), minAvailable over 100% or negative. NetworkPolicy: an unknown policyType, port 70000, an ipBlock that is
// not a CIDR. Core kinds (named without a group): a ServiceAccount named Bad_Name, a ResourceQuota's negative hard
// cpu, a LimitRange item of type Bogus.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unique, type Backend } from './backend.js';
import { at, both, CRONJOB, DEPLOYMENT, drop, invalid, NS, set, type Edit, type Kind, type Obj } from './builtin-objects.js';
import { answered, type Cause } from './invalid-answer.js';
import { raw } from './raw-http.js';

const meta = (name: string): Obj => ({ name, namespace: NS });
const HPA: Kind = {
  group: 'autoscaling',
  kind: 'HorizontalPodAutoscaler',
  path: `/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers`,
  base: (name) => ({
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: meta(name),
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 3 },
  }),
};
const PDB: Kind = {
  group: 'policy',
  kind: 'PodDisruptionBudget',
  path: `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`,
  base: (name) => ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: meta(name), spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } }),
};
const NETWORKPOLICY: Kind = {
  group: 'networking.k8s.io',
  kind: 'NetworkPolicy',
  path: `/apis/networking.k8s.io/v1/namespaces/${NS}/networkpolicies`,
  base: (name) => ({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: meta(name), spec: { podSelector: {} } }),
};
const SERVICEACCOUNT: Kind = {
  group: '',
  kind: 'ServiceAccount',
  path: `/api/v1/namespaces/${NS}/serviceaccounts`,
  base: (name) => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta(name) }),
};
const RESOURCEQUOTA: Kind = {
  group: '',
  kind: 'ResourceQuota',
  path: `/api/v1/namespaces/${NS}/resourcequotas`,
  base: (name) => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: meta(name), spec: { hard: { cpu: '1' } } }),
};
const LIMITRANGE: Kind = {
  group: '',
  kind: 'LimitRange',
  path: `/api/v1/namespaces/${NS}/limitranges`,
  base: (name) => ({ apiVersion: 'v1', kind: 'LimitRange', metadata: meta(name), spec: { limits: [{ type: 'Container', max: { cpu: '1' } }] } }),
};

const NONNEGATIVE = 'must be greater than or equal to 0';
const PORT_RANGE = 'must be between 1 and 65535, inclusive';
const IANA_NAME = 'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)';
const DNS1123_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const PERCENT = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";
const OVER_100 = 'must not be greater than 100%';
const NO_TZ = 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead';
const MIN_REPLICAS = 'must be greater than or equal to `minReplicas`';
const TARGET_VALUE = 'Required value: must set either a target raw value or a target utilization';

const T = 'spec.template.spec';
const C = `${T}.containers[0]`;
const S = 'spec.strategy.rollingUpdate';

/** The object (valid, then edited) and its name (as the edit left it). */
function objectOf(kind: Kind, edit: Edit): { name: string; object: Obj } {
  const object = kind.base(unique('bvm'));
  edit(object);
  return { name: String((object['metadata'] as Obj)['name']), object };
}

/** Each object (valid, then edited) must be refused with exactly these causes, no warnings, and nothing stored. */
async function refused(backend: Backend, kind: Kind, cases: Array<[Edit, Cause[]]>): Promise<void> {
  for (const [edit, causes] of cases) {
    const { name, object } = objectOf(kind, edit);
    const answer = await raw(backend.kubeConfig, 'POST', kind.path, JSON.stringify(object));
    assert.deepEqual({ ...answered(answer), warnings: answer.warnings }, { ...invalid(kind, name, causes), warnings: [] }, JSON.stringify(object));
    assert.equal((await raw(backend.kubeConfig, 'GET', `${kind.path}/${encodeURIComponent(name)}`)).status, 404, `nothing stored for ${JSON.stringify(object)}`);
  }
}

/**
 * Each object (valid, then edited) must be created (201) with exactly these Warning headers; `stored` checks what the
 * answer holds. Then it is deleted (200, GET 404).
 */
async function accepted(backend: Backend, kind: Kind, cases: Array<[Edit, (stored: Obj) => void]>, warnings: string[] = []): Promise<void> {
  for (const [edit, stored] of cases) {
    const { name, object } = objectOf(kind, edit);
    const answer = await raw(backend.kubeConfig, 'POST', kind.path, JSON.stringify(object));
    assert.equal(answer.status, 201, `${JSON.stringify(object)}: ${String(answer.body['message'])}`);
    assert.deepEqual(answer.warnings, warnings, JSON.stringify(object));
    stored(answer.body);
    const path = `${kind.path}/${name}`;
    assert.equal((await raw(backend.kubeConfig, 'DELETE', `${path}?propagationPolicy=Background`)).status, 200, `delete ${path}`);
    assert.equal((await raw(backend.kubeConfig, 'GET', path)).status, 404, `${path} deleted`);
  }
}

const is =
  (path: string, value: unknown) =>
  (stored: Obj): void =>
    assert.deepEqual(at(stored, path), value, path);

export function builtinMoreValidationSuite(backend: () => Backend): void {
  describe('built-in kinds: more validation', () => {
    test('Deployment: rolling update, minReadySeconds, progressDeadlineSeconds, revisionHistoryLimit; maxSurge 150% is accepted', async () => {
      const rolling = (value: Obj): Edit => set('spec.strategy', { type: 'RollingUpdate', rollingUpdate: value });
      await refused(backend(), DEPLOYMENT, [
        [rolling({ maxUnavailable: 0, maxSurge: 0 }), [['FieldValueInvalid', `${S}.maxUnavailable`, 'Invalid value: 0: may not be 0 when `maxSurge` is 0']]],
        [rolling({ maxUnavailable: '25' }), [['FieldValueInvalid', `${S}.maxUnavailable`, `Invalid value: "25": ${PERCENT}`]]],
        [rolling({ maxUnavailable: '150%' }), [['FieldValueInvalid', `${S}.maxUnavailable`, `Invalid value: "150%": ${OVER_100}`]]],
        [rolling({ maxUnavailable: -1 }), [['FieldValueInvalid', `${S}.maxUnavailable`, `Invalid value: -1: ${NONNEGATIVE}`]]],
        [set('spec.minReadySeconds', -1), [['FieldValueInvalid', 'spec.minReadySeconds', `Invalid value: -1: ${NONNEGATIVE}`]]],
        [both(set('spec.progressDeadlineSeconds', 5), set('spec.minReadySeconds', 10)), [['FieldValueInvalid', 'spec.progressDeadlineSeconds', 'Invalid value: 5: must be greater than minReadySeconds']]],
        [set('spec.revisionHistoryLimit', -1), [['FieldValueInvalid', 'spec.revisionHistoryLimit', `Invalid value: -1: ${NONNEGATIVE}`]]],
      ]);
      await accepted(backend(), DEPLOYMENT, [[rolling({ maxSurge: '150%' }), is('spec.strategy.rollingUpdate', { maxUnavailable: '25%', maxSurge: '150%' })]]);
    });

    test('Deployment: probe mistakes (handlers, ports, periodSeconds, a liveness successThreshold, exec); a readiness successThreshold 2 is accepted', async () => {
      const L = `${C}.livenessProbe`;
      const liveness = (probe: Obj): Edit => set(L, probe);
      await refused(backend(), DEPLOYMENT, [
        [liveness({}), [['FieldValueRequired', L, 'Required value: must specify a handler type']]],
        [liveness({ httpGet: { port: 80 }, tcpSocket: { port: 80 } }), [['FieldValueForbidden', `${L}.tcpSocket`, 'Forbidden: may not specify more than 1 handler type']]],
        // No port is port 0: Invalid, not Required.
        [liveness({ httpGet: {} }), [['FieldValueInvalid', `${L}.httpGet.port`, `Invalid value: 0: ${PORT_RANGE}`]]],
        [liveness({ httpGet: { port: 0 } }), [['FieldValueInvalid', `${L}.httpGet.port`, `Invalid value: 0: ${PORT_RANGE}`]]],
        [liveness({ httpGet: { port: 'Bad_Name' } }), [['FieldValueInvalid', `${L}.httpGet.port`, `Invalid value: "Bad_Name": ${IANA_NAME}`]]],
        [liveness({ tcpSocket: { port: 70000 } }), [['FieldValueInvalid', `${L}.tcpSocket.port`, `Invalid value: 70000: ${PORT_RANGE}`]]],
        [liveness({ tcpSocket: { port: 80 }, periodSeconds: -1 }), [['FieldValueInvalid', `${L}.periodSeconds`, `Invalid value: -1: ${NONNEGATIVE}`]]],
        [liveness({ tcpSocket: { port: 80 }, successThreshold: 2 }), [['FieldValueInvalid', `${L}.successThreshold`, 'Invalid value: 2: must be 1']]],
        [liveness({ exec: {} }), [['FieldValueRequired', `${L}.exec.command`, 'Required value']]],
      ]);
      await accepted(backend(), DEPLOYMENT, [[set(`${C}.readinessProbe`, { tcpSocket: { port: 80 }, successThreshold: 2 }), is('spec.template.spec.containers[0].readinessProbe.successThreshold', 2)]]);
    });

    test('Deployment: env mistakes (a keyRef without key or name, value with valueFrom, an empty valueFrom, a fieldRef path, an empty envFrom)', async () => {
      const env = (value: Obj): Edit => set(`${C}.env`, [{ name: 'A', ...value }]);
      const E = `${C}.env[0].valueFrom`;
      await refused(backend(), DEPLOYMENT, [
        [env({ valueFrom: { secretKeyRef: { name: 's' } } }), [['FieldValueRequired', `${E}.secretKeyRef.key`, 'Required value']]],
        // A missing name is checked as an empty one: Invalid, not Required.
        [env({ valueFrom: { configMapKeyRef: { key: 'k' } } }), [['FieldValueInvalid', `${E}.configMapKeyRef.name`, `Invalid value: "": ${DNS1123_SUBDOMAIN}`]]],
        [env({ value: 'x', valueFrom: { configMapKeyRef: { name: 'c', key: 'k' } } }), [['FieldValueInvalid', E, 'Invalid value: "": may not be specified when `value` is not empty']]],
        [env({ valueFrom: {} }), [['FieldValueInvalid', E, 'Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`']]],
        [
          env({ valueFrom: { fieldRef: { fieldPath: 'spec.bogus' } } }),
          [['FieldValueInvalid', `${E}.fieldRef.fieldPath`, 'Invalid value: "spec.bogus": error converting fieldPath: field label not supported: spec.bogus']],
        ],
        [set(`${C}.envFrom`, [{}]), [['FieldValueInvalid', `${C}.envFrom`, 'Invalid value: "": must specify one of: `configMapRef` or `secretRef`']]],
      ]);
    });

    test('Deployment: resource mistakes (negative, unknown name, extended resources); a fractional memory request is accepted with a warning', async () => {
      const R = `${C}.resources`;
      const resources = (value: Obj): Edit => set(R, value);
      await refused(backend(), DEPLOYMENT, [
        [resources({ limits: { cpu: '-1' } }), [['FieldValueInvalid', `${R}.limits[cpu]`, `Invalid value: "-1": ${NONNEGATIVE}`]]],
        [
          resources({ limits: { Bogus: '1' } }),
          [
            ['FieldValueInvalid', `${R}.limits[Bogus]`, 'Invalid value: "Bogus": must be a standard resource type or fully qualified'],
            ['FieldValueInvalid', `${R}.limits[Bogus]`, 'Invalid value: "Bogus": must be a standard resource for containers'],
          ],
        ],
        // The quantity is printed canonically (1.5 as 1500m); the request defaulted from the limit is not reported.
        [resources({ limits: { 'example.com/gpu': '1.5' } }), [['FieldValueInvalid', `${R}.limits[example.com/gpu]`, 'Invalid value: "1500m": must be an integer']]],
        [resources({ requests: { 'example.com/gpu': '1' } }), [['FieldValueRequired', `${R}.limits`, 'Required value: Limit must be set for non overcommitable resources']]],
        [resources({ requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '2' } }), [['FieldValueInvalid', `${R}.requests`, 'Invalid value: "1": must be equal to example.com/gpu limit of 2']]],
      ]);
      await accepted(
        backend(),
        DEPLOYMENT,
        [[resources({ requests: { memory: '0.5' } }), is('spec.template.spec.containers[0].resources', { requests: { memory: '500m' } })]],
        [`${R}.requests[memory]: fractional byte value "500m" is invalid, must be an integer`],
      );
    });

    test('Deployment: volume mistakes (duplicate names, two sources, a configMap without name, secret item paths, mounts without or sharing a mountPath)', async () => {
      const V = `${T}.volumes`;
      const volumes = (value: Obj[], mounts?: Obj[]): Edit => both(set(V, value), mounts === undefined ? () => undefined : set(`${C}.volumeMounts`, mounts));
      await refused(backend(), DEPLOYMENT, [
        [volumes([{ name: 'a', emptyDir: {} }, { name: 'a', emptyDir: {} }]), [['FieldValueDuplicate', `${V}[1].name`, 'Duplicate value: "a"']]],
        [volumes([{ name: 'a', emptyDir: {}, configMap: { name: 'c' } }]), [['FieldValueForbidden', `${V}[0].configMap`, 'Forbidden: may not specify more than 1 volume type']]],
        [volumes([{ name: 'a', configMap: {} }]), [['FieldValueRequired', `${V}[0].configMap.name`, 'Required value']]],
        [volumes([{ name: 'a', secret: { secretName: 's', items: [{ key: 'k' }] } }]), [['FieldValueRequired', `${V}[0].secret.items[0].path`, 'Required value']]],
        [volumes([{ name: 'a', secret: { secretName: 's', items: [{ key: 'k', path: '../x' }] } }]), [['FieldValueInvalid', `${V}[0].secret.items[0].path`, `Invalid value: "../x": must not contain '..'`]]],
        [volumes([{ name: 'a', emptyDir: {} }], [{ name: 'a' }]), [['FieldValueRequired', `${C}.volumeMounts[0].mountPath`, 'Required value']]],
        [
          volumes(
            [
              { name: 'a', emptyDir: {} },
              { name: 'b', emptyDir: {} },
            ],
            [
              { name: 'a', mountPath: '/d' },
              { name: 'b', mountPath: '/d' },
            ],
          ),
          [['FieldValueInvalid', `${C}.volumeMounts[1].mountPath`, 'Invalid value: "/d": must be unique']],
        ],
      ]);
    });

    test('CronJob: schedule parse errors, TZ in the schedule, an unknown timeZone; @every, @hourly and timeZone Europe/Berlin are accepted', async () => {
      const schedule = (value: string, message: string): [Edit, Cause[]] => [set('spec.schedule', value), [['FieldValueInvalid', 'spec.schedule', `Invalid value: ${JSON.stringify(value)}: ${message}`]]];
      await refused(backend(), CRONJOB, [
        schedule('61 * * * *', 'end of range (61) above maximum (59): 61'),
        schedule('* * * * * *', 'expected exactly 5 fields, found 6: [* * * * * *]'),
        schedule('*/0 * * * *', 'step of range should be a positive number: */0'),
        schedule('TZ=Europe/Berlin 0 * * * *', NO_TZ),
        schedule('CRON_TZ=Europe/Berlin 0 * * * *', NO_TZ),
        schedule('* * 32 * *', 'end of range (32) above maximum (31): 32'),
        schedule('a * * * *', 'failed to parse int from a: strconv.Atoi: parsing "a": invalid syntax'),
        [set('spec.timeZone', 'Mars/Olympus'), [['FieldValueInvalid', 'spec.timeZone', 'Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus']]],
      ]);
      await accepted(backend(), CRONJOB, [
        [set('spec.schedule', '@every 1h'), is('spec.schedule', '@every 1h')],
        [set('spec.schedule', '@hourly'), is('spec.schedule', '@hourly')],
        [set('spec.timeZone', 'Europe/Berlin'), is('spec.timeZone', 'Europe/Berlin')],
      ]);
    });

    test('HorizontalPodAutoscaler (autoscaling/v2): maxReplicas, minReplicas above maxReplicas, scaleTargetRef name, metric targets', async () => {
      const M = 'spec.metrics[0].resource.target';
      await refused(backend(), HPA, [
        // minReplicas is defaulted to 1 first; then maxReplicas is below it, and also missing (0).
        [
          set('spec.maxReplicas', 0),
          [
            ['FieldValueInvalid', 'spec.maxReplicas', `Invalid value: 0: ${MIN_REPLICAS}`],
            ['FieldValueRequired', 'spec.maxReplicas', 'Required value'],
          ],
        ],
        [both(set('spec.minReplicas', 5), set('spec.maxReplicas', 2)), [['FieldValueInvalid', 'spec.maxReplicas', `Invalid value: 2: ${MIN_REPLICAS}`]]],
        [drop('spec.scaleTargetRef.name'), [['FieldValueRequired', 'spec.scaleTargetRef.name', 'Required value']]],
        [
          set('spec.metrics', [{ type: 'Resource', resource: { name: 'cpu' } }]),
          [
            ['FieldValueRequired', `${M}.type`, 'Required value: must specify a metric target type'],
            ['FieldValueInvalid', `${M}.type`, 'Invalid value: "": must be either Utilization, Value, or AverageValue'],
            ['FieldValueRequired', `${M}.averageUtilization`, TARGET_VALUE],
          ],
        ],
        [set('spec.metrics', [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization' } } }]), [['FieldValueRequired', `${M}.averageUtilization`, TARGET_VALUE]]],
      ]);
    });

    test('PodDisruptionBudget: minAvailable with maxUnavailable (the spec printed as a Go struct), minAvailable over 100% or negative', async () => {
      await refused(backend(), PDB, [
        [
          set('spec.maxUnavailable', 1),
          [
            [
              'FieldValueInvalid',
              'spec',
              'Invalid value: {"MinAvailable":1,"Selector":{"matchLabels":{"app":"web"}},"MaxUnavailable":1,"UnhealthyPodEvictionPolicy":null}: minAvailable and maxUnavailable cannot be both set',
            ],
          ],
        ],
        [set('spec.minAvailable', '150%'), [['FieldValueInvalid', 'spec.minAvailable', `Invalid value: "150%": ${OVER_100}`]]],
        [set('spec.minAvailable', -1), [['FieldValueInvalid', 'spec.minAvailable', `Invalid value: -1: ${NONNEGATIVE}`]]],
      ]);
    });

    test('NetworkPolicy: an unknown policyType, an ingress port 70000, an ipBlock that is not a CIDR', async () => {
      await refused(backend(), NETWORKPOLICY, [
        [set('spec.policyTypes', ['Bogus']), [['FieldValueNotSupported', 'spec.policyTypes[0]', 'Unsupported value: "Bogus": supported values: "Ingress", "Egress"']]],
        [set('spec.ingress', [{ ports: [{ port: 70000 }] }]), [['FieldValueInvalid', 'spec.ingress[0].ports[0].port', `Invalid value: 70000: ${PORT_RANGE}`]]],
        [
          set('spec.ingress', [{ from: [{ ipBlock: { cidr: 'x' } }] }]),
          [['FieldValueInvalid', 'spec.ingress[0].from[0].ipBlock.cidr', 'Invalid value: "x": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)']],
        ],
      ]);
    });

    test('ServiceAccount, ResourceQuota, LimitRange: an invalid name, a negative hard cpu, an unknown limit type', async () => {
      await refused(backend(), SERVICEACCOUNT, [[set('metadata.name', 'Bad_Name'), [['FieldValueInvalid', 'metadata.name', `Invalid value: "Bad_Name": ${DNS1123_SUBDOMAIN}`]]]]);
      await refused(backend(), RESOURCEQUOTA, [[set('spec.hard', { cpu: '-1' }), [['FieldValueInvalid', 'spec.hard[cpu]', `Invalid value: "-1": ${NONNEGATIVE}`]]]]);
      await refused(backend(), LIMITRANGE, [[set('spec.limits[0].type', 'Bogus'), [['FieldValueInvalid', 'spec.limits[0].type', 'Invalid value: "Bogus": must be a standard limit type or fully qualified']]]]);
    });

    test("a ConfigMap's or Secret's values over 1 MiB in all (a ConfigMap's counts data and decoded binaryData; exactly 1 MiB is accepted)", async () => {
      const MiB = 1024 * 1024;
      const tooLong = (kind: string, name: string, field: string): unknown => ({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `${kind} "${name}" is invalid: ${field}: Too long: may not be more than ${MiB} bytes`,
        reason: 'Invalid',
        details: { name, kind, causes: [{ reason: 'FieldValueTooLong', message: `Too long: may not be more than ${MiB} bytes`, field }] },
        code: 422,
      });
      const post = (path: string, body: Obj): ReturnType<typeof raw> => raw(backend().kubeConfig, 'POST', `/api/v1/namespaces/${NS}/${path}`, JSON.stringify(body));
      const full = unique('full');
      assert.equal((await post('configmaps', { metadata: meta(full), data: { a: 'x'.repeat(MiB) } })).status, 201);
      const halves = unique('halves');
      const both = await post('configmaps', { metadata: meta(halves), data: { a: 'x'.repeat(600_000) }, binaryData: { b: Buffer.alloc(600_000).toString('base64') } });
      assert.deepEqual(both.body, tooLong('ConfigMap', halves, '[]'));
      const grown = await raw(backend().kubeConfig, 'PATCH', `/api/v1/namespaces/${NS}/configmaps/${full}`, JSON.stringify({ data: { more: 'y' } }), 'application/merge-patch+json');
      assert.deepEqual(grown.body, tooLong('ConfigMap', full, '[]'));
      const secret = unique('secret');
      const refusedSecret = await post('secrets', { metadata: meta(secret), data: { a: Buffer.alloc(MiB + 1).toString('base64') } });
      assert.deepEqual(refusedSecret.body, tooLong('Secret', secret, 'data'));
      assert.equal((await post('secrets', { metadata: meta(unique('secret')), stringData: { a: 'x'.repeat(MiB) } })).status, 201);
    });
  });
}
