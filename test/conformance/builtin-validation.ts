// How kube-apiserver 1.37.2 refuses common mistakes in built-in kinds (POST, and PUT where noted), each expectation
// probed on it (temp/probes/builtin-validation.json): its 422 Invalid answers (status, reason, message, details),
// no Warning headers, and nothing stored (GET 404 after a refused create; the object unchanged after a refused
// update). Each object is a minimal valid one of its kind with one mistake, unless the server always gives several
// for it or the case is about several (the order then asserted). The server defaults first, then validates: a Job's
// omitted restartPolicy is refused as Always was, a Service port's targetPort is the port (so port 0 is two causes),
// a Job's selector carries the generated controller-uid label, a Service's clusterIP is checked as clusterIPs[0].
// Core kinds (Pod, Service, ConfigMap, Secret, PersistentVolumeClaim) are named without a group: `Pod "x" is
// invalid: …`, and their details have no group. Checked: Deployment pod template (containers, names, ports, env,
// resources, volume mounts, restartPolicy, template labels) and spec (selector, replicas, strategy), where an invalid
// selector stops the template from being checked at all; StatefulSet, DaemonSet, ReplicaSet selectors and
// podManagementPolicy (a StatefulSet without serviceName is accepted); Job and CronJob restartPolicy, backoffLimit, a
// selector without manualSelector, schedules; Pod restartPolicy and updates (the image may change, ports not: the
// message is compared up to the unified diff of the internal pod spec kube-apiserver appends); Service ports, type, clusterIP, externalName, nodePort,
// sessionAffinity, protocol and an immutable clusterIP; ConfigMap and Secret keys, a TLS Secret's keys, a Secret's
// data that is not base64 (400, a decode error), its immutable type and immutable data; Ingress paths and backends;
// Role rules and RoleBinding roleRef (required, immutable); PersistentVolumeClaim accessModes and storage request.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unique, type Backend } from './backend.js';
import { both, CONFIGMAP, CRONJOB, DAEMONSET, DEPLOYMENT, drop, INGRESS, invalid, JOB, MISMATCH, NS, POD, POD_UPDATE_FORBIDDEN, PVC, RBAC, REPLICASET, ROLE, ROLEBINDING, SECRET, SERVICE, set, STATEFULSET, type Edit, type Kind, type Obj } from './builtin-objects.js';
import { answered, type Answered, type Cause } from './invalid-answer.js';
import { raw, type RawAnswer } from './raw-http.js';

/** The causes expected, or (for a value the server generates) a function of the answer giving them. */
type Causes = Cause[] | ((answer: RawAnswer) => Cause[]);

const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const DNS1123_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const CONFIG_KEY =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
const IANA_NAME = 'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)';
const PORT_RANGE = 'must be between 1 and 65535, inclusive';
const JOB_RESTART = 'Required value: valid values: "OnFailure", "Never"';

/** An answer with every message cut at its first line break: what both servers say before kube-apiserver's Go diff. */
function firstLines(answer: Answered): Answered {
  const cut = (text: unknown): unknown => (typeof text === 'string' ? text.split('\n')[0] : text);
  const details = answer.details as { causes?: Array<Record<string, unknown>> } | undefined;
  return { ...answer, message: cut(answer.message), details: details === undefined ? details : { ...details, causes: details.causes?.map((c) => ({ ...c, message: cut(c['message']) })) } };
}

function objectOf(kind: Kind, edit: Edit): { name: string; object: Obj } {
  const name = unique('bv');
  const object = kind.base(name);
  edit(object);
  return { name, object };
}

