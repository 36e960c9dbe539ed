// What kube-apiserver 1.37.2 fills into built-in kinds on create (POST), and keeps or fills again on update; every
// expectation here was probed on it (temp/probes/builtin-defaults.json holds the probe). Each object is sent
// minimal and read back (GET); the test compares the whole stored object, its metadata cut to the parts a default can
// touch (labels, annotations, generation, finalizers). Parts:
// - Pods: the pod spec's defaults (restartPolicy, dnsPolicy, schedulerName, terminationGracePeriodSeconds, an empty
//   securityContext), each container's (terminationMessagePath/Policy, an empty resources, imagePullPolicy: Always
//   for an image without a tag or tagged `latest`, else IfNotPresent), a port's protocol, a configMap or secret
//   volume's defaultMode 420, a probe's timings and an httpGet's path and scheme, a grpc probe's empty service, and
//   what only a Pod (not a template) gets: requests copied from limits, enableServiceLinks, and from the admission
//   plugins kube-apiserver enables by default, priority 0, preemptionPolicy and the two NoExecute tolerations of 300 s
//   (DefaultTolerationSeconds); status phase Pending with its qosClass.
// - Workloads (Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob): each kind's spec defaults, the pod
//   template's (as above, without the Pod-only ones), and what their registries add (a DaemonSet's template
//   generation annotation, a Job's selector and labels from its uid, initial status fields).
// - Services: protocol TCP, targetPort = port, type ClusterIP, sessionAffinity None (ClientIP: a 10800 s timeout),
//   IPv4 SingleStack, internalTrafficPolicy Cluster, externalTrafficPolicy Cluster for NodePort and LoadBalancer,
//   allocateLoadBalancerNodePorts; a headless Service without a selector is RequireDualStack [IPv4, IPv6]; an
//   ExternalName Service gets no cluster IP nor traffic policies. Allocated values are asserted by shape, then
//   replaced by a placeholder: startKubeApiServer passes --service-cluster-ip-range=10.0.0.0/24 (src/testing has no
//   service CIDR of its own), so a cluster IP is 10.0.0.x, and since kube-apiserver allocates dynamically from the
//   upper band of the range only (the lower 16 addresses after 10.0.0.0 are kept for static IPs, 10.0.0.1 for the
//   `kubernetes` Service), x is 17–254 and clusterIPs is [clusterIP]; node ports are in the default range
//   30000–32767 and dynamically from its upper band 30086–32767 (the lower 86 are kept for static ones), distinct.
// - Small kinds: Secret type Opaque, PVC volumeMode Filesystem and the pvc-protection finalizer, NetworkPolicy
//   policyTypes and port protocol, HPA minReplicas 1 and an 80% CPU metric, RoleBinding subjects' apiGroup for User and
//   Group, Namespace finalizer, phase and name label; ConfigMap, ServiceAccount, Ingress, PDB, Role and Lease get none.
// - Quantities: stored in apimachinery's canonical form (0.5 → 500m, 1024Mi → 1Gi, 1.5Gi → 1536Mi, 2048Ki → 2Mi; a text
//   already canonical kept as written: 1e3, 1073741824), resource lists rounded up to a thousandth first (0.0001 →
//   1m), a container LimitRange's default and defaultRequest filled from max; a text that is no quantity is a 400.
// - Updates: a PUT without clusterIP/clusterIPs keeps them; a PUT without defaulted fields gets them again (the
//   generation moves only when the result differs); a server-side apply's managedFields own only the fields applied
//   (a POST's own the defaulted ones too); a merge patch nulling a defaulted field gets the default again; a PUT
//   changing clusterIP is refused with a 422 on spec.clusterIPs[0].
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unique, type Backend, type Json } from './backend.js';
import { raw } from './raw-http.js';

const CORE = '/api/v1/namespaces/default';
const APPS = '/apis/apps/v1/namespaces/default';
const BATCH = '/apis/batch/v1/namespaces/default';
const NETWORKING = '/apis/networking.k8s.io/v1/namespaces/default';

/** The defaults of a container of a Pod or of a pod template. */
function container(name: string, image: string, more: Record<string, unknown> = {}, imagePullPolicy = 'IfNotPresent'): Json {
  return { name, image, ...more, resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy };
}

