/**
 * The queue options of a CRD's controller that its `queue:` block decides: the backoff of failed reconciles
 * (`retryBackoff`, crd-backoff.ts), the give-up after `retryBackoff.maxAttempts` and its Warning Event
 * (retries-exhausted.ts), and `behaviour`'s conditional drops (controller/queue-admission.ts).
 */
import type { ControllerObserver, ControllerOptions } from '../controller/controller.js';
import { QueueAdmission } from '../controller/queue-admission.js';
import type { KubeObject } from '../kube/resource.js';
import type { ActivationInput } from './activation.js';
import { crdBackoff } from './crd-backoff.js';
import { withGiveUpEvents } from './retries-exhausted.js';

/**
 * `objectOf` reads the CRD's informer cache (the controller's, built with these options); `wrap` adds the runtime's
 * other observers (the autoscaler's) around the give-up Events.
 */
export function queueWiring(
  input: Pick<ActivationInput, 'crd' | 'client' | 'options' | 'logger' | 'observer'>,
  objectOf: (key: string) => KubeObject | undefined,
  wrap: (observer: ControllerObserver) => ControllerObserver,
): Pick<ControllerOptions, 'rateLimiter' | 'observer' | 'admission' | 'maxAttempts'> {
  const { crd, client, options, logger } = input;
  const maxAttempts = crd.retryBackoff?.maxAttempts;
  const observer = maxAttempts === undefined ? input.observer : withGiveUpEvents(input.observer, { client, logger, now: () => options.clock.now(), maxAttempts, objectOf });
  return {
    rateLimiter: { clock: options.clock, ...options.rateLimiter, ...crdBackoff(crd, options.rateLimiter) },
    observer: wrap(observer),
    admission: crd.queueBehaviour === undefined ? undefined : new QueueAdmission(crd.queueBehaviour, { objectOf, dialect: crd.templateDialect, notes: crd.notes, logger }),
    maxAttempts,
  };
}
