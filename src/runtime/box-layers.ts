/**
 * The layers activation puts around a CRD's box, innermost first: Kubernetes Events (Orkestra's `emit.events`),
 * notifications (Orkestra's `notify:`), the requeue rule, reconcile-time validation (generic boxes only), then the
 * pre-reconcile gates, which see every cycle first. Each layer is there only when the definition declares it.
 */
import type { CrdDefinition } from '../definition/types.js';
import type { KubeClient } from '../kube/client.js';
import type { KubeObject } from '../kube/resource.js';
import type { Logger } from '../observe/logger.js';
import type { TemplateData } from '../template/index.js';
import { EmitBox } from '../operatorbox/emit-box.js';
import { NotifyBox, type NotificationSender } from '../operatorbox/notify-box.js';
import { GatedBox } from '../operatorbox/gated-box.js';
import type { GateCalls } from '../operatorbox/gate-calls.js';
import { RequeueBox } from '../operatorbox/requeue-box.js';
import type { OperatorBoxStage } from '../operatorbox/stage.js';
import { ReconcileValidation, ValidatedBox } from '../operatorbox/validated-box.js';
import type { Peers } from '../rules/validation.js';
import { ExternalCalls } from '../operatorbox/external-calls.js';
import { secretReader } from './external-wiring.js';
import type { ProtocolLookup } from '../operatorbox/external-protocols.js';

export interface BoxLayerInput {
  readonly crd: CrdDefinition;
  /** Whether the box is the generic one (templates): only that one is validated at reconcile time. */
  readonly generic: boolean;
  readonly client: KubeClient;
  readonly logger: Logger;
  readonly now: () => number;
  /** The template data the Events render against (what the status fields see); `failed` tells the outcome. */
  readonly data: (object: KubeObject, failed: boolean) => TemplateData;
  readonly gateCalls: GateCalls | undefined;
  /** The CRD's custom resources in the cache, for reconcile-time `operator: unique`. */
  readonly peers: Peers;
  /** The runtime's notifier (docs/notifications.md); absent when the definition declares no notifications. */
  readonly notifier?: NotificationSender | undefined;
  /** The clients of the external calls' stateful protocols (external-protocols.ts). */
  readonly protocols?: ProtocolLookup | undefined;
}

/** Wraps `box` in the declared layers; `validation` is kept for the status write (its conditions). */
export function layerBox(box: OperatorBoxStage, input: BoxLayerInput): { readonly box: OperatorBoxStage; readonly validation: ReconcileValidation | undefined } {
  const { crd, logger } = input;
  let layered = box;
  const events = crd.operatorBox.events;
  if (events !== undefined) {
    layered = new EmitBox(layered, { crd: crd.name, events, dialect: crd.templateDialect, notes: crd.notes, client: input.client, logger, now: input.now, data: input.data });
  }
  const rules = crd.notifications;
  if (rules !== undefined && input.notifier !== undefined) {
    layered = new NotifyBox(layered, { crd: crd.name, rules, sender: input.notifier, dialect: crd.templateDialect, notes: crd.notes, logger, data: input.data, now: input.now });
  }
  if (crd.operatorBox.requeue !== undefined) {
    layered = new RequeueBox(layered, { crd: crd.name, rule: crd.operatorBox.requeue, dialect: crd.templateDialect, notes: crd.notes, logger, now: input.now });
  }
  const validation = input.generic ? ReconcileValidation.of(crd, input.peers) : undefined;
  if (validation !== undefined) layered = new ValidatedBox(layered, validation, validationCalls(input));
  if (crd.operatorBox.preReconcile !== undefined) {
    layered = new GatedBox(layered, { crd: crd.name, preReconcile: crd.operatorBox.preReconcile, dialect: crd.templateDialect, notes: crd.notes, logger, calls: input.gateCalls, now: input.now });
  }
  return { box: layered, validation };
}

/** `validation.external` calls that fire at reconcile, made before reconcile-time validation; none: undefined. */
function validationCalls(input: BoxLayerInput): ConstructorParameters<typeof ValidatedBox>[2] {
  const { crd } = input;
  const calls = (crd.admission?.validationExternal ?? []).filter((call) => call.atReconcile);
  if (calls.length === 0) return undefined;
  const made = new ExternalCalls({ name: `spec.crds.${crd.name}.validation.external`, calls, dialect: crd.templateDialect, notes: crd.notes, readSecret: secretReader(input.client), now: input.now, protocols: input.protocols });
  return { calls: made, logger: input.logger, crd };
}