/** The defaults of a pod spec (a Pod's and a template's). */
const POD_SPEC = { restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', securityContext: {}, schedulerName: 'default-scheduler' };

/** What only a Pod gets: SetDefaults_Pod's enableServiceLinks, the Priority and DefaultTolerationSeconds admission plugins' fields. */
const POD_ONLY = {
  tolerations: [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  ],
  priority: 0,
  enableServiceLinks: true,
  preemptionPolicy: 'PreemptLowerPriority',
};

const PROBE_TIMINGS = { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 };

/** A minimal pod template labelled `app: <app>`, one container `app` of nginx:1.27. */
function template(app: string, spec: Record<string, unknown> = { containers: [{ name: 'app', image: 'nginx:1.27' }] }): Json {
  return { metadata: { labels: { app } }, spec };
}

/** That template as stored. */
function storedTemplate(app: string, containers: Json[] = [container('app', 'nginx:1.27')], spec: Record<string, unknown> = {}): Json {
  return { metadata: { labels: { app } }, spec: { containers, ...POD_SPEC, ...spec } };
}

/** The object without its metadata's identity and bookkeeping: only the labels, annotations, generation and finalizers it has. */
function stored(object: Json): Json {
  const { metadata = {}, ...rest } = object;
  const kept = Object.fromEntries(Object.entries(metadata).filter(([key]) => ['labels', 'annotations', 'generation', 'finalizers'].includes(key)));
  return { ...rest, metadata: kept };
}

function nameOf(object: Json): string {
  const name = object.metadata?.['name'];
  assert.ok(typeof name === 'string');
  return name;
}

type Create = (collection: string, object: Json) => Promise<Json>;

/**
 * Runs `body` with a `create` that POSTs an object to a collection (201), then GETs it and answers the stored object,
 * and a `track` for an object made otherwise; afterwards every object created or tracked is deleted (best effort;
 * a metadata finalizer the server added, as the PVC's, is removed too, as no controller would).
 */
async function withObjects(backend: Backend, body: (create: Create, track: (path: string) => void) => Promise<void>): Promise<void> {
  const made: string[] = [];
  const create: Create = async (collection, object) => {
    const post = await raw(backend.kubeConfig, 'POST', collection, JSON.stringify(object));
    assert.equal(post.status, 201, `${collection}: ${String(post.body['message'])}`);
    const path = `${collection}/${nameOf(object)}`;
    made.push(path);
    const get = await raw(backend.kubeConfig, 'GET', path);
    assert.equal(get.status, 200, path);
    return get.body as Json;
  };
  try {
    await body(create, (path) => made.push(path));
  } finally {
    for (const path of made.reverse()) {
      try {
        const answer = await raw(backend.kubeConfig, 'DELETE', path);
        const finalizers = (answer.body as Json).metadata?.['finalizers'];
        if (answer.status === 200 && Array.isArray(finalizers) && finalizers.length > 0) {
          await raw(backend.kubeConfig, 'PATCH', path, JSON.stringify({ metadata: { finalizers: null } }), 'application/merge-patch+json');
        }
      } catch {
        // best effort: the next test uses names of its own
      }
    }
  }
}

/** A cluster IP allocated dynamically: 10.0.0.17–10.0.0.254 (see the header). */
function assertClusterIp(ip: unknown, what: string): void {
  const match = typeof ip === 'string' ? /^10\.0\.0\.(\d{1,3})$/.exec(ip) : null;
  const host = Number(match?.[1] ?? -1);
  assert.ok(host >= 17 && host <= 254, `${what}: clusterIP ${String(ip)} is not in 10.0.0.17-10.0.0.254`);
}

/** A node port allocated dynamically: 30086–32767 (see the header). */
function assertNodePort(port: unknown, what: string): void {
  assert.ok(typeof port === 'number' && Number.isInteger(port) && port >= 30086 && port <= 32767, `${what}: node port ${String(port)} is not in 30086-32767`);
}

/**
 * A stored Service with its allocated values checked and replaced by placeholders: clusterIP and clusterIPs
 * ('<clusterIP>'), each port's nodePort ('<nodePort>'), healthCheckNodePort ('<healthCheckNodePort>').
 */
function allocated(service: Json): Json {
  const what = nameOf(service);
  const spec = { ...(service.spec ?? {}) };
  if (spec['clusterIP'] !== undefined && spec['clusterIP'] !== 'None') {
    assertClusterIp(spec['clusterIP'], what);
    assert.deepEqual(spec['clusterIPs'], [spec['clusterIP']], `${what}: clusterIPs`);
    spec['clusterIP'] = '<clusterIP>';
    spec['clusterIPs'] = ['<clusterIP>'];
  }
  const ports: number[] = [];
  if (Array.isArray(spec['ports'])) {
    spec['ports'] = (spec['ports'] as Json[]).map((port) => {
      if (port['nodePort'] === undefined) return port;
      assertNodePort(port['nodePort'], what);
      ports.push(port['nodePort'] as number);
      return { ...port, nodePort: '<nodePort>' };
    });
  }
  if (spec['healthCheckNodePort'] !== undefined) {
    assertNodePort(spec['healthCheckNodePort'], `${what} healthCheckNodePort`);
    ports.push(spec['healthCheckNodePort'] as number);
    spec['healthCheckNodePort'] = '<healthCheckNodePort>';
  }
  assert.equal(new Set(ports).size, ports.length, `${what}: node ports ${ports.join(', ')} are distinct`);
  return stored({ ...service, spec });
}

/** An object's managedFields, each entry's time (checked to be a timestamp) replaced by '<time>'. */
function managedFields(object: Json): Json[] {
  const entries = object.metadata?.['managedFields'];
  assert.ok(Array.isArray(entries), 'managedFields');
  return (entries as Json[]).map((entry) => {
    assert.ok(typeof entry['time'] === 'string' && !Number.isNaN(Date.parse(entry['time'])), `managedFields time ${String(entry['time'])}`);
    return { ...entry, time: '<time>' };
  });
}

function service(name: string, spec: Record<string, unknown>): Json {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec };
}

/** A minimal Deployment of one nginx:1.27 container `app`, then `spec` merged over its spec. */
function deployment(name: string, spec: Record<string, unknown> = {}): Json {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec: { selector: { matchLabels: { app: name } }, template: template(name), ...spec } };
}

