/**
 * The ConversionReview wire shapes (apiextensions.k8s.io/v1) the conversion router reads and writes, and the
 * reading of a request body with a clear message for what is missing.
 */

export const CONVERSION_API_VERSION = 'apiextensions.k8s.io/v1';

export interface ConversionRequest {
  readonly uid: string;
  /** The whole apiVersion to convert to (`demo.example.com/v1`). */
  readonly desiredAPIVersion: string;
  readonly objects: readonly Record<string, unknown>[];
}

export interface ConversionResult {
  readonly status: 'Success' | 'Failure';
  readonly message?: string;
}

export interface ConversionResponse {
  readonly uid: string;
  /** Every object of the request, converted, in its order; empty on failure. */
  readonly convertedObjects: readonly Record<string, unknown>[];
  readonly result: ConversionResult;
}

export interface ConversionReview {
  readonly apiVersion: typeof CONVERSION_API_VERSION;
  readonly kind: 'ConversionReview';
  readonly request?: ConversionRequest;
  readonly response?: ConversionResponse;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The request of a ConversionReview body, or a message saying what is wrong with it. */
export function readConversionReview(body: unknown): ConversionRequest | string {
  if (!isMap(body)) return 'the body is not a JSON object';
  if (body['apiVersion'] !== CONVERSION_API_VERSION || body['kind'] !== 'ConversionReview') {
    return `expected apiVersion ${CONVERSION_API_VERSION} and kind ConversionReview, got ${JSON.stringify(body['apiVersion'])} ${JSON.stringify(body['kind'])}`;
  }
  const request = body['request'];
  if (!isMap(request)) return 'request is missing';
  if (typeof request['uid'] !== 'string' || request['uid'] === '') return 'request.uid is missing';
  if (typeof request['desiredAPIVersion'] !== 'string' || request['desiredAPIVersion'] === '') return 'request.desiredAPIVersion is missing';
  const objects = request['objects'];
  if (!Array.isArray(objects)) return 'request.objects must be a list';
  const index = objects.findIndex((item) => !isMap(item));
  if (index >= 0) return `request.objects[${index}] is not an object`;
  return request as unknown as ConversionRequest;
}

/** The answer document for `response`. */
export function conversionReviewOf(response: ConversionResponse): ConversionReview {
  return { apiVersion: CONVERSION_API_VERSION, kind: 'ConversionReview', response };
}
