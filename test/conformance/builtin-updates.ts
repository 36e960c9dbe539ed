// How kube-apiserver 1.37.2 answers updates (PUT of the whole object read back, with its resourceVersion) of built-in
// kinds that change a field it holds immutable or restricted, each expectation probed on it
// (temp/probes/builtin-updates.json). A refusal is a 422 Invalid (status, reason, message, details exactly, no Warning
// headers) and leaves the object as it was (GET answers what was read before); an allowed change is a 200 with no
// warnings whose answer is what a GET then reads, and what it changed is checked (generation, the fields the server
// allocated or dropped). Core kinds (Pod, Service, ConfigMap, Secret, PersistentVolumeClaim) are named without a group.
// Checked: a Deployment's, ReplicaSet's, DaemonSet's and StatefulSet's selector is immutable (its value in the
// message is the whole new selector), template labels that no longer match it are refused, replicas and the template
// may change (generation 1 → 2; a DaemonSet's template change also bumps its deprecated.daemonset.template.generation
// annotation); a StatefulSet's serviceName, podManagementPolicy and volumeClaimTemplates are immutable; a Job's pod
// template, completions and (generated) selector are immutable, its parallelism and suspend are not; a CronJob's
// schedule and job template may change; an immutable ConfigMap's data and its immutable flag cannot change (both
// refused in that order: immutable, then data), a mutable one may be made immutable; an unbound
// PersistentVolumeClaim's spec is immutable, its storage request too (larger or smaller: resizing is for bound claims
// only), and a changed volumeMode is a second cause named `volumeMode` (no `spec.`); a Service's type may change:
// to NodePort allocates a nodePort (30000–32767) and sets externalTrafficPolicy Cluster, back to ClusterIP drops both
// (even when the nodePort is sent back), to ExternalName drops clusterIP, clusterIPs, ipFamilies, ipFamilyPolicy and
// internalTrafficPolicy (sent back unchanged); on this single-stack (IPv4) server ipFamilies cannot become IPv6 (the
// kept clusterIP is refused), nor dual-stack (SingleStack is refused, or with PreferDualStack IPv6 is not configured),
// while ipFamilyPolicy may become PreferDualStack; a Pod's labels may change (generation stays), its container names
// not; a Secret's data may change. Two kinds of message part are Go output asserted by their start only: a diff after
// the first line (Pod, PersistentVolumeClaim: the first line exactly, the diff not at all), and a value printed as the
// internal Go struct (a Job's pod template, a StatefulSet's claim templates: from the start up to the changed field,
// and the end); the rest of such an answer (reasons, fields, the other causes, how the message is built) is exact.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unique, type Backend } from './backend.js';
import { at, both, CONFIGMAP, CRONJOB, DAEMONSET, DEPLOYMENT, drop, invalid, JOB, MISMATCH, none, POD, POD_UPDATE_FORBIDDEN, PVC, REPLICASET, SECRET, SERVICE, set, STATEFULSET, type Edit, type Kind, type Obj } from './builtin-objects.js';
import { answered } from './invalid-answer.js';
import { raw, type RawAnswer } from './raw-http.js';

const IMMUTABLE = 'field is immutable';
const CONFIGMAP_IMMUTABLE = 'Forbidden: field is immutable when `immutable` is set';
const PVC_SPEC = 'Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims';

/**
 * A cause's message when part of it is Go output: `what` describes it (shown when it does not match), `matches` checks
 * the message the server gave; a match takes the server's message in its place.
 */
interface Loose {
  readonly what: string;
  readonly matches: (message: string) => boolean;
}
/** The first line exactly; then, if anything, a newline and a diff (not compared). */
const diffAfter = (firstLine: string): Loose => ({ what: `${firstLine}\n<a diff>`, matches: (m) => m === firstLine || m.startsWith(`${firstLine}\n`) });
const IN_PROCESS = (process.env['KATALOG_CONFORMANCE_BACKEND'] ?? 'in-process') === 'in-process';
/**
 * A value printed as the internal Go struct: compared by its start and its end. The in-process server prints the
 * value as the API's JSON instead (docs/testing.md), which must start with `apiStart` there.
 */
