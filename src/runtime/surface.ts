/** The shapes of the runtime's public surface that other layers implement or read. */
import type { Hono } from 'hono';

/** Where `runtime.listen()` serves. */
export interface ListenOptions {
  /** Default 8080; 0 picks a free port. */
  readonly port?: number;
  /** Default every interface. */
  readonly hostname?: string;
}

/** A server started by `runtime.listen()`. `close()` ends every connection. */
export interface ServerHandle {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** The HTTP surface of a runtime: the inspection router and a standalone server for it (built by the layer above). */
export interface HttpSurface {
  readonly router: Hono;
  listen(options?: ListenOptions): Promise<ServerHandle>;
}

/** A CRD as `runtime.crds()` reports it. */
export interface CrdStatus {
  readonly name: string;
  readonly state: 'pending' | 'healthy' | 'degraded';
  readonly pendingReason: string | undefined;
  /** The version objects are read at (the internal version once active; the declared one before). */
  readonly version: string;
  readonly resourceCount: number;
  readonly queueDepth: number;
  readonly consecutiveFails: number;
  readonly errorRate: number;
  readonly lastReconcile: Date | null;
}
