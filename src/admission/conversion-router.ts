/**
 * The conversion webhook router: a plain Hono sub-app (like the admission router) answering ConversionReview
 * (apiextensions.k8s.io/v1) for the CRDs of one loaded definition that declare `conversion` paths or have a
 * TypeScript converter. It reads only the frozen definition and the template evaluator, so it runs without a
 * runtime; mount it with `app.route('/conversion', router)` and point the CRD's `spec.conversion.webhook` at
 * `<base>/convert` (`conversionWebhook()`), served over TLS by the host.
 *
 * - `POST /convert`: every object of the request converted (conversion-rules.ts), in order, or none: the first
 *   failure answers `result: {status: Failure, message}` with no converted objects. The response is a 200 either
 *   way, as kube-apiserver expects.
 * - A body that is not a ConversionReview v1 is a 400 JSON error; any other path a JSON 404; another method a 405.
 * - Nothing of an object is logged or echoed: `onConversion` hears the kind, versions, count and outcome.
 * - With `metrics`, every answered review is counted by kind and result, with its objects and its conversion time
 *   (conversion-metrics.ts).
 */
import { Hono } from 'hono';
import type { Definition } from '../definition/index.js';
import { compileConversionRules, convertObject, ConversionFailure, type VersionConverter } from './conversion-rules.js';
import { conversionReviewOf, readConversionReview, type ConversionResponse } from './conversion-review.js';
import { createConversionMetrics, type ConversionMetricsOptions } from './conversion-metrics.js';
import type { Clock } from '../util/clock.js';
import { errorBody, finishWebhookRoutes, json, readJsonBody } from './webhook-http.js';

export interface ConversionRouterOptions {
  /**
   * Converters in code, by CRD name, for version pairs the CRD declares no path for (or for a CRD without a
   * `conversion` block). A declared path wins over the converter.
   */
  readonly converters?: Readonly<Record<string, VersionConverter>>;
  /** Told about an unexpected error while answering (the caller gets a 500 JSON body without its text). */
  readonly onError?: (error: Error, request: { readonly method: string; readonly path: string }) => void;
  /** Told about every answered review; never the objects or the failure's message. */
  readonly onConversion?: (conversion: ConversionOutcome) => void;
  /**
   * Registers `conversion_webhook_reviews_total`, `conversion_webhook_objects_total` and
   * `conversion_webhook_duration_seconds` on this registry (docs/health-and-metrics.md); default: no metrics.
   */
  readonly metrics?: ConversionMetricsOptions;
  /**
   * The time the paths' spec templates read (`timeAgo`, `isExpired`, `nextCron`...). The same type as
   * createRuntime's `clock`; default the system clock.
   */
  readonly clock?: Clock;
}

export interface ConversionOutcome {
  /** The kinds of the request's objects (usually one). */
  readonly kinds: readonly string[];
  readonly desiredAPIVersion: string;
  readonly objects: number;
  readonly succeeded: boolean;
}

/** The path, relative to the mount point. */
export const CONVERSION_PATH = '/convert';

/**
 * Builds the conversion router for `definition`. Compiles every path's templates now (a TemplateError names the
 * path) and checks the converters (a KatalogError `E_CONFIG` for a converter of no CRD, or paths two entries of
 * one kind both declare), before anything is served.
 */
export function createConversionRouter(definition: Definition, options: ConversionRouterOptions = {}): Hono {
  const { clock } = options;
  const rules = compileConversionRules(definition, options.converters, clock === undefined ? undefined : (): number => clock.now());
  const metrics = options.metrics === undefined ? undefined : createConversionMetrics(options.metrics);
  const app = new Hono();

  app.post(CONVERSION_PATH, async (c) => {
    const read = await readJsonBody(c);
    if (read instanceof Response) return read;
    const request = readConversionReview(read.body);
    if (typeof request === 'string') return json(c, 400, errorBody(400, 'bad_request', `not a ConversionReview: ${request}`));
    let response: ConversionResponse;
    const started = performance.now();
    try {
      const convertedObjects: Record<string, unknown>[] = [];
      for (const object of request.objects) convertedObjects.push(await convertObject(rules, object, request.desiredAPIVersion));
      response = { uid: request.uid, convertedObjects, result: { status: 'Success' } };
    } catch (error) {
      if (!(error instanceof ConversionFailure)) throw error;
      response = { uid: request.uid, convertedObjects: [], result: { status: 'Failure', message: error.message } };
    }
    const kinds = [...new Set(request.objects.map((object) => String(object['kind'])))];
    metrics?.reviewed(kinds.join(','), response.result.status === 'Success' ? 'success' : 'failure', request.objects.length, (performance.now() - started) / 1000);
    options.onConversion?.({ kinds, desiredAPIVersion: request.desiredAPIVersion, objects: request.objects.length, succeeded: response.result.status === 'Success' });
    return json(c, 200, conversionReviewOf(response));
  });
  finishWebhookRoutes(app, [CONVERSION_PATH], 'conversion', options.onError);
  return app;
}
