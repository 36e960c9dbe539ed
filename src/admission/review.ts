/**
 * The AdmissionReview v1 wire shapes (admission.k8s.io/v1) the router reads and writes, and the reading of a
 * request body with a clear error for what is missing.
 */

export const ADMISSION_API_VERSION = 'admission.k8s.io/v1';

export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

export interface AdmissionRequest {
  readonly uid: string;
  readonly kind: { readonly group: string; readonly version: string; readonly kind: string };
  readonly resource: GroupVersionResource;
  readonly subResource?: string;
  readonly name?: string;
  readonly namespace?: string;
  readonly operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  readonly object?: Record<string, unknown> | null;
  readonly oldObject?: Record<string, unknown> | null;
  readonly dryRun?: boolean;
}

export interface AdmissionStatus {
  readonly code: number;
  readonly message: string;
  readonly reason?: string;
  readonly details?: { readonly causes: readonly { readonly reason: string; readonly field: string; readonly message: string }[] };
}

export interface AdmissionResponse {
  readonly uid: string;
  readonly allowed: boolean;
  readonly status?: AdmissionStatus;
  readonly patchType?: 'JSONPatch';
  /** base64 of the JSON patch. */
  readonly patch?: string;
  readonly warnings?: readonly string[];
}

export interface AdmissionReview {
  readonly apiVersion: typeof ADMISSION_API_VERSION;
  readonly kind: 'AdmissionReview';
  readonly request?: AdmissionRequest;
  readonly response?: AdmissionResponse;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const OPERATIONS = new Set(['CREATE', 'UPDATE', 'DELETE', 'CONNECT']);

/** The request of an AdmissionReview body, or a message saying what is wrong with it. */
export function readReview(body: unknown): AdmissionRequest | string {
  if (!isMap(body)) return 'the body is not a JSON object';
  if (body.apiVersion !== ADMISSION_API_VERSION || body.kind !== 'AdmissionReview') {
    return `expected apiVersion ${ADMISSION_API_VERSION} and kind AdmissionReview, got ${JSON.stringify(body.apiVersion)} ${JSON.stringify(body.kind)}`;
  }
  const request = body.request;
  if (!isMap(request)) return 'request is missing';
  if (typeof request.uid !== 'string' || request.uid === '') return 'request.uid is missing';
  if (typeof request.operation !== 'string' || !OPERATIONS.has(request.operation)) return 'request.operation must be CREATE, UPDATE, DELETE or CONNECT';
  const resource = request.resource;
  if (!isMap(resource) || typeof resource.resource !== 'string' || typeof resource.version !== 'string') return 'request.resource must have group, version and resource';
  return request as unknown as AdmissionRequest;
}

/** The answer document for `response`. */
export function reviewOf(response: AdmissionResponse): AdmissionReview {
  return { apiVersion: ADMISSION_API_VERSION, kind: 'AdmissionReview', response };
}