const DEPLOYMENT_DEFAULTS = {
  replicas: 1,
  strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
  revisionHistoryLimit: 10,
  progressDeadlineSeconds: 600,
};

/** The stored minimal Deployment `name`. */
function storedDeployment(name: string, generation = 1, spec: Record<string, unknown> = {}): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { generation },
    spec: { selector: { matchLabels: { app: name } }, template: storedTemplate(name), ...DEPLOYMENT_DEFAULTS, ...spec },
    status: {},
  };
}

export function builtinDefaultsSuite(backend: () => Backend): void {
  describe('built-in kinds: defaults', () => {
    test('a minimal Pod: pod spec and container defaults, priority, preemptionPolicy, the two NoExecute tolerations, enableServiceLinks; Pending, BestEffort', async () => {
      await withObjects(backend(), async (create) => {
        const name = unique('defaults-pod');
        const pod = await create(`${CORE}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } });
        assert.deepEqual(stored(pod), {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { generation: 1 },
          spec: { containers: [container('app', 'nginx:1.27')], ...POD_SPEC, ...POD_ONLY },
          status: { phase: 'Pending', qosClass: 'BestEffort' },
        });
      });
    });

    test('a Pod: imagePullPolicy by tag, port protocol, volume defaultMode, probe timings, httpGet path and scheme, grpc service, requests from limits', async () => {
      await withObjects(backend(), async (create) => {
        const name = unique('defaults-pod');
        const pod = await create(`${CORE}/pods`, {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name },
          spec: {
            initContainers: [{ name: 'init', image: 'busybox:1.36', command: ['true'], resources: { limits: { cpu: '100m' } } }],
            containers: [
              { name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80 }], env: [{ name: 'A', value: 'b' }], volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }] },
              { name: 'notag', image: 'busybox' },
              { name: 'latest', image: 'busybox:latest' },
              { name: 'probes', image: 'nginx:1.27', livenessProbe: { httpGet: { port: 80 } }, readinessProbe: { tcpSocket: { port: 80 } }, startupProbe: { exec: { command: ['true'] } } },
              { name: 'grpc', image: 'nginx:1.27', livenessProbe: { grpc: { port: 9000 } } },
              { name: 'limits', image: 'nginx:1.27', resources: { limits: { cpu: '500m', memory: '128Mi' } } },
              { name: 'both', image: 'nginx:1.27', resources: { limits: { cpu: '1' }, requests: { cpu: '200m' } } },
            ],
            volumes: [
              { name: 'scratch', emptyDir: {} },
              { name: 'cm', configMap: { name: 'some-config' } },
              { name: 'sec', secret: { secretName: 'some-secret' } },
            ],
          },
        });
        const resources = (value: Record<string, unknown>): Record<string, unknown> => ({ resources: value });
        assert.deepEqual(stored(pod), {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { generation: 1 },
          spec: {
            volumes: [
              { name: 'scratch', emptyDir: {} },
              { name: 'cm', configMap: { name: 'some-config', defaultMode: 420 } },
              { name: 'sec', secret: { secretName: 'some-secret', defaultMode: 420 } },
            ],
            initContainers: [{ ...container('init', 'busybox:1.36', { command: ['true'] }), ...resources({ limits: { cpu: '100m' }, requests: { cpu: '100m' } }) }],
            containers: [
              container('nginx', 'nginx:1.27', { ports: [{ containerPort: 80, protocol: 'TCP' }], env: [{ name: 'A', value: 'b' }], volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }] }),
              container('notag', 'busybox', {}, 'Always'),
              container('latest', 'busybox:latest', {}, 'Always'),
              container('probes', 'nginx:1.27', {
                livenessProbe: { httpGet: { path: '/', port: 80, scheme: 'HTTP' }, ...PROBE_TIMINGS },
                readinessProbe: { tcpSocket: { port: 80 }, ...PROBE_TIMINGS },
                startupProbe: { exec: { command: ['true'] }, ...PROBE_TIMINGS },
              }),
              container('grpc', 'nginx:1.27', { livenessProbe: { grpc: { port: 9000, service: '' }, ...PROBE_TIMINGS } }),
              { ...container('limits', 'nginx:1.27'), ...resources({ limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '500m', memory: '128Mi' } }) },
              { ...container('both', 'nginx:1.27'), ...resources({ limits: { cpu: '1' }, requests: { cpu: '200m' } }) },
            ],
            ...POD_SPEC,
            ...POD_ONLY,
          },
          status: { phase: 'Pending', qosClass: 'Burstable' },
        });
      });
    });

    test('Deployment: replicas 1, RollingUpdate 25%/25%, revisionHistoryLimit 10, progressDeadlineSeconds 600, pod template defaults; Recreate gets no rollingUpdate', async () => {
      await withObjects(backend(), async (create) => {
        const minimal = unique('defaults-deploy');
        assert.deepEqual(stored(await create(`${APPS}/deployments`, deployment(minimal))), storedDeployment(minimal));
        const recreate = unique('defaults-deploy');
        assert.deepEqual(stored(await create(`${APPS}/deployments`, deployment(recreate, { strategy: { type: 'Recreate' } }))), storedDeployment(recreate, 1, { strategy: { type: 'Recreate' } }));
      });
    });

    test('StatefulSet: OrderedReady, RollingUpdate partition 0 and maxUnavailable 1, Retain policies, serviceName ""; a claim template gets kind, apiVersion, volumeMode and phase Pending', async () => {
      await withObjects(backend(), async (create) => {
        const defaults = {
          replicas: 1,
          podManagementPolicy: 'OrderedReady',
          updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1 } },
          revisionHistoryLimit: 10,
          persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
        };
        const minimal = unique('defaults-sts');
        const sts = await create(`${APPS}/statefulsets`, { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: minimal }, spec: { selector: { matchLabels: { app: minimal } }, template: template(minimal) } });
        assert.deepEqual(stored(sts), {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          metadata: { generation: 1 },
          spec: { selector: { matchLabels: { app: minimal } }, template: storedTemplate(minimal), serviceName: '', ...defaults },
          status: { replicas: 0, availableReplicas: 0 },
        });

        const withClaims = unique('defaults-sts');
        const mounts = { volumeMounts: [{ name: 'data', mountPath: '/data' }] };
        const claims = await create(`${APPS}/statefulsets`, {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          metadata: { name: withClaims },
          spec: {
            serviceName: withClaims,
            selector: { matchLabels: { app: withClaims } },
            template: template(withClaims, { containers: [{ name: 'app', image: 'nginx:1.27', ...mounts }] }),
            volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
          },
        });
        assert.deepEqual(stored(claims), {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          metadata: { generation: 1 },
          spec: {
            selector: { matchLabels: { app: withClaims } },
            template: storedTemplate(withClaims, [container('app', 'nginx:1.27', mounts)]),
            volumeClaimTemplates: [
              {
                kind: 'PersistentVolumeClaim',
                apiVersion: 'v1',
                metadata: { name: 'data' },
                spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' },
                status: { phase: 'Pending' },
              },
            ],
            serviceName: withClaims,
            ...defaults,
          },
          status: { replicas: 0, availableReplicas: 0 },
        });
      });
    });

    test('DaemonSet (RollingUpdate maxUnavailable 1 maxSurge 0, revisionHistoryLimit 10, template generation annotation) and ReplicaSet (replicas 1)', async () => {
      await withObjects(backend(), async (create) => {
        const ds = unique('defaults-ds');
        const daemonSet = await create(`${APPS}/daemonsets`, { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: ds }, spec: { selector: { matchLabels: { app: ds } }, template: template(ds) } });
        assert.deepEqual(stored(daemonSet), {
          apiVersion: 'apps/v1',
          kind: 'DaemonSet',
          metadata: { annotations: { 'deprecated.daemonset.template.generation': '1' }, generation: 1 },
          spec: {
            selector: { matchLabels: { app: ds } },
            template: storedTemplate(ds),
            updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
            revisionHistoryLimit: 10,
          },
          status: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 },
        });

        const rs = unique('defaults-rs');
        const replicaSet = await create(`${APPS}/replicasets`, { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: rs }, spec: { selector: { matchLabels: { app: rs } }, template: template(rs) } });
        assert.deepEqual(stored(replicaSet), {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: { generation: 1 },
          spec: { replicas: 1, selector: { matchLabels: { app: rs } }, template: storedTemplate(rs) },
          status: { replicas: 0 },
        });
      });
    });

    test("Job (parallelism, completions, backoffLimit 6, NonIndexed, selector and labels from its uid) and CronJob (Allow, history limits 3 and 1; its job template's pod spec defaulted)", async () => {
      await withObjects(backend(), async (create) => {
        const podSpec = { restartPolicy: 'Never', containers: [{ name: 'app', image: 'busybox:1.36' }] };
        const storedPodSpec = { ...POD_SPEC, containers: [container('app', 'busybox:1.36')], restartPolicy: 'Never' };

        const jobName = unique('defaults-job');
        const job = await create(`${BATCH}/jobs`, { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: jobName }, spec: { template: { spec: podSpec } } });
        const uid = job.metadata?.['uid'];
        assert.ok(typeof uid === 'string' && uid !== '');
        const labels = { 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': jobName, 'controller-uid': uid, 'job-name': jobName };
        assert.deepEqual(stored(job), {
          apiVersion: 'batch/v1',
          kind: 'Job',
          metadata: { labels, generation: 1 },
          spec: {
            parallelism: 1,
            completions: 1,
            backoffLimit: 6,
            selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } },
            manualSelector: false,
            template: { metadata: { labels }, spec: storedPodSpec },
            completionMode: 'NonIndexed',
            suspend: false,
            podReplacementPolicy: 'TerminatingOrFailed',
          },
          status: {},
        });

        const cronName = unique('defaults-cron');
        const cronJob = await create(`${BATCH}/cronjobs`, { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: cronName }, spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: podSpec } } } } });
        assert.deepEqual(stored(cronJob), {
          apiVersion: 'batch/v1',
          kind: 'CronJob',
          metadata: { generation: 1 },
          spec: {
            schedule: '*/5 * * * *',
            concurrencyPolicy: 'Allow',
            suspend: false,
            jobTemplate: { metadata: {}, spec: { template: { metadata: {}, spec: storedPodSpec } } },
            successfulJobsHistoryLimit: 3,
            failedJobsHistoryLimit: 1,
          },
          status: {},
        });
      });
    });

    test('Service ClusterIP and headless: protocol TCP, targetPort from port (a name kept), SingleStack IPv4, ClientIP timeout 10800; headless without a selector is RequireDualStack', async () => {
      await withObjects(backend(), async (create) => {
        const cluster = { type: 'ClusterIP', sessionAffinity: 'None', ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack', internalTrafficPolicy: 'Cluster' };
        const ip = { clusterIP: '<clusterIP>', clusterIPs: ['<clusterIP>'] };
        const headless = { clusterIP: 'None', clusterIPs: ['None'] };
        const tcp80 = { protocol: 'TCP', port: 80, targetPort: 80 };
        const selector = { app: 'x' };
        const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
          [{ selector, ports: [{ port: 80 }] }, { ports: [tcp80], selector, ...ip, ...cluster }],
          [{ ports: [{ port: 80 }] }, { ports: [tcp80], ...ip, ...cluster }],
          [{ selector, ports: [{ port: 80, targetPort: 'http' }] }, { ports: [{ protocol: 'TCP', port: 80, targetPort: 'http' }], selector, ...ip, ...cluster }],
          [
            { selector, ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443, targetPort: 8443 }] },
            { ports: [{ name: 'http', ...tcp80 }, { name: 'https', protocol: 'TCP', port: 443, targetPort: 8443 }], selector, ...ip, ...cluster },
          ],
          [{ selector, sessionAffinity: 'ClientIP', ports: [{ port: 80 }] }, { ports: [tcp80], selector, ...ip, ...cluster, sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } } }],
          [{ clusterIP: 'None', selector, ports: [{ port: 80 }] }, { ports: [tcp80], selector, ...headless, ...cluster }],
          [{ clusterIP: 'None', selector }, { selector, ...headless, ...cluster }],
          [{ clusterIP: 'None', ports: [{ port: 80 }] }, { ports: [tcp80], ...headless, ...cluster, ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'RequireDualStack' }],
        ];
        for (const [spec, want] of cases) {
          const got = await create(`${CORE}/services`, service(unique('defaults-svc'), spec));
          assert.deepEqual(allocated(got), { apiVersion: 'v1', kind: 'Service', metadata: {}, spec: want, status: { loadBalancer: {} } }, JSON.stringify(spec));
        }
      });
    });

    test('Service NodePort, LoadBalancer (Cluster, Local with a healthCheckNodePort) and ExternalName: externalTrafficPolicy Cluster, allocateLoadBalancerNodePorts, node ports allocated', async () => {
      await withObjects(backend(), async (create) => {
        const selector = { app: 'x' };
        const ip = { clusterIP: '<clusterIP>', clusterIPs: ['<clusterIP>'] };
        const family = { ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack', internalTrafficPolicy: 'Cluster' };
        const ports = [{ protocol: 'TCP', port: 80, targetPort: 80, nodePort: '<nodePort>' }];
        const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
          [{ type: 'NodePort', selector, ports: [{ port: 80 }] }, { ports, selector, ...ip, type: 'NodePort', sessionAffinity: 'None', externalTrafficPolicy: 'Cluster', ...family }],
          [
            { type: 'LoadBalancer', selector, ports: [{ port: 80 }] },
            { ports, selector, ...ip, type: 'LoadBalancer', sessionAffinity: 'None', externalTrafficPolicy: 'Cluster', ...family, allocateLoadBalancerNodePorts: true },
          ],
          [
            { type: 'LoadBalancer', externalTrafficPolicy: 'Local', selector, ports: [{ port: 80 }] },
            { ports, selector, ...ip, type: 'LoadBalancer', sessionAffinity: 'None', externalTrafficPolicy: 'Local', healthCheckNodePort: '<healthCheckNodePort>', ...family, allocateLoadBalancerNodePorts: true },
          ],
          [{ type: 'ExternalName', externalName: 'example.com' }, { type: 'ExternalName', sessionAffinity: 'None', externalName: 'example.com' }],
          [
            { type: 'ExternalName', externalName: 'example.com', ports: [{ port: 80 }] },
            { ports: [{ protocol: 'TCP', port: 80, targetPort: 80 }], type: 'ExternalName', sessionAffinity: 'None', externalName: 'example.com' },
          ],
        ];
        for (const [spec, want] of cases) {
          const got = await create(`${CORE}/services`, service(unique('defaults-svc'), spec));
          assert.deepEqual(allocated(got), { apiVersion: 'v1', kind: 'Service', metadata: {}, spec: want, status: { loadBalancer: {} } }, JSON.stringify(spec));
        }
      });
    });

    test('small kinds: Secret type Opaque, PVC volumeMode and finalizer, NetworkPolicy policyTypes, HPA minReplicas and CPU metric, RoleBinding apiGroup, Namespace; none for ConfigMap, ServiceAccount, Ingress, PDB, Role, Lease', async () => {
      await withObjects(backend(), async (create) => {
        const rbac = '/apis/rbac.authorization.k8s.io/v1/namespaces/default';
        const cases: Array<[string, Json, Json]> = [
          [`${CORE}/secrets`, { apiVersion: 'v1', kind: 'Secret', stringData: { a: 'b' } }, { apiVersion: 'v1', kind: 'Secret', metadata: {}, data: { a: 'Yg==' }, type: 'Opaque' }],
          [`${CORE}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', data: { a: 'b' } }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: {}, data: { a: 'b' } }],
          [`${CORE}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount' }, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: {} }],
          [
            `${CORE}/persistentvolumeclaims`,
            { apiVersion: 'v1', kind: 'PersistentVolumeClaim', spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
            {
              apiVersion: 'v1',
              kind: 'PersistentVolumeClaim',
              metadata: { finalizers: ['kubernetes.io/pvc-protection'] },
              spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' },
              status: { phase: 'Pending' },
            },
          ],
          [
            `${NETWORKING}/ingresses`,
            { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', spec: { rules: [{ host: 'example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'svc', port: { number: 80 } } } }] } }] } },
            {
              apiVersion: 'networking.k8s.io/v1',
              kind: 'Ingress',
              metadata: { generation: 1 },
              spec: { rules: [{ host: 'example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'svc', port: { number: 80 } } } }] } }] },
              status: { loadBalancer: {} },
            },
          ],
          [
            `${NETWORKING}/networkpolicies`,
            { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', spec: { podSelector: {} } },
            { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { generation: 1 }, spec: { podSelector: {}, policyTypes: ['Ingress'] } },
          ],
          [
            `${NETWORKING}/networkpolicies`,
            { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', spec: { podSelector: {}, ingress: [{ ports: [{ port: 80 }] }], egress: [{}] } },
            {
              apiVersion: 'networking.k8s.io/v1',
              kind: 'NetworkPolicy',
              metadata: { generation: 1 },
              spec: { podSelector: {}, ingress: [{ ports: [{ protocol: 'TCP', port: 80 }] }], egress: [{}], policyTypes: ['Ingress', 'Egress'] },
            },
          ],
          [
            '/apis/policy/v1/namespaces/default/poddisruptionbudgets',
            { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', spec: { minAvailable: 1, selector: { matchLabels: { app: 'x' } } } },
            {
              apiVersion: 'policy/v1',
              kind: 'PodDisruptionBudget',
              metadata: { generation: 1 },
              spec: { minAvailable: 1, selector: { matchLabels: { app: 'x' } } },
              status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
            },
          ],
          [
            '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers',
            { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'x' }, maxReplicas: 5 } },
            {
              apiVersion: 'autoscaling/v2',
              kind: 'HorizontalPodAutoscaler',
              metadata: { generation: 1 },
              spec: {
                scaleTargetRef: { kind: 'Deployment', name: 'x', apiVersion: 'apps/v1' },
                minReplicas: 1,
                maxReplicas: 5,
                metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
              },
              status: { desiredReplicas: 0, currentMetrics: null },
            },
          ],
          [
            `${rbac}/roles`,
            { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
            { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: {}, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] },
          ],
          [
            `${rbac}/rolebindings`,
            {
              apiVersion: 'rbac.authorization.k8s.io/v1',
              kind: 'RoleBinding',
              roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'some-role' },
              subjects: [{ kind: 'User', name: 'alice' }, { kind: 'ServiceAccount', name: 'some-account' }, { kind: 'Group', name: 'devs' }],
            },
            {
              apiVersion: 'rbac.authorization.k8s.io/v1',
              kind: 'RoleBinding',
              metadata: {},
              subjects: [
                { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' },
                { kind: 'ServiceAccount', name: 'some-account' },
                { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' },
              ],
              roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'some-role' },
            },
          ],
          [
            '/apis/coordination.k8s.io/v1/namespaces/default/leases',
            { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', spec: {} },
            { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: {}, spec: {} },
          ],
        ];
        for (const [collection, sent, want] of cases) {
          const got = await create(collection, { ...sent, metadata: { name: unique('defaults-small') } });
          assert.deepEqual(stored(got), want, String(sent['kind']));
        }
        const namespace = unique('defaults-ns');
        assert.deepEqual(stored(await create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } })), {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { labels: { 'kubernetes.io/metadata.name': namespace } },
          spec: { finalizers: ['kubernetes'] },
          status: { phase: 'Active' },
        });
      });
    });

    test('quantities are stored canonically (0.5 → 500m, 1024Mi → 1Gi, 1.5Gi → 1536Mi), resource lists rounded up to milli; a container limit range fills its defaults; a text that is no quantity is 400', async () => {
      await withObjects(backend(), async (create) => {
        const resources = { limits: { cpu: 0.5, memory: '1024Mi', 'ephemeral-storage': '1.5Gi' }, requests: { cpu: '0.0001', memory: '1e3' } };
        const name = unique('defaults-quantity');
        const spec = { containers: [{ name: 'app', image: 'nginx:1.27', resources }], volumes: [{ name: 'scratch', emptyDir: { sizeLimit: '2048Ki' } }] };
        const stored = await create(`${APPS}/deployments`, deployment(name, { template: template(name, spec) }));
        const podSpec = (stored.spec?.['template'] as Json | undefined)?.spec as Json;
        assert.deepEqual((podSpec['containers'] as Json[])[0]?.['resources'], { limits: { cpu: '500m', memory: '1Gi', 'ephemeral-storage': '1536Mi' }, requests: { cpu: '1m', memory: '1e3' } });
        assert.deepEqual((podSpec['volumes'] as Json[])[0], { name: 'scratch', emptyDir: { sizeLimit: '2Mi' } });
        const claim = await create(`${CORE}/persistentvolumeclaims`, {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          metadata: { name: unique('defaults-quantity') },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1073741824' } } },
        });
        assert.deepEqual(claim.spec?.['resources'], { requests: { storage: '1073741824' } });
        const limits = await create(`${CORE}/limitranges`, {
          apiVersion: 'v1',
          kind: 'LimitRange',
          metadata: { name: unique('defaults-quantity') },
          spec: { limits: [{ type: 'Container', max: { cpu: '2', memory: '0.5Gi' }, min: { cpu: 0.1 } }] },
        });
        assert.deepEqual(limits.spec?.['limits'], [{ type: 'Container', max: { cpu: '2', memory: '512Mi' }, min: { cpu: '100m' }, default: { cpu: '2', memory: '512Mi' }, defaultRequest: { cpu: '2', memory: '512Mi' } }]);
        const quota = await create(`${CORE}/resourcequotas`, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: unique('defaults-quantity') }, spec: { hard: { 'requests.cpu': '4000m', pods: 10 } } });
        assert.deepEqual(quota.spec?.['hard'], { 'requests.cpu': '4', pods: '10' });

        const bad = unique('defaults-quantity');
        const answer = await raw(backend().kubeConfig, 'POST', `${APPS}/deployments`, JSON.stringify(deployment(bad, { template: template(bad, { containers: [{ name: 'app', image: 'nginx:1.27', resources: { limits: { cpu: 'lots' } } }] }) })));
        assert.deepEqual(
          { status: answer.status, reason: answer.body['reason'], message: answer.body['message'] },
          { status: 400, reason: 'BadRequest', message: `Deployment in version "v1" cannot be handled as a Deployment: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'` },
        );
      });
    });

    test('a PUT of a Service without clusterIP and clusterIPs keeps both', async () => {
      await withObjects(backend(), async (create) => {
        const name = unique('defaults-svc');
        const before = await create(`${CORE}/services`, service(name, { selector: { app: 'x' }, ports: [{ port: 80 }] }));
        assertClusterIp(before.spec?.['clusterIP'], name);
        const sent = structuredClone(before);
        delete sent.spec?.['clusterIP'];
        delete sent.spec?.['clusterIPs'];
        const put = await raw(backend().kubeConfig, 'PUT', `${CORE}/services/${name}`, JSON.stringify(sent));
        assert.equal(put.status, 200, String(put.body['message']));
        assert.deepEqual((put.body as Json).spec, before.spec);
        assert.deepEqual((await raw(backend().kubeConfig, 'GET', `${CORE}/services/${name}`)).body['spec'], before.spec);
      });
    });

    test('a PUT of a Deployment without its defaulted fields gets them again: Recreate without strategy becomes RollingUpdate (generation 2); the rest unchanged (generation 1)', async () => {
      await withObjects(backend(), async (create) => {
        const recreate = unique('defaults-deploy');
        const first = await create(`${APPS}/deployments`, deployment(recreate, { strategy: { type: 'Recreate' } }));
        delete first.spec?.['strategy'];
        const put = await raw(backend().kubeConfig, 'PUT', `${APPS}/deployments/${recreate}`, JSON.stringify(first));
        assert.equal(put.status, 200, String(put.body['message']));
        assert.deepEqual(stored(put.body as Json), storedDeployment(recreate, 2));

        const minimal = unique('defaults-deploy');
        const second = await create(`${APPS}/deployments`, deployment(minimal));
        const spec = second.spec as Json & { template: { spec: { containers: Json[] } & Json } };
        for (const field of ['replicas', 'strategy', 'revisionHistoryLimit', 'progressDeadlineSeconds']) delete spec[field];
        for (const field of ['dnsPolicy', 'restartPolicy', 'schedulerName', 'securityContext', 'terminationGracePeriodSeconds']) delete spec.template.spec[field];
        for (const field of ['imagePullPolicy', 'resources', 'terminationMessagePath', 'terminationMessagePolicy']) delete spec.template.spec.containers[0]?.[field];
        const again = await raw(backend().kubeConfig, 'PUT', `${APPS}/deployments/${minimal}`, JSON.stringify(second));
        assert.equal(again.status, 200, String(again.body['message']));
        assert.deepEqual(stored(again.body as Json), storedDeployment(minimal, 1));
      });
    });

    test("server-side apply: the manager's managedFields own only the applied fields, not the defaulted ones (a POST's own them)", async () => {
      await withObjects(backend(), async (_create, track) => {
        const name = unique('defaults-ssa');
        const path = `${APPS}/deployments/${name}`;
        const apply = await raw(backend().kubeConfig, 'PATCH', `${path}?fieldManager=probe`, JSON.stringify(deployment(name)), 'application/apply-patch+yaml');
        assert.equal(apply.status, 201, String(apply.body['message']));
        track(path);
        assert.deepEqual(stored(apply.body as Json), storedDeployment(name));
        assert.deepEqual(managedFields(apply.body as Json), [
          {
            manager: 'probe',
            operation: 'Apply',
            apiVersion: 'apps/v1',
            time: '<time>',
            fieldsType: 'FieldsV1',
            fieldsV1: {
              'f:spec': {
                'f:selector': {},
                'f:template': {
                  'f:metadata': { 'f:labels': { 'f:app': {} } },
                  'f:spec': { 'f:containers': { 'k:{"name":"app"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
                },
              },
            },
          },
        ]);

        const posted = unique('defaults-ssa');
        const post = await raw(backend().kubeConfig, 'POST', `${APPS}/deployments?fieldManager=probe-create`, JSON.stringify(deployment(posted)));
        assert.equal(post.status, 201, String(post.body['message']));
        track(`${APPS}/deployments/${posted}`);
        const [entry] = managedFields(post.body as Json);
        assert.equal(entry?.['operation'], 'Update');
        const spec = ((entry?.['fieldsV1'] as Json | undefined)?.['f:spec'] ?? {}) as Json;
        for (const field of ['f:progressDeadlineSeconds', 'f:replicas', 'f:revisionHistoryLimit', 'f:selector', 'f:strategy']) assert.ok(field in spec, `the POST's entry owns the defaulted ${field}`);
      });
    });

    test("a POST's managedFields entry, exactly: typed maps and pointers it added are members ('.'), empty ones too", async () => {
      await withObjects(backend(), async (_create, track) => {
        const posted = unique('defaults-ssa');
        const post = await raw(backend().kubeConfig, 'POST', `${APPS}/deployments?fieldManager=probe-create`, JSON.stringify(deployment(posted)));
        assert.equal(post.status, 201, String(post.body['message']));
        track(`${APPS}/deployments/${posted}`);
        assert.deepEqual(
          managedFields(post.body as Json),
          [
            {
              manager: 'probe-create',
              operation: 'Update',
              apiVersion: 'apps/v1',
              time: '<time>',
              fieldsType: 'FieldsV1',
              fieldsV1: {
                'f:spec': {
                  'f:progressDeadlineSeconds': {},
                  'f:replicas': {},
                  'f:revisionHistoryLimit': {},
                  'f:selector': {},
                  'f:strategy': { 'f:rollingUpdate': { '.': {}, 'f:maxSurge': {}, 'f:maxUnavailable': {} }, 'f:type': {} },
                  'f:template': {
                    'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
                    'f:spec': {
                      'f:containers': {
                        'k:{"name":"app"}': { '.': {}, 'f:image': {}, 'f:imagePullPolicy': {}, 'f:name': {}, 'f:resources': {}, 'f:terminationMessagePath': {}, 'f:terminationMessagePolicy': {} },
                      },
                      'f:dnsPolicy': {},
                      'f:restartPolicy': {},
                      'f:schedulerName': {},
                      'f:securityContext': {},
                      'f:terminationGracePeriodSeconds': {},
                    },
                  },
                },
              },
            },
          ],
        );
      });
    });

    test('a merge patch setting a defaulted field to null gets the default again: imagePullPolicy IfNotPresent, or Always for :latest', async () => {
      await withObjects(backend(), async (create) => {
        const name = unique('defaults-patch');
        const path = `${APPS}/deployments/${name}`;
        await create(`${APPS}/deployments`, deployment(name, { template: template(name, { containers: [{ name: 'app', image: 'nginx:1.27', imagePullPolicy: 'Never' }] }) }));
        const patch = async (image: string): Promise<Json> => {
          const body = { spec: { template: { spec: { containers: [{ name: 'app', image, imagePullPolicy: null }] } } } };
          const answer = await raw(backend().kubeConfig, 'PATCH', path, JSON.stringify(body), 'application/merge-patch+json');
          assert.equal(answer.status, 200, String(answer.body['message']));
          return answer.body as Json;
        };
        assert.deepEqual(stored(await patch('nginx:1.27')), storedDeployment(name, 2));
        assert.deepEqual(stored(await patch('nginx:latest')), storedDeployment(name, 3, { template: storedTemplate(name, [container('app', 'nginx:latest', {}, 'Always')]) }));
      });
    });

    test('a PUT changing a Service clusterIP is refused: 422 on spec.clusterIPs[0], "may not change once set"', async () => {
      await withObjects(backend(), async (create) => {
        const name = unique('defaults-svc');
        const current = await create(`${CORE}/services`, service(name, { selector: { app: 'x' }, ports: [{ port: 80 }] }));
        const old = String(current.spec?.['clusterIP']);
        const next = old === '10.0.0.200' ? '10.0.0.201' : '10.0.0.200';
        const cases = [
          { ...current, spec: { ...current.spec, clusterIP: next } },
          { ...current, spec: { ...current.spec, clusterIP: next, clusterIPs: [next] } },
        ];
        for (const sent of cases) {
          const put = await raw(backend().kubeConfig, 'PUT', `${CORE}/services/${name}`, JSON.stringify(sent));
          const message = `Invalid value: ["${next}"]: may not change once set`;
          assert.deepEqual({ status: put.status, body: put.body }, {
            status: 422,
            body: {
              kind: 'Status',
              apiVersion: 'v1',
              metadata: {},
              status: 'Failure',
              message: `Service "${name}" is invalid: spec.clusterIPs[0]: ${message}`,
              reason: 'Invalid',
              details: { name, kind: 'Service', causes: [{ reason: 'FieldValueInvalid', message, field: 'spec.clusterIPs[0]' }] },
              code: 422,
            },
          });
        }
        assert.deepEqual((await raw(backend().kubeConfig, 'GET', `${CORE}/services/${name}`)).body['spec'], current.spec);
      });
    });
  });
}
