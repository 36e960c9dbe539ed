/**
 * The pod part of the workload short forms (deployments, statefulSets, jobs, cronJobs): one container built from
 * `image`, `command`, `args`, `env`, `ports`... and the pod-level fields around it.
 */
import { compact, describeKind, isPlainMap, manifestError, scalarText, type ShortForm } from './short-form.js';

/** The short-form fields read by {@link podSpecOf} and {@link podMetadataOf}. */
export const POD_FIELDS: readonly string[] = Object.freeze([
  'image',
  'containerName',
  'command',
  'args',
  'env',
  'envFrom',
  'port',
  'containerPort',
  'ports',
  'resources',
  'imagePullPolicy',
  'volumeMounts',
  'readinessProbe',
  'livenessProbe',
  'startupProbe',
  'workingDir',
  'volumes',
  'serviceAccountName',
  'nodeSelector',
  'tolerations',
  'affinity',
  'imagePullSecrets',
  'securityContext',
  'containerSecurityContext',
  'terminationGracePeriodSeconds',
  'restartPolicy',
  'podLabels',
  'podAnnotations',
]);

/** `env` as a map (`{ KEY: value }`) or as Kubernetes' list of `{ name, value | valueFrom }`. */
function envOf(form: ShortForm): unknown[] | undefined {
  const value = form.raw('env');
  if (value === undefined) return undefined;
  if (Array.isArray(value)) {
    return value.map((item, index) => {
      if (!isPlainMap(item) || typeof item['name'] !== 'string') throw manifestError(`"env[${index}]" must be a map with a "name"`);
      if (item['value'] !== undefined && typeof item['value'] !== 'string') return { ...item, value: scalarText(item['value'], `env[${index}].value`) };
      return item;
    });
  }
  if (!isPlainMap(value)) throw manifestError('"env" must be a map or a list');
  return Object.entries(value)
    .filter(([, item]) => item !== undefined && item !== null)
    .map(([name, item]) => (isPlainMap(item) ? { name, ...item } : { name, value: scalarText(item, `env.${name}`) }));
}

/** `port: 8080`, `containerPort: 8080`, or `ports: [8080, { containerPort: 9090, name: metrics }]`. */
function containerPortsOf(form: ShortForm): unknown[] | undefined {
  const list = form.list('ports');
  if (list !== undefined) {
    return list.map((item, index) => {
      if (typeof item === 'number' || typeof item === 'string') return { containerPort: toPort(item, `ports[${index}]`) };
      if (!isPlainMap(item)) throw manifestError(`"ports[${index}]" must be a number or a map`);
      const port = item['containerPort'] ?? item['port'];
      const { port: ignored, ...rest } = item;
      void ignored;
      return { ...rest, containerPort: toPort(port, `ports[${index}].containerPort`) };
    });
  }
  const single = form.integer('containerPort') ?? form.integer('port');
  return single === undefined ? undefined : [{ containerPort: single }];
}

function toPort(value: unknown, field: string): number {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 1 || number > 65535) {
    throw manifestError(`"${field}" must be a port number (1-65535), got ${describeKind(value)}`);
  }
  return number;
}

/** `imagePullSecrets: [regcred]` or Kubernetes' `[{ name: regcred }]`. */
export function namedRefs(form: ShortForm, field: string): unknown[] | undefined {
  return form.list(field)?.map((item, index) => (isPlainMap(item) ? item : { name: scalarText(item, `${field}[${index}]`) }));
}

/** The single container of a short form. `image` is required. */
export function containerOf(form: ShortForm, kind: string): Record<string, unknown> {
  return compact({
    name: form.string('containerName') ?? 'app',
    image: form.requiredString('image', kind),
    imagePullPolicy: form.string('imagePullPolicy'),
    command: form.stringList('command'),
    args: form.stringList('args'),
    workingDir: form.string('workingDir'),
    env: envOf(form),
    envFrom: form.list('envFrom'),
    ports: containerPortsOf(form),
    resources: form.map('resources'),
    volumeMounts: form.list('volumeMounts'),
    readinessProbe: form.map('readinessProbe'),
    livenessProbe: form.map('livenessProbe'),
    startupProbe: form.map('startupProbe'),
    securityContext: form.map('containerSecurityContext'),
  });
}

/** The pod spec of a short form; `restartPolicy` falls back to the kind's default when given. */
export function podSpecOf(form: ShortForm, kind: string, restartPolicy?: string): Record<string, unknown> {
  return compact({
    containers: [containerOf(form, kind)],
    restartPolicy: form.string('restartPolicy') ?? restartPolicy,
    serviceAccountName: form.string('serviceAccountName'),
    volumes: form.list('volumes'),
    nodeSelector: form.stringMap('nodeSelector'),
    tolerations: form.list('tolerations'),
    affinity: form.map('affinity'),
    imagePullSecrets: namedRefs(form, 'imagePullSecrets'),
    securityContext: form.map('securityContext'),
    terminationGracePeriodSeconds: form.integer('terminationGracePeriodSeconds'),
  });
}

/** The pod template's metadata: `labels` given by the workload plus `podLabels`, and `podAnnotations`. */
export function podMetadataOf(form: ShortForm, labels: Readonly<Record<string, string>>): Record<string, unknown> {
  const annotations = form.stringMap('podAnnotations');
  return compact({
    labels: { ...labels, ...(form.stringMap('podLabels') ?? {}) },
    annotations,
  });
}
