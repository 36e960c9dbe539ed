/**
 * `validation.external` / `mutation.external` at admission (docs/orkestra-compatibility.md#admission-external-calls):
 * the calls of one CRD's rules, made by the admission router before the rules with the external calls' client,
 * limits, cache and credentials (operatorbox/external-calls.ts), in declaration order, each templated on the object
 * under admission and the calls before it. Every call runs, `fires.reconcile: false` or not (as Orkestra's
 * `AdmissionExternal`).
 *
 * A webhook must answer within the configuration's `timeoutSeconds` (default 5 s), so the whole list shares one
 * budget (`budgetMs`, default 4,000 ms: the default timeout minus 1 s for the rules and the network): each call's
 * deadline is its own `timeout` or what is left of the budget, whichever is shorter, and a call that finds the
 * budget spent fails without being made.
 *
 * A failed call without `continueOnError` stops the list, as in Orkestra (`pkg/external/runner.go`): the rules see
 * the results so far (the failed call's `.error` set, later calls absent). What then happens is the router's
 * `externalFailure` policy (router.ts). Failures are reported by call name and reason, never the URL, a header or
 * the body.
 */
import type { AdmissionCall } from '../definition/types.js';
import type { TemplateDialect, UserNote } from '../template/index.js';
import { ExternalCallError, ExternalCalls, type ExternalResult, type SecretReader } from '../operatorbox/external-calls.js';
import { ExternalHttpFailure, externalRequest, type ExternalHttpRequest, type ExternalHttpResponse } from '../operatorbox/external-http.js';
import type { ExternalProtocolClient } from '../operatorbox/external-protocol.js';
import type { ProtocolLookup } from '../operatorbox/external-protocols.js';

/** Default budget of one list: the default webhook timeout (5 s) minus a margin of 1 s. */
export const DEFAULT_ADMISSION_CALL_BUDGET_MS = 4000;

export interface AdmissionCallsOptions {
  /** Where the calls are written, for template names (`spec.crds.web.validation.external`). */
  readonly name: string;
  readonly calls: readonly AdmissionCall[];
  readonly dialect?: TemplateDialect | undefined;
  readonly notes?: readonly UserNote[] | undefined;
  /** Reads `auth.secretRef`; required when a call has one (the router checks). */
  readonly readSecret?: SecretReader | undefined;
  readonly now: () => number;
  readonly budgetMs: number;
  /** The HTTP client; default the external calls' own. */
  readonly request?: ((input: ExternalHttpRequest) => Promise<ExternalHttpResponse>) | undefined;
  /** The clients of the calls' stateful protocols; their timeouts are cut to the budget as HTTP's are. */
  readonly protocols?: ProtocolLookup | undefined;
}

/** What one run gives the rules: the results, and the calls that failed (`stopped`: without continueOnError). */
export interface AdmissionCallOutcome {
  readonly external: Readonly<Record<string, ExternalResult>>;
  readonly failed: ReadonlyArray<{ readonly call: string; readonly reason: string; readonly stopped: boolean }>;
}

const NO_SECRETS: SecretReader = () => Promise.reject(new Error('no Secret reader: pass readSecret to createAdmissionRouter'));

export class AdmissionCalls {
  private readonly calls: ExternalCalls;
  private readonly deadlines = new WeakMap<AbortSignal, number>();

  /** Compiles the calls' templates; throws a TemplateError when one does not compile. */
  constructor(private readonly options: AdmissionCallsOptions) {
    const send = options.request ?? externalRequest;
    this.calls = new ExternalCalls({
      name: options.name,
      calls: options.calls,
      dialect: options.dialect,
      notes: options.notes,
      readSecret: options.readSecret ?? NO_SECRETS,
      now: options.now,
      request: (input) => {
        const deadline = this.deadlines.get(input.signal) ?? options.now() + options.budgetMs;
        const left = deadline - options.now();
        if (left <= 0) return Promise.reject(new ExternalHttpFailure(`the admission budget of ${options.budgetMs} ms was spent before this call`));
        return send({ ...input, timeoutMs: Math.min(input.timeoutMs, Math.ceil(left)) });
      },
      protocols: options.protocols === undefined ? undefined : { get: (protocol) => this.budgeted(options.protocols?.get(protocol)) },
    });
  }

  /** `client` with each call's timeout cut to what is left of its request's budget; a spent budget fails the call unmade. */
  private budgeted(client: ExternalProtocolClient | undefined): ExternalProtocolClient | undefined {
    if (client === undefined) return undefined;
    const { now, budgetMs } = this.options;
    return {
      fetch: (request) => {
        const left = (this.deadlines.get(request.signal) ?? now() + budgetMs) - now();
        if (left <= 0) return Promise.resolve({ result: '', raw: {}, error: `the admission budget of ${budgetMs} ms was spent before this call`, called: 'true' });
        return client.fetch({ ...request, timeoutMs: Math.min(request.timeoutMs, Math.ceil(left)) });
      },
    };
  }

  /** The calls that need a Secret reader (`auth.secretRef`), by name. */
  static needingSecrets(calls: readonly AdmissionCall[]): string[] {
    return calls.filter((call) => call.auth !== undefined).map((call) => call.name);
  }

  /** Runs the list for `object` within the budget; never throws for a failed call (see the module comment). */
  async run(object: Record<string, unknown>): Promise<AdmissionCallOutcome> {
    const controller = new AbortController();
    this.deadlines.set(controller.signal, this.options.now() + this.options.budgetMs);
    const failed: Array<{ call: string; reason: string; stopped: boolean }> = [];
    // A backstop for what the per-call deadline does not cover (a Secret read): cancelled a little after the budget.
    const backstop = setTimeout(() => controller.abort(), this.options.budgetMs + 100);
    try {
      const external = await this.calls.run(object, object, controller.signal, {}, (error) => failed.push({ call: error.call, reason: error.reason, stopped: false }));
      return { external, failed };
    } catch (error) {
      if (!(error instanceof ExternalCallError)) throw error;
      failed.push({ call: error.call, reason: error.reason, stopped: true });
      return { external: error.results, failed };
    } finally {
      clearTimeout(backstop);
    }
  }
}
