// kube-apiserver's 422 Invalid answer, as the schema and CEL conformance tests compare it: its status, reason,
// message (`<Kind>.<group> "<name>" is invalid: <field>: <message>`, several causes in brackets) and details.
import type { RawAnswer } from './raw-http.js';

/** One cause of a 422: [reason, field, message]. */
export type Cause = [reason: string, field: string, message: string];

/** The parts of an answer a 422 is compared by. */
export interface Answered {
  status: number;
  reason: unknown;
  message: unknown;
  details: unknown;
}

export function answered(answer: RawAnswer): Answered {
  return { status: answer.status, reason: answer.body['reason'], message: answer.body['message'], details: answer.body['details'] };
}

/** kube-apiserver's 422 for the object `name` of `kind` in `group`, with these causes in this order. */
export function invalidAnswer(group: string, kind: string, name: string, causes: readonly Cause[]): Answered {
  const listed = causes.map(([, field, message]) => `${field}: ${message}`);
  return {
    status: 422,
    reason: 'Invalid',
    message: `${kind}.${group} "${name}" is invalid: ${listed.length === 1 ? String(listed[0]) : `[${listed.join(', ')}]`}`,
    details: { name, group, kind, causes: causes.map(([reason, field, message]) => ({ reason, message, field })) },
  };
}
