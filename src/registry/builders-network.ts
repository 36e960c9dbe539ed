/**
 * Short forms of the network kinds: `services` and `ingresses`.
 */
import type { KindBuilder } from './kind-builder.js';
import { OWNER_LABEL } from './ownership.js';
import { compact, deepMerge, defaultName, describeKind, isPlainMap, manifestError, metadataOf, ShortForm } from './short-form.js';

function portNumber(value: unknown, field: string): number {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 1 || number > 65535) {
    throw manifestError(`"${field}" must be a port number (1-65535), got ${describeKind(value)}`);
  }
  return number;
}

/** A target port: a number, or the name of a container port. */
function targetPortOf(value: unknown, fallback: number, field: string): number | string {
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value === 'string' && !/^\d+$/.test(value)) return value;
  return portNumber(value, field);
}

/** `port` + `targetPort`, or `ports: [80, { port: 443, targetPort: 8443, name: https }]`. Several ports need names: `port-<port>` by default. */
function servicePortsOf(form: ShortForm): Record<string, unknown>[] {
  const list = form.list('ports');
  let ports: Record<string, unknown>[];
  if (list !== undefined) {
    ports = list.map((item, index) => {
      if (typeof item === 'number' || typeof item === 'string') {
        const port = portNumber(item, `ports[${index}]`);
        return { port, targetPort: port };
      }
      if (!isPlainMap(item)) throw manifestError(`"ports[${index}]" must be a number or a map`);
      const port = portNumber(item['port'], `ports[${index}].port`);
      return compact({ ...item, port, targetPort: targetPortOf(item['targetPort'], port, `ports[${index}].targetPort`) });
    });
  } else {
    const port = form.integer('port');
    if (port === undefined) throw manifestError('services need "port" or "ports"');
    ports = [compact({ port: portNumber(port, 'port'), targetPort: targetPortOf(form.raw('targetPort'), port, 'targetPort'), protocol: form.string('protocol'), nodePort: form.integer('nodePort') })];
  }
  if (ports.length > 1) for (const port of ports) port['name'] ??= `port-${String(port['port'])}`;
  return ports;
}

export const servicesBuilder: KindBuilder = {
  produces: { apiVersion: 'v1', kind: 'Service' },
  fields: ['type', 'port', 'targetPort', 'protocol', 'nodePort', 'ports', 'selector', 'clusterIP', 'sessionAffinity', 'externalTrafficPolicy', 'spec'],
  build(body, context) {
    const form = new ShortForm(body);
    let spec: Record<string, unknown> = compact({
      type: form.string('type') ?? 'ClusterIP',
      selector: form.stringMap('selector') ?? { [OWNER_LABEL]: context.ownerLabel },
      ports: servicePortsOf(form),
      clusterIP: form.string('clusterIP'),
      sessionAffinity: form.string('sessionAffinity'),
      externalTrafficPolicy: form.string('externalTrafficPolicy'),
    });
    const override = form.map('spec');
    if (override !== undefined) spec = deepMerge(spec, override);
    return { apiVersion: 'v1', kind: 'Service', metadata: metadataOf(form, defaultName(context, 'svc')), spec };
  },
};

/**
 * Ingresses: one rule for `host` routing `path` (default `/`, `Prefix`) to `serviceName` (default `<parent>-svc`,
 * the default name of a `services` entry) on `servicePort` (default 80; a name selects a named port). `tls: true`
 * adds a TLS section for the host with the Secret `<name>-tls`; `rules` or `tls` lists replace the generated ones.
 */
export const ingressesBuilder: KindBuilder = {
  produces: { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress' },
  fields: ['className', 'ingressClassName', 'host', 'path', 'pathType', 'serviceName', 'servicePort', 'tls', 'rules', 'spec'],
  build(body, context) {
    const form = new ShortForm(body);
    const metadata = metadataOf(form, defaultName(context, 'ingress'));
    const host = form.string('host');
    const servicePort = form.port('servicePort') ?? 80;
    const backend = {
      service: { name: form.string('serviceName') ?? defaultName(context, 'svc'), port: typeof servicePort === 'number' ? { number: servicePort } : { name: servicePort } },
    };
    const rules = form.list('rules') ?? [
      compact({ host, http: { paths: [{ path: form.string('path') ?? '/', pathType: form.string('pathType') ?? 'Prefix', backend }] } }),
    ];
    let tls: unknown[] | undefined;
    const tlsValue = form.raw('tls');
    if (Array.isArray(tlsValue)) tls = tlsValue;
    else if (isPlainMap(tlsValue)) tls = [compact({ hosts: host === undefined ? undefined : [host], ...tlsValue })];
    else if (form.boolean('tls') === true) tls = [compact({ hosts: host === undefined ? undefined : [host], secretName: `${metadata.name ?? ''}-tls` })];
    let spec: Record<string, unknown> = compact({ ingressClassName: form.string('ingressClassName') ?? form.string('className'), rules, tls });
    const override = form.map('spec');
    if (override !== undefined) spec = deepMerge(spec, override);
    return { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata, spec };
  },
};