/** Each object (valid, then edited) must be refused with exactly these causes, no warnings, and nothing stored. */
async function refused(backend: Backend, kind: Kind, cases: Array<[Edit, Causes]>): Promise<void> {
  for (const [edit, causes] of cases) {
    const { name, object } = objectOf(kind, edit);
    const answer = await raw(backend.kubeConfig, 'POST', kind.path, JSON.stringify(object));
    const want = typeof causes === 'function' ? causes(answer) : causes;
    assert.deepEqual({ ...answered(answer), warnings: answer.warnings }, { ...invalid(kind, name, want), warnings: [] }, JSON.stringify(object));
    assert.equal((await raw(backend.kubeConfig, 'GET', `${kind.path}/${name}`)).status, 404, `nothing stored for ${JSON.stringify(object)}`);
  }
}

/** Each object (valid, then edited) must be created (201, no warnings); answers what was stored. */
async function accepted(backend: Backend, kind: Kind, edits: Edit[]): Promise<Obj[]> {
  const out: Obj[] = [];
  for (const edit of edits) {
    const { object } = objectOf(kind, edit);
    const answer = await raw(backend.kubeConfig, 'POST', kind.path, JSON.stringify(object));
    assert.equal(answer.status, 201, `${JSON.stringify(object)}: ${String(answer.body['message'])}`);
    assert.deepEqual(answer.warnings, [], JSON.stringify(object));
    out.push(answer.body);
  }
  return out;
}

/** Creates the object (valid, then `create`d), reads it, applies `change` and PUTs it back: the read and the answer. */
async function put(backend: Backend, kind: Kind, create: Edit, change: Edit): Promise<{ name: string; before: Obj; sent: Obj; answer: RawAnswer }> {
  const [stored] = await accepted(backend, kind, [create]);
  const name = String((stored?.['metadata'] as Obj | undefined)?.['name']);
  const before = (await raw(backend.kubeConfig, 'GET', `${kind.path}/${name}`)).body;
  const sent = structuredClone(before);
  change(sent);
  return { name, before, sent, answer: await raw(backend.kubeConfig, 'PUT', `${kind.path}/${name}`, JSON.stringify(sent)) };
}

/** Each update must be refused with exactly these causes (a function of the object sent, when it depends on it), and the object left as it was. */
async function refusedUpdates(backend: Backend, kind: Kind, cases: Array<[create: Edit, change: Edit, causes: Cause[] | ((sent: Obj) => Cause[])]>): Promise<void> {
  for (const [create, change, causes] of cases) {
    const { name, before, sent, answer } = await put(backend, kind, create, change);
    const want = typeof causes === 'function' ? causes(sent) : causes;
    assert.deepEqual({ ...answered(answer), warnings: answer.warnings }, { ...invalid(kind, name, want), warnings: [] }, JSON.stringify(sent));
    assert.deepEqual((await raw(backend.kubeConfig, 'GET', `${kind.path}/${name}`)).body, before, `${name} unchanged`);
  }
}

const T = 'spec.template.spec';
const C = `${T}.containers[0]`;

