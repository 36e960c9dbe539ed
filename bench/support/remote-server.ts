// The parent side of apiserver-process.ts: start it, talk to it, stop it.
import { fork, type ChildProcess } from 'node:child_process';
import { KubeConfig } from '@kubernetes/client-node';

export interface RemoteServer {
  readonly url: string;
  readonly kubeConfig: KubeConfig;
  call<T>(message: Record<string, unknown>): Promise<T>;
  stop(): Promise<void>;
}

/** Options of the test API server in the child process (a subset of `TestApiServerOptions`, sent as JSON). */
export interface RemoteServerOptions {
  readonly bookmarkIntervalMs?: number;
  /** Requests the log keeps (its 409s are counted from it); the server's default is 10,000. */
  readonly requestLogSize?: number;
}

/**
 * `nodeOptions`: extra Node flags for the server's process (bench/scale: `--expose-gc`, a larger heap). `checkout`:
 * the root of another checkout of katalog whose test API server to run (bench/server-writes' `against=`), default
 * this one.
 */
export async function startRemoteServer(options: RemoteServerOptions = {}, nodeOptions: readonly string[] = [], checkout?: string): Promise<RemoteServer> {
  const child: ChildProcess = fork('bench/support/apiserver-process.ts', [JSON.stringify(options)], {
    execArgv: [...nodeOptions, '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    ...(checkout === undefined ? {} : { cwd: checkout }),
  });
  const pending = new Map<number, (value: unknown) => void>();
  let nextId = 1;
  const url = await new Promise<string>((resolve) => {
    child.on('message', (raw: unknown) => {
      const { id, value } = raw as { id: number; value: unknown };
      if (id === 0) resolve(value as string);
      pending.get(id)?.(value);
      pending.delete(id);
    });
  });
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromClusterAndUser({ name: 'bench', server: url, skipTLSVerify: true }, { name: 'bench' });
  const call = <T>(message: Record<string, unknown>): Promise<T> =>
    new Promise<T>((resolve) => {
      const id = nextId++;
      pending.set(id, (value) => resolve(value as T));
      child.send({ ...message, id });
    });
  return { url, kubeConfig, call, stop: async () => void (await call({ stop: true })) };
}
