/**
 * The defaults kube-apiserver 1.37 decodes a Service with (Go's SetDefaults_Service): session affinity, type, each
 * port's protocol and target port, the traffic policies and load-balancer node ports. What its registry adds on a
 * write (addresses, IP families, node ports) is service-addresses.ts's.
 */
import { ensureObject, objectAt, objectsAt, textAt, unset, whenUnset, whenZero, type Json } from './fields.js';

/** Three hours: ClientIP session affinity's default timeout. */
const CLIENT_IP_TIMEOUT_SECONDS = 10_800;

/** Whether the Service can be reached from outside the cluster (a node port, a load balancer, or external IPs). */
export function externallyAccessible(spec: Json): boolean {
  const type = spec['type'];
  return type === 'LoadBalancer' || type === 'NodePort' || (type === 'ClusterIP' && !unset(spec, 'externalIPs'));
}

export function serviceDefaults(object: Json): void {
  const spec = ensureObject(object, 'spec');
  whenZero(spec, 'sessionAffinity', 'None');
  if (spec['sessionAffinity'] === 'None') delete spec['sessionAffinityConfig'];
  if (spec['sessionAffinity'] === 'ClientIP') {
    const clientIP = objectAt(objectAt(spec, 'sessionAffinityConfig') ?? {}, 'clientIP');
    if (clientIP === undefined || unset(clientIP, 'timeoutSeconds')) spec['sessionAffinityConfig'] = { clientIP: { timeoutSeconds: CLIENT_IP_TIMEOUT_SECONDS } };
  }
  whenZero(spec, 'type', 'ClusterIP');
  for (const port of objectsAt(spec, 'ports')) {
    whenZero(port, 'protocol', 'TCP');
    whenZero(port, 'targetPort', port['port']);
  }
  if (externallyAccessible(spec)) whenZero(spec, 'externalTrafficPolicy', 'Cluster');
  if (['NodePort', 'LoadBalancer', 'ClusterIP'].includes(textAt(spec, 'type'))) whenUnset(spec, 'internalTrafficPolicy', 'Cluster');
  if (spec['type'] === 'LoadBalancer') {
    whenUnset(spec, 'allocateLoadBalancerNodePorts', true);
    for (const ingress of objectsAt(objectAt(objectAt(object, 'status') ?? {}, 'loadBalancer') ?? {}, 'ingress')) {
      if (textAt(ingress, 'ip') !== '') whenUnset(ingress, 'ipMode', 'VIP');
    }
  }
}
