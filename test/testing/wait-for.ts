// Polling for conditions that become true asynchronously (watch deliveries, the garbage collector).
export async function waitFor<T>(probe: () => T | undefined | false, what: string, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Parses the Status body of a client-node ApiException (its `body` is the raw text). */
export function statusOf(error: unknown): { code?: number; reason?: string; message?: string; details?: Record<string, unknown>; metadata?: { continue?: string } } {
  const body = (error as { body?: unknown }).body;
  if (typeof body === 'string') return JSON.parse(body) as { code?: number; reason?: string };
  if (typeof body === 'object' && body !== null) return body as { code?: number };
  throw new Error(`not an ApiException with a body: ${String(error)}`);
}

/** Runs `call`, expecting it to fail with an ApiException of HTTP `code`; returns the parsed Status. */
export async function expectStatus(call: () => Promise<unknown>, code: number): Promise<ReturnType<typeof statusOf>> {
  try {
    await call();
  } catch (error) {
    const actual = (error as { code?: unknown }).code;
    if (actual !== code) throw new Error(`expected HTTP ${code}, got ${String(actual)}: ${String(error)}`, { cause: error });
    return statusOf(error);
  }
  throw new Error(`expected HTTP ${code}, but the call succeeded`);
}
