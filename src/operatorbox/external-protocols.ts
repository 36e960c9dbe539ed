/**
 * The protocol clients one runtime (or one admission router) uses for its external calls: the host's
 * (`externalProtocols` option) over the built-ins ({@link BUILT_IN_PROTOCOLS}). A built-in is made the first time
 * a call needs it, so a definition without such calls opens nothing. `close()` closes every client in the set, the
 * host's too, once per owner that stops (a client shared by a runtime and a router is closed by each).
 *
 * {@link checkProtocolClients} finds, before anything starts, a call whose protocol has no client: an error that
 * names the call, the protocol and the option to pass (never at reconcile time).
 */
import { CLIENT_PROTOCOLS, type ExternalCall } from '../definition/external-types.js';
import type { CrdDefinition, Definition } from '../definition/types.js';
import type { ExternalProtocolClient } from './external-protocol.js';
import { redisProtocol } from './protocol-redis.js';
import { postgresProtocol } from './protocol-postgres.js';
import type { Logger } from '../observe/logger.js';

/**
 * The protocols katalog has a client for, each made on first use. The host's `externalProtocols` replace them.
 */
export const BUILT_IN_PROTOCOLS: Readonly<Record<string, () => ExternalProtocolClient>> = Object.freeze({
  redis: () => redisProtocol(),
  postgres: () => postgresProtocol(),
});

/** What the external calls look a protocol's client up in. */
export interface ProtocolLookup {
  get(protocol: string): ExternalProtocolClient | undefined;
}

export class ExternalProtocols implements ProtocolLookup {
  private readonly made = new Map<string, ExternalProtocolClient>();

  private constructor(
    private readonly host: ReadonlyMap<string, ExternalProtocolClient>,
    private readonly builtIns: Readonly<Record<string, () => ExternalProtocolClient>>,
  ) {}

  /**
   * The set for `host` (the option's value) over the built-ins; the problems of the option, each a sentence naming
   * `option` (a protocol katalog never calls, a value without `fetch`).
   */
  static of(
    host: Readonly<Record<string, ExternalProtocolClient>> | undefined,
    option: string,
    builtIns: Readonly<Record<string, () => ExternalProtocolClient>> = BUILT_IN_PROTOCOLS,
  ): { readonly protocols: ExternalProtocols; readonly problems: readonly string[] } {
    const problems: string[] = [];
    const clients = new Map<string, ExternalProtocolClient>();
    for (const [name, client] of Object.entries(host ?? {})) {
      if (!(CLIENT_PROTOCOLS as readonly string[]).includes(name)) {
        problems.push(`${option}.${name}: katalog makes no "${name}" calls (protocols with clients: ${CLIENT_PROTOCOLS.join(', ')})`);
      } else if (typeof client !== 'object' || client === null || typeof client.fetch !== 'function') {
        problems.push(`${option}.${name}: must be an object with a fetch(request) method (ExternalProtocolClient)`);
      } else clients.set(name, client);
    }
    return { protocols: new ExternalProtocols(clients, builtIns), problems };
  }

  /** True when `protocol` has a client (the host's or a built-in). */
  has(protocol: string): boolean {
    return this.host.has(protocol) || Object.hasOwn(this.builtIns, protocol);
  }

  get(protocol: string): ExternalProtocolClient | undefined {
    const hosted = this.host.get(protocol);
    if (hosted !== undefined) return hosted;
    let made = this.made.get(protocol);
    const make = Object.hasOwn(this.builtIns, protocol) ? this.builtIns[protocol] : undefined;
    if (made === undefined && make !== undefined) {
      made = make();
      this.made.set(protocol, made);
    }
    return made;
  }

  /** Closes the clients in use: every built-in made and every host client. Rejects with the first failure, after trying all. */
  async close(): Promise<void> {
    const clients = [...this.made.values(), ...this.host.values()];
    this.made.clear();
    const outcomes = await Promise.allSettled(clients.map((client) => client.close?.() ?? Promise.resolve()));
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  }
}

/** Closes `protocols` for the runtime's stop() (drained: no call is out); a failure is logged, not thrown. */
export async function closeLogged(protocols: ExternalProtocols, logger: Logger): Promise<void> {
  try {
    await protocols.close();
  } catch (error) {
    // Logged and not thrown: stop() must finish stopping everything else; a host client's failure is the host's to handle.
    logger.error('stop(): an external protocol client failed to close', { error: error instanceof Error ? error.message : String(error) });
  }
}

/** Where a CRD's calls are written, with the lists. `admission` only: the lists the admission router makes. */
function callLists(crd: CrdDefinition, which: 'runtime' | 'admission'): Array<readonly [string, readonly ExternalCall[] | undefined]> {
  const at = `spec.crds.${crd.name}`;
  const admission: Array<readonly [string, readonly ExternalCall[] | undefined]> = [
    [`${at}.validation.external`, crd.admission?.validationExternal],
    [`${at}.mutation.external`, crd.admission?.mutationExternal],
  ];
  if (which === 'admission') return admission;
  const box = crd.operatorBox;
  const pre = box.preReconcile;
  return [
    [`${at}.operatorBox.external`, box.external],
    [`${at}.operatorBox.constructor.external`, box.constructor?.external],
    [`${at}.operatorBox.preReconcile.external`, pre?.external],
    [`${at}.operatorBox.preReconcile.enqueueGate.external`, pre?.enqueueGate?.external],
    [`${at}.operatorBox.preReconcile.reconcileGate.external`, pre?.reconcileGate?.external],
    // Reconcile-time validation makes validation.external's calls that fire at reconcile; mutation's are the router's only.
    [`${at}.validation.external`, crd.admission?.validationExternal?.filter((call) => call.atReconcile)],
  ];
}

/**
 * The calls of `definition` whose protocol has no client in `protocols`, one sentence each naming the call (where
 * it is written), the protocol and `option`; [] when every call can be made.
 */
export function missingProtocolClients(definition: Definition, protocols: { has(protocol: string): boolean }, which: 'runtime' | 'admission', option: string): string[] {
  const missing: string[] = [];
  for (const crd of definition.crds.values()) {
    if (!crd.enabled) continue;
    for (const [where, calls] of callLists(crd, which)) {
      for (const call of calls ?? []) {
        if (call.protocol === 'http' || call.protocol === 'prometheus' || protocols.has(call.protocol)) continue;
        missing.push(`${where}: call "${call.name}" uses protocol ${call.protocol}, which katalog has no built-in client for: register one with the ${option}.${call.protocol} option (an ExternalProtocolClient; docs/orkestra-compatibility.md#external-protocol-clients)`);
      }
    }
  }
  return missing;
}