export function builtinValidationSuite(backend: () => Backend): void {
  describe('built-in kinds: validation', () => {
    test('Deployment: pod template mistakes (containers, names, ports, env, resources, volume mounts, restartPolicy, template labels)', async () => {
      await refused(backend(), DEPLOYMENT, [
        [set(`${T}.containers`, []), [['FieldValueRequired', `${T}.containers`, 'Required value']]],
        [drop(`${C}.image`), [['FieldValueRequired', `${C}.image`, 'Required value']]],
        [drop(`${C}.name`), [['FieldValueRequired', `${C}.name`, 'Required value']]],
        [set(`${C}.name`, 'Web'), [['FieldValueInvalid', `${C}.name`, `Invalid value: "Web": ${DNS1123_LABEL}`]]],
        [set(`${T}.containers[1]`, { name: 'web', image: 'busybox' }), [['FieldValueDuplicate', `${T}.containers[1].name`, 'Duplicate value: "web"']]],
        [set(`${C}.ports`, [{ containerPort: 0 }]), [['FieldValueRequired', `${C}.ports[0].containerPort`, 'Required value']]],
        [set(`${C}.ports`, [{ containerPort: 70000 }]), [['FieldValueInvalid', `${C}.ports[0].containerPort`, `Invalid value: 70000: ${PORT_RANGE}`]]],
        [set(`${C}.ports`, [{ name: 'abcdefghijklmnop', containerPort: 80 }]), [['FieldValueInvalid', `${C}.ports[0].name`, 'Invalid value: "abcdefghijklmnop": must be no more than 15 characters']]],
        [set(`${C}.ports`, [{ name: 'Http', containerPort: 80 }]), [['FieldValueInvalid', `${C}.ports[0].name`, `Invalid value: "Http": ${IANA_NAME}`]]],
        [set(`${C}.env`, [{ value: 'x' }]), [['FieldValueRequired', `${C}.env[0].name`, 'Required value']]],
        [
          set(`${C}.resources`, { limits: { cpu: '100m' }, requests: { cpu: '200m' } }),
          [['FieldValueInvalid', `${C}.resources.requests`, 'Invalid value: "200m": must be less than or equal to cpu limit of 100m']],
        ],
        [set(`${C}.volumeMounts`, [{ name: 'data', mountPath: '/data' }]), [['FieldValueNotFound', `${C}.volumeMounts[0].name`, 'Not found: "data"']]],
        [set(`${T}.restartPolicy`, 'Never'), [['FieldValueNotSupported', `${T}.restartPolicy`, 'Unsupported value: "Never": supported values: "Always"']]],
        // An invalid template label not in the selector: named spec.template.labels (not .metadata.labels).
        [set('spec.template.metadata.labels', { app: 'web', tier: 'a b' }), [['FieldValueInvalid', 'spec.template.labels', `Invalid value: "a b": ${LABEL_VALUE}`]]],
        // Two mistakes in one container: in field order.
        [
          both(drop(`${C}.image`), set(`${C}.ports`, [{ containerPort: 0 }])),
          [
            ['FieldValueRequired', `${C}.image`, 'Required value'],
            ['FieldValueRequired', `${C}.ports[0].containerPort`, 'Required value'],
          ],
        ],
      ]);
    });

    test('Deployment: spec mistakes (selector, template labels, replicas, strategy); an invalid selector stops the template being checked', async () => {
      const badSelector: Cause[] = [
        ['FieldValueInvalid', 'spec.selector.matchLabels', `Invalid value: "a b": ${LABEL_VALUE}`],
        ['FieldValueInvalid', 'spec.selector', 'Invalid value: {"matchLabels":{"app":"a b"}}: invalid label selector'],
      ];
      const labelled = both(set('spec.selector.matchLabels', { app: 'a b' }), set('spec.template.metadata.labels', { app: 'a b' }));
      await refused(backend(), DEPLOYMENT, [
        [
          drop('spec.selector'),
          [
            ['FieldValueRequired', 'spec.selector', 'Required value'],
            ['FieldValueInvalid', 'spec.template.metadata.labels', `Invalid value: {"app":"web"}: ${MISMATCH}`],
          ],
        ],
        [set('spec.selector.matchLabels', { app: 'other' }), [['FieldValueInvalid', 'spec.template.metadata.labels', `Invalid value: {"app":"web"}: ${MISMATCH}`]]],
        [drop('spec.template.metadata.labels'), [['FieldValueInvalid', 'spec.template.metadata.labels', `Invalid value: null: ${MISMATCH}`]]],
        [set('spec.replicas', -1), [['FieldValueInvalid', 'spec.replicas', 'Invalid value: -1: must be greater than or equal to 0']]],
        [set('spec.strategy', { type: 'Recreate', rollingUpdate: { maxSurge: 1 } }), [['FieldValueForbidden', 'spec.strategy.rollingUpdate', "Forbidden: may not be specified when strategy `type` is 'Recreate'"]]],
        [labelled, badSelector],
        // The template's missing image is not reported: with an invalid selector the template is not validated.
        [both(labelled, drop(`${C}.image`)), badSelector],
        // With no selector it is.
        [
          both(drop('spec.selector'), drop(`${C}.image`)),
          [
            ['FieldValueRequired', 'spec.selector', 'Required value'],
            ['FieldValueInvalid', 'spec.template.metadata.labels', `Invalid value: {"app":"web"}: ${MISMATCH}`],
            ['FieldValueRequired', `${C}.image`, 'Required value'],
          ],
        ],
      ]);
    });

    test('StatefulSet, DaemonSet, ReplicaSet: selector mismatch, podManagementPolicy; a StatefulSet without serviceName is accepted', async () => {
      const mismatch: [Edit, Causes] = [set('spec.selector.matchLabels', { app: 'other' }), [['FieldValueInvalid', 'spec.template.metadata.labels', `Invalid value: {"app":"web"}: ${MISMATCH}`]]];
      await refused(backend(), STATEFULSET, [mismatch, [set('spec.podManagementPolicy', 'Bogus'), [['FieldValueInvalid', 'spec.podManagementPolicy', `Invalid value: "Bogus": must be 'OrderedReady' or 'Parallel'`]]]]);
      await refused(backend(), DAEMONSET, [mismatch]);
      await refused(backend(), REPLICASET, [mismatch]);
      await accepted(backend(), STATEFULSET, [drop('spec.serviceName')]);
    });

    test('Job and CronJob: restartPolicy (omitted is defaulted to Always, then refused), backoffLimit, a selector without manualSelector, schedule', async () => {
      await refused(backend(), JOB, [
        [drop(`${T}.restartPolicy`), [['FieldValueRequired', `${T}.restartPolicy`, JOB_RESTART]]],
        [set(`${T}.restartPolicy`, 'Always'), [['FieldValueRequired', `${T}.restartPolicy`, JOB_RESTART]]],
        [set('spec.backoffLimit', -1), [['FieldValueInvalid', 'spec.backoffLimit', 'Invalid value: -1: must be greater than or equal to 0']]],
        // The defaulted selector carries the Job's generated uid (assigned before validation, never stored).
        [
          both(set('spec.selector', { matchLabels: { app: 'web' } }), set('spec.template.metadata', { labels: { app: 'web' } })),
          (answer) => {
            const uid = /"batch\.kubernetes\.io\/controller-uid":"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"/.exec(String(answer.body['message']))?.[1];
            assert.ok(uid !== undefined, String(answer.body['message']));
            return [['FieldValueInvalid', 'spec.selector', `Invalid value: {"matchLabels":{"app":"web","batch.kubernetes.io/controller-uid":"${uid}"}}: \`selector\` not auto-generated`]];
          },
        ],
      ]);
      await refused(backend(), CRONJOB, [
        [drop('spec.schedule'), [['FieldValueRequired', 'spec.schedule', 'Required value']]],
        [set('spec.schedule', 'not a cron'), [['FieldValueInvalid', 'spec.schedule', 'Invalid value: "not a cron": expected exactly 5 fields, found 3: [not a cron]']]],
        [set('spec.jobTemplate.spec.template.spec.restartPolicy', 'Always'), [['FieldValueRequired', 'spec.jobTemplate.spec.template.spec.restartPolicy', JOB_RESTART]]],
      ]);
    });

    test('Pod: container and restartPolicy mistakes; an update may change an image but not ports (compared up to kube-apiserver\'s diff of the spec)', async () => {
      await refused(backend(), POD, [
        [drop('spec.containers[0].image'), [['FieldValueRequired', 'spec.containers[0].image', 'Required value']]],
        [set('spec.containers[0].ports', [{ containerPort: 0 }]), [['FieldValueRequired', 'spec.containers[0].ports[0].containerPort', 'Required value']]],
        [set('spec.restartPolicy', 'Bogus'), [['FieldValueNotSupported', 'spec.restartPolicy', 'Unsupported value: "Bogus": supported values: "Always", "OnFailure", "Never"']]],
      ]);
      const image = await put(backend(), POD, () => undefined, set('spec.containers[0].image', 'nginx:1.27'));
      assert.equal(image.answer.status, 200, String(image.answer.body['message']));
      assert.deepEqual(image.answer.warnings, []);
      assert.equal(((image.answer.body['spec'] as { containers: Obj[] }).containers[0] ?? {})['image'], 'nginx:1.27');
      const ports = await put(backend(), POD, () => undefined, set('spec.containers[0].ports', [{ containerPort: 80 }]));
      assert.deepEqual(firstLines(answered(ports.answer)), invalid(POD, ports.name, [['FieldValueForbidden', 'spec', POD_UPDATE_FORBIDDEN]]));
      assert.deepEqual((await raw(backend().kubeConfig, 'GET', `${POD.path}/${ports.name}`)).body, ports.before, `${ports.name} unchanged`);
    });

    test('Service: ports, type, clusterIP, externalName, nodePort, sessionAffinity and protocol mistakes', async () => {
      await refused(backend(), SERVICE, [
        [drop('spec.ports'), [['FieldValueRequired', 'spec.ports', 'Required value']]],
        // targetPort is defaulted to the port, then both are checked.
        [
          set('spec.ports', [{ port: 0 }]),
          [
            ['FieldValueInvalid', 'spec.ports[0].port', `Invalid value: 0: ${PORT_RANGE}`],
            ['FieldValueInvalid', 'spec.ports[0].targetPort', `Invalid value: 0: ${PORT_RANGE}`],
          ],
        ],
        [set('spec.ports', [{ name: 'http', port: 80 }, { port: 443 }]), [['FieldValueRequired', 'spec.ports[1].name', 'Required value']]],
        [set('spec.ports', [{ name: 'http', port: 80 }, { name: 'http', port: 443 }]), [['FieldValueDuplicate', 'spec.ports[1].name', 'Duplicate value: "http"']]],
        [set('spec.ports', [{ port: 80, targetPort: 'Bad_Name' }]), [['FieldValueInvalid', 'spec.ports[0].targetPort', `Invalid value: "Bad_Name": ${IANA_NAME}`]]],
        [set('spec.type', 'Bogus'), [['FieldValueNotSupported', 'spec.type', 'Unsupported value: "Bogus": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"']]],
        // clusterIPs is defaulted from clusterIP, and checked in its place.
        [set('spec.clusterIP', '1.2.3'), [['FieldValueInvalid', 'spec.clusterIPs[0]', 'Invalid value: "1.2.3": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']]],
        [both(set('spec.type', 'ExternalName'), drop('spec.selector')), [['FieldValueRequired', 'spec.externalName', 'Required value']]],
        [
          both(set('spec.type', 'NodePort'), set('spec.ports', [{ port: 80, nodePort: 80 }])),
          [['FieldValueInvalid', 'spec.ports[0].nodePort', 'Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767']],
        ],
        [set('spec.sessionAffinity', 'Bogus'), [['FieldValueNotSupported', 'spec.sessionAffinity', 'Unsupported value: "Bogus": supported values: "ClientIP", "None"']]],
        [set('spec.ports', [{ port: 80, protocol: 'tcp' }]), [['FieldValueNotSupported', 'spec.ports[0].protocol', 'Unsupported value: "tcp": supported values: "SCTP", "TCP", "UDP"']]],
      ]);
    });

    test('Service update: a changed clusterIP is refused as clusterIPs[0], its value the whole new list', async () => {
      const change: Edit = (service) => {
        const spec = service['spec'] as Obj;
        spec['clusterIP'] = spec['clusterIP'] === '10.0.0.99' ? '10.0.0.98' : '10.0.0.99';
      };
      const causes = (sent: Obj): Cause[] => [['FieldValueInvalid', 'spec.clusterIPs[0]', `Invalid value: ["${String((sent['spec'] as Obj)['clusterIP'])}"]: may not change once set`]];
      await refusedUpdates(backend(), SERVICE, [[() => undefined, change, causes]]);
    });

    test('ConfigMap and Secret: keys, a TLS Secret without tls.crt, data not base64 (400); a Secret type and an immutable Secret data cannot change', async () => {
      await refused(backend(), CONFIGMAP, [
        [set('data', { 'a/b': '1' }), [['FieldValueInvalid', 'data[a/b]', `Invalid value: "a/b": ${CONFIG_KEY}`]]],
        [both(set('data', { k: '1' }), set('binaryData', { k: 'MQ==' })), [['FieldValueInvalid', 'data[k]', 'Invalid value: "k": duplicate of key present in binaryData']]],
      ]);
      await refused(backend(), SECRET, [
        [both(drop('stringData'), set('data', { 'a b': 'MQ==' })), [['FieldValueInvalid', 'data[a b]', `Invalid value: "a b": ${CONFIG_KEY}`]]],
        [both(set('type', 'kubernetes.io/tls'), set('stringData', { 'tls.key': 'x' })), [['FieldValueRequired', 'data[tls.crt]', 'Required value']]],
      ]);
      const name = unique('bv');
      const answer = await raw(backend().kubeConfig, 'POST', SECRET.path, `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"${name}","namespace":"${NS}"},"data":{"k":"!!!"}}`);
      assert.deepEqual(
        { ...answered(answer), warnings: answer.warnings },
        { status: 400, reason: 'BadRequest', message: 'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 0', details: undefined, warnings: [] },
      );
      assert.equal((await raw(backend().kubeConfig, 'GET', `${SECRET.path}/${name}`)).status, 404);
      await refusedUpdates(backend(), SECRET, [
        [() => undefined, set('type', 'example.com/other'), [['FieldValueInvalid', 'type', 'Invalid value: "example.com/other": field is immutable']]],
        [set('immutable', true), set('data', { a: 'Mg==' }), [['FieldValueForbidden', 'data', 'Forbidden: field is immutable when `immutable` is set']]],
      ]);
    });

    test('Ingress: a path without pathType, an Exact path not absolute, a service backend without port', async () => {
      const P = 'spec.rules[0].http.paths[0]';
      await refused(backend(), INGRESS, [
        [drop(`${P}.pathType`), [['FieldValueRequired', `${P}.pathType`, 'Required value: pathType must be specified']]],
        [both(set(`${P}.pathType`, 'Exact'), set(`${P}.path`, 'foo')), [['FieldValueInvalid', `${P}.path`, 'Invalid value: "foo": must be an absolute path']]],
        [drop(`${P}.backend.service.port`), [['FieldValueRequired', `${P}.backend`, 'Required value: port name or number is required']]],
      ]);
    });

    test('RBAC: a Role rule without verbs, a RoleBinding without roleRef; roleRef is immutable', async () => {
      await refused(backend(), ROLE, [[drop('rules[0].verbs'), [['FieldValueRequired', 'rules[0].verbs', 'Required value']]]]);
      await refused(backend(), ROLEBINDING, [
        [
          drop('roleRef'),
          [
            ['FieldValueNotSupported', 'roleRef.kind', 'Unsupported value: "": supported values: "Role", "ClusterRole"'],
            ['FieldValueRequired', 'roleRef.name', 'Required value'],
          ],
        ],
      ]);
      await refusedUpdates(backend(), ROLEBINDING, [
        [() => undefined, set('roleRef.name', 'other'), [['FieldValueInvalid', 'roleRef', `Invalid value: {"APIGroup":"${RBAC}","Kind":"Role","Name":"other"}: field is immutable`]]],
      ]);
    });

    test('PersistentVolumeClaim: accessModes and a storage request are required', async () => {
      await refused(backend(), PVC, [
        [drop('spec.accessModes'), [['FieldValueRequired', 'spec.accessModes', 'Required value: at least 1 access mode is required']]],
        [drop('spec.resources'), [['FieldValueRequired', 'spec.resources[storage]', 'Required value']]],
        [set('spec.resources', { requests: {} }), [['FieldValueRequired', 'spec.resources[storage]', 'Required value']]],
      ]);
    });
  });
}