const dumpBetween = (start: string, end: string, apiStart: string): Loose => {
  const first = IN_PROCESS ? apiStart : start;
  return { what: `${first}<…>${end}`, matches: (m) => m.length >= first.length + end.length && m.startsWith(first) && m.endsWith(end) };
};
type Cause = [reason: string, field: string, message: string | Loose];

/** The causes expected, a loose message replaced by the answer's own where it matches (by its description where not). */
function resolve(answer: RawAnswer, causes: readonly Cause[]): Array<[string, string, string]> {
  const given = ((answer.body['details'] as { causes?: unknown } | undefined)?.causes ?? []) as Array<{ message?: unknown }>;
  return causes.map(([reason, field, message], index) => {
    if (typeof message === 'string') return [reason, field, message];
    const actual = given[index]?.message;
    return [reason, field, typeof actual === 'string' && message.matches(actual) ? actual : message.what];
  });
}

/** JSON of a string map as Go prints one: keys in order. */
function goMap(map: Record<string, string>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}


interface Update {
  readonly name: string;
  /** The object as read before the PUT. */
  readonly before: Obj;
  /** The object PUT. */
  readonly sent: Obj;
  readonly answer: RawAnswer;
}

interface Updates {
  /** The update must be refused with exactly these causes (a function of the update, for values the server made), no warnings, and the object left as it was. */
  refused(kind: Kind, create: Edit, change: Edit, causes: Cause[] | ((update: Update) => Cause[])): Promise<void>;
  /** The update must be accepted (200, no warnings), and a GET then read what it answered; answers the update. */
  allowed(kind: Kind, create: Edit, change: Edit): Promise<Update>;
}

/**
 * Runs `body` with updates that create an object of a kind (its base, then `create`d), read it, apply `change` and PUT
 * it back; afterwards every object created is deleted (in the background, as no garbage collector runs on
 * kube-apiserver alone; a finalizer left, as a PVC's protection, is removed, as no controller would).
 */
async function updates(backend: Backend, body: (updates: Updates) => Promise<void>): Promise<void> {
  const made: string[] = [];
  const get = async (kind: Kind, name: string): Promise<Obj> => (await raw(backend.kubeConfig, 'GET', `${kind.path}/${name}`)).body;
  const update = async (kind: Kind, create: Edit, change: Edit): Promise<Update> => {
    const name = unique('bu');
    const object = kind.base(name);
    create(object);
    const post = await raw(backend.kubeConfig, 'POST', kind.path, JSON.stringify(object));
    assert.equal(post.status, 201, `${JSON.stringify(object)}: ${String(post.body['message'])}`);
    made.push(`${kind.path}/${name}`);
    const before = await get(kind, name);
    const sent = structuredClone(before);
    change(sent);
    return { name, before, sent, answer: await raw(backend.kubeConfig, 'PUT', `${kind.path}/${name}`, JSON.stringify(sent)) };
  };
  const updates: Updates = {
    refused: async (kind, create, change, causes) => {
      const done = await update(kind, create, change);
      const want = resolve(done.answer, typeof causes === 'function' ? causes(done) : causes);
      assert.deepEqual({ ...answered(done.answer), warnings: done.answer.warnings }, { ...invalid(kind, done.name, want), warnings: [] }, JSON.stringify(done.sent));
      assert.deepEqual(await get(kind, done.name), done.before, `${done.name} unchanged`);
    },
    allowed: async (kind, create, change) => {
      const done = await update(kind, create, change);
      assert.equal(done.answer.status, 200, `${JSON.stringify(done.sent)}: ${String(done.answer.body['message'])}`);
      assert.deepEqual(done.answer.warnings, []);
      assert.deepEqual(await get(kind, done.name), done.answer.body, `${done.name} as answered`);
      return done;
    },
  };
  try {
    await body(updates);
  } finally {
    for (const path of made.reverse()) {
      try {
        const answer = await raw(backend.kubeConfig, 'DELETE', `${path}?propagationPolicy=Background`);
        const finalizers = (answer.body['metadata'] as Obj | undefined)?.['finalizers'];
        if (answer.status === 200 && Array.isArray(finalizers) && finalizers.length > 0) {
          await raw(backend.kubeConfig, 'PATCH', path, JSON.stringify({ metadata: { finalizers: null } }), 'application/merge-patch+json');
        }
      } catch {
        // best effort: the next test uses names of its own
      }
    }
  }
}

const generation = (object: Obj): unknown => at(object, 'metadata.generation');
const C = 'spec.template.spec.containers[0]';
/** A selector and template labels both `app: web2`. */
const newSelector = both(set('spec.selector', { matchLabels: { app: 'web2' } }), set('spec.template.metadata.labels', { app: 'web2' }));
const selectorImmutable = (selector: string): Cause => ['FieldValueInvalid', 'spec.selector', `Invalid value: ${selector}: ${IMMUTABLE}`];

export function builtinUpdatesSuite(backend: () => Backend): void {
  describe('built-in kinds: updates', () => {
    test('Deployment, ReplicaSet, DaemonSet: the selector is immutable, template labels must match it; replicas and the template may change (generation 2)', async () => {
      await updates(backend(), async (u) => {
        for (const kind of [DEPLOYMENT, REPLICASET, DAEMONSET]) await u.refused(kind, none, newSelector, [selectorImmutable('{"matchLabels":{"app":"web2"}}')]);
        // The value is the whole new selector.
        await u.refused(DEPLOYMENT, none, both(set('spec.selector.matchLabels.tier', 'a'), set('spec.template.metadata.labels.tier', 'a')), [
          selectorImmutable('{"matchLabels":{"app":"web","tier":"a"}}'),
        ]);
        await u.refused(DEPLOYMENT, none, set('spec.template.metadata.labels', { app: 'other' }), [
          ['FieldValueInvalid', 'spec.template.metadata.labels', `Invalid value: {"app":"other"}: ${MISMATCH}`],
        ]);
        for (const kind of [DEPLOYMENT, REPLICASET]) {
          const replicas = await u.allowed(kind, none, set('spec.replicas', 3));
          assert.deepEqual([generation(replicas.before), generation(replicas.answer.body), at(replicas.answer.body, 'spec.replicas')], [1, 2, 3], kind.kind);
        }
        const image = await u.allowed(DEPLOYMENT, none, set(`${C}.image`, 'nginx:1.27'));
        assert.deepEqual([generation(image.before), generation(image.answer.body), at(image.answer.body, `${C}.image`)], [1, 2, 'nginx:1.27']);
        // A DaemonSet's template change also bumps its template generation annotation.
        const daemon = await u.allowed(DAEMONSET, none, set(`${C}.image`, 'nginx:1.27'));
        const templateGeneration = (object: Obj): unknown => (at(object, 'metadata.annotations') as Obj | undefined)?.['deprecated.daemonset.template.generation'];
        assert.deepEqual(
          [generation(daemon.before), generation(daemon.answer.body), templateGeneration(daemon.before), templateGeneration(daemon.answer.body), at(daemon.answer.body, `${C}.image`)],
          [1, 2, '1', '2', 'nginx:1.27'],
        );
      });
    });

    test('StatefulSet: selector, serviceName, podManagementPolicy and volumeClaimTemplates are immutable; replicas and the template may change', async () => {
      await updates(backend(), async (u) => {
        await u.refused(STATEFULSET, none, newSelector, [selectorImmutable('{"matchLabels":{"app":"web2"}}')]);
        await u.refused(STATEFULSET, none, set('spec.serviceName', 'other'), [['FieldValueInvalid', 'spec.serviceName', `Invalid value: "other": ${IMMUTABLE}`]]);
        await u.refused(STATEFULSET, none, set('spec.podManagementPolicy', 'Parallel'), [['FieldValueInvalid', 'spec.podManagementPolicy', `Invalid value: "Parallel": ${IMMUTABLE}`]]);
        // The new templates are printed as internal claims: {"name":…,"Spec":{…},"Status":{…}}.
        const claim = { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
        await u.refused(STATEFULSET, none, set('spec.volumeClaimTemplates', [claim]), [
          [
            'FieldValueInvalid',
            'spec.volumeClaimTemplates',
            dumpBetween(
              'Invalid value: [{"name":"data","Spec":{"AccessModes":["ReadWriteOnce"],"Selector":null,"Resources":{"Limits":null,"Requests":{"storage":"1Gi"}},',
              `}}]: ${IMMUTABLE}`,
              'Invalid value: [{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],',
            ),
          ],
        ]);
        const replicas = await u.allowed(STATEFULSET, none, set('spec.replicas', 3));
        assert.deepEqual([generation(replicas.before), generation(replicas.answer.body), at(replicas.answer.body, 'spec.replicas')], [1, 2, 3]);
        const image = await u.allowed(STATEFULSET, none, set(`${C}.image`, 'nginx:1.27'));
        assert.deepEqual([generation(image.before), generation(image.answer.body), at(image.answer.body, `${C}.image`)], [1, 2, 'nginx:1.27']);
      });
    });

    test('Job and CronJob: a Job pod template, completions and selector are immutable, parallelism and suspend are not; a CronJob schedule and job template may change', async () => {
      await updates(backend(), async (u) => {
        const uid = (done: Update): string => String(at(done.before, 'metadata.uid'));
        const labels = (object: Obj): Record<string, string> => at(object, 'spec.template.metadata.labels') as Record<string, string>;
        /** The template sent, printed as the internal pod template up to its first container's image. */
        const template = (done: Update, image: string): Cause => [
          'FieldValueInvalid',
          'spec.template',
          dumpBetween(
            `Invalid value: {"labels":${goMap(labels(done.sent))},"Spec":{"Volumes":null,"InitContainers":null,"Containers":[{"Name":"web","Image":"${image}",`,
            `}}: ${IMMUTABLE}`,
            `Invalid value: {"labels":${goMap(labels(done.sent))},"spec":{"containers":[{"image":"${image}",`,
          ),
        ];
        await u.refused(JOB, none, set(`${C}.image`, 'busybox'), (done) => [template(done, 'busybox')]);
        // A label added to the template alone: the template is immutable.
        await u.refused(JOB, none, set('spec.template.metadata.labels.extra', 'x'), (done) => [template(done, 'nginx')]);
        await u.refused(JOB, none, set('spec.completions', 2), [['FieldValueInvalid', 'spec.completions', `Invalid value: 2: ${IMMUTABLE}`]]);
        // The generated selector (the Job's uid), with a label added to it and to the template: both are immutable.
        await u.refused(JOB, none, both(set('spec.selector.matchLabels.tier', 'a'), set('spec.template.metadata.labels.tier', 'a')), (done) => [
          selectorImmutable(`{"matchLabels":{"batch.kubernetes.io/controller-uid":"${uid(done)}","tier":"a"}}`),
          template(done, 'nginx'),
        ]);
        // Added to the selector alone: the template labels no longer match it, reported first.
        await u.refused(JOB, none, set('spec.selector.matchLabels.tier', 'a'), (done) => [
          ['FieldValueInvalid', 'spec.template.metadata.labels', `Invalid value: ${goMap(labels(done.sent))}: ${MISMATCH}`],
          selectorImmutable(`{"matchLabels":{"batch.kubernetes.io/controller-uid":"${uid(done)}","tier":"a"}}`),
        ]);
        const parallelism = await u.allowed(JOB, none, set('spec.parallelism', 2));
        assert.deepEqual([generation(parallelism.before), generation(parallelism.answer.body), at(parallelism.answer.body, 'spec.parallelism')], [1, 2, 2]);
        const suspend = await u.allowed(JOB, none, set('spec.suspend', true));
        assert.deepEqual([at(suspend.before, 'spec.suspend'), generation(suspend.answer.body), at(suspend.answer.body, 'spec.suspend')], [false, 2, true]);
        const schedule = await u.allowed(CRONJOB, none, set('spec.schedule', '*/10 * * * *'));
        assert.deepEqual([generation(schedule.before), generation(schedule.answer.body), at(schedule.answer.body, 'spec.schedule')], [1, 2, '*/10 * * * *']);
        const image = await u.allowed(CRONJOB, none, set('spec.jobTemplate.spec.template.spec.containers[0].image', 'busybox'));
        assert.deepEqual([generation(image.before), generation(image.answer.body), at(image.answer.body, 'spec.jobTemplate.spec.template.spec.containers[0].image')], [1, 2, 'busybox']);
      });
    });

    test('ConfigMap and PersistentVolumeClaim: an immutable ConfigMap stays as it is; an unbound claim spec is immutable, its storage request too', async () => {
      await updates(backend(), async (u) => {
        const immutable = set('immutable', true);
        await u.refused(CONFIGMAP, immutable, set('data', { a: '2' }), [['FieldValueForbidden', 'data', CONFIGMAP_IMMUTABLE]]);
        await u.refused(CONFIGMAP, immutable, set('immutable', false), [['FieldValueForbidden', 'immutable', CONFIGMAP_IMMUTABLE]]);
        await u.refused(CONFIGMAP, immutable, drop('immutable'), [['FieldValueForbidden', 'immutable', CONFIGMAP_IMMUTABLE]]);
        await u.refused(CONFIGMAP, immutable, both(set('immutable', false), set('data', { a: '2' })), [
          ['FieldValueForbidden', 'immutable', CONFIGMAP_IMMUTABLE],
          ['FieldValueForbidden', 'data', CONFIGMAP_IMMUTABLE],
        ]);
        const made = await u.allowed(CONFIGMAP, none, set('immutable', true));
        assert.deepEqual([at(made.before, 'immutable'), at(made.answer.body, 'immutable')], [undefined, true]);
        const data = await u.allowed(CONFIGMAP, none, set('data', { a: '2' }));
        assert.deepEqual(at(data.answer.body, 'data'), { a: '2' });

        const spec: Cause = ['FieldValueForbidden', 'spec', diffAfter(PVC_SPEC)];
        await u.refused(PVC, none, set('spec.accessModes', ['ReadWriteMany']), [spec]);
        await u.refused(PVC, none, set('spec.resources.requests.storage', '2Gi'), [spec]);
        await u.refused(PVC, none, set('spec.resources.requests.storage', '500Mi'), [spec]);
        await u.refused(PVC, none, set('spec.volumeMode', 'Block'), [spec, ['FieldValueInvalid', 'volumeMode', `Invalid value: "Block": ${IMMUTABLE}`]]);
      });
    });

    test('Service: type changes allocate and drop fields (nodePort, clusterIP); ipFamilies cannot change on a single-stack server', async () => {
      await updates(backend(), async (u) => {
        const spec = (object: Obj): Obj => object['spec'] as Obj;
        const ports = (object: Obj): Obj[] => spec(object)['ports'] as Obj[];

        const toNodePort = await u.allowed(SERVICE, none, set('spec.type', 'NodePort'));
        const nodePort = ports(toNodePort.answer.body)[0]?.['nodePort'];
        assert.ok(typeof nodePort === 'number' && nodePort >= 30000 && nodePort <= 32767, `nodePort ${String(nodePort)}`);
        assert.deepEqual(spec(toNodePort.answer.body), { ...spec(toNodePort.before), type: 'NodePort', ports: [{ protocol: 'TCP', port: 80, targetPort: 80, nodePort }], externalTrafficPolicy: 'Cluster' });

        // Back to ClusterIP with the nodePort and externalTrafficPolicy sent back: both dropped.
        const toClusterIP = await u.allowed(SERVICE, set('spec.type', 'NodePort'), set('spec.type', 'ClusterIP'));
        assert.equal(typeof ports(toClusterIP.sent)[0]?.['nodePort'], 'number');
        assert.equal(spec(toClusterIP.sent)['externalTrafficPolicy'], 'Cluster');
        const { externalTrafficPolicy: _dropped, ...rest } = spec(toClusterIP.before);
        assert.deepEqual(spec(toClusterIP.answer.body), { ...rest, type: 'ClusterIP', ports: [{ protocol: 'TCP', port: 80, targetPort: 80 }] });

        // To ExternalName with the cluster IPs and IP families sent back: all dropped.
        const toExternalName = await u.allowed(SERVICE, none, both(set('spec.type', 'ExternalName'), set('spec.externalName', 'example.com')));
        assert.deepEqual(spec(toExternalName.answer.body), {
          ports: [{ protocol: 'TCP', port: 80, targetPort: 80 }],
          selector: { app: 'web' },
          type: 'ExternalName',
          sessionAffinity: 'None',
          externalName: 'example.com',
        });

        const clusterIP = (done: Update): string => String(spec(done.before)['clusterIP']);
        await u.refused(SERVICE, none, set('spec.ipFamilies', ['IPv6']), (done) => [
          ['FieldValueInvalid', 'spec.clusterIPs[0]', `Invalid value: "${clusterIP(done)}": expected an IPv6 value as indicated by \`ipFamilies[0]\``],
        ]);
        // The cluster IPs left out are those kept.
        await u.refused(SERVICE, none, both(set('spec.ipFamilies', ['IPv6']), drop('spec.clusterIP'), drop('spec.clusterIPs')), (done) => [
          ['FieldValueInvalid', 'spec.clusterIPs[0]', `Invalid value: "${clusterIP(done)}": expected an IPv6 value as indicated by \`ipFamilies[0]\``],
        ]);
        await u.refused(SERVICE, none, set('spec.ipFamilies', ['IPv4', 'IPv6']), [
          ['FieldValueInvalid', 'spec.ipFamilyPolicy', `Invalid value: "SingleStack": must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified`],
        ]);
        await u.refused(SERVICE, none, both(set('spec.ipFamilies', ['IPv4', 'IPv6']), set('spec.ipFamilyPolicy', 'PreferDualStack')), [
          ['FieldValueInvalid', 'spec.ipFamilies[1]', 'Invalid value: "IPv6": not configured on this cluster'],
        ]);
        const prefer = await u.allowed(SERVICE, none, set('spec.ipFamilyPolicy', 'PreferDualStack'));
        assert.deepEqual(spec(prefer.answer.body), { ...spec(prefer.before), ipFamilyPolicy: 'PreferDualStack' });
      });
    });

    test('Pod and Secret: Pod labels may change (generation stays), container names not (a diff follows the first line); Secret data may change', async () => {
      await updates(backend(), async (u) => {
        const labels = await u.allowed(POD, none, set('metadata.labels', { app: 'web', tier: 'a' }));
        assert.deepEqual([generation(labels.before), generation(labels.answer.body), at(labels.answer.body, 'metadata.labels')], [1, 1, { app: 'web', tier: 'a' }]);
        await u.refused(POD, none, set('spec.containers[0].name', 'other'), [['FieldValueForbidden', 'spec', diffAfter(POD_UPDATE_FORBIDDEN)]]);
        const data = await u.allowed(SECRET, none, set('data', { a: 'Mg==' }));
        assert.deepEqual([at(data.before, 'data'), at(data.answer.body, 'data')], [{ a: 'MQ==' }, { a: 'Mg==' }]);
      });
    });

    test('a PUT without a resourceVersion replaces a ConfigMap; a Lease, PodDisruptionBudget or webhook configuration must name the version it replaces', async () => {
      const kubeConfig = backend().kubeConfig;
      const namespace = unique('unconditional');
      assert.equal((await raw(kubeConfig, 'POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: namespace } }))).status, 201);
      const kinds: [string, string, string, Record<string, unknown>][] = [
        ['', 'configmaps', `/api/v1/namespaces/${namespace}/configmaps`, { data: { a: '1' } }],
        ['coordination.k8s.io', 'leases', `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`, { spec: { holderIdentity: 'a' } }],
        ['policy', 'poddisruptionbudgets', `/apis/policy/v1/namespaces/${namespace}/poddisruptionbudgets`, { spec: { minAvailable: 1, selector: { matchLabels: { app: 'a' } } } }],
        ['admissionregistration.k8s.io', 'validatingwebhookconfigurations', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', { webhooks: [] }],
        ['admissionregistration.k8s.io', 'mutatingwebhookconfigurations', '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', { webhooks: [] }],
      ];
      const answers: [string, number, unknown][] = [];
      for (const [group, resource, path, fields] of kinds) {
        const name = unique(resource.slice(0, 10));
        const body = JSON.stringify({ metadata: { name }, ...fields });
        assert.equal((await raw(kubeConfig, 'POST', path, body)).status, 201);
        const put = await raw(kubeConfig, 'PUT', `${path}/${name}`, body);
        answers.push([resource, put.status, put.status === 200 ? undefined : put.body]);
        if (group === '') continue;
        const cause = { reason: 'FieldValueInvalid', message: 'Invalid value: 0: must be specified for an update', field: 'metadata.resourceVersion' };
        const expected = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `${resource}.${group} "${name}" is invalid: metadata.resourceVersion: ${cause.message}`, reason: 'Invalid', details: { name, group, kind: resource, causes: [cause] }, code: 422 };
        assert.deepEqual(answers.at(-1), [resource, 422, expected]);
      }
      assert.deepEqual(answers[0], ['configmaps', 200, undefined]);
    });
  });
}
