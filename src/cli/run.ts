/**
 * `katalog run <file>`: runs the definition against the current kubeconfig (or, with `--embedded`, an in-process
 * test API server, as `npm start` does), with hooks and constructors from `--code <module>`, and serves the
 * inspection API. The API listens before the runtime starts, so `/health` answers while CRDs activate and `/ready`
 * turns 200 once `start()` has resolved. The first SIGINT or SIGTERM stops everything gracefully (runtime, server,
 * embedded cluster) and the process exits 0; a second one exits at once with 130.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { consoleLogger, createRuntime, type LogLevel, type Runtime, type RuntimeOptions, type ServerHandle } from '../index.js';
import type { TestApiServer } from '../testing/index.js';
import { COMMON_OPTIONS, FILE_OPTIONS, parse, portOf, UsageError } from './args.js';
import { loadOperatorCode } from './code-module.js';
import { EXIT } from './exit-codes.js';
import type { CommandIo } from './io.js';
import { loadOne } from './load.js';

/** How `run` learns about signals and forces an exit; `process` in the real command. */
export interface SignalHost {
  on(signal: 'SIGINT' | 'SIGTERM', listener: (signal: NodeJS.Signals) => void): unknown;
  off(signal: 'SIGINT' | 'SIGTERM', listener: (signal: NodeJS.Signals) => void): unknown;
  exit(code: number): never;
}

const LOG_LEVELS = new Set(['debug', 'info', 'warn', 'error', 'silent']);

function kubeConfigOf(path: string | undefined, context: string | undefined): KubeConfig {
  const config = new KubeConfig();
  if (path === undefined) config.loadFromDefault();
  else config.loadFromFile(path);
  if (context !== undefined) {
    if (config.getContextObject(context) === null) throw new UsageError(`--context: no context "${context}" in the kubeconfig`);
    config.setCurrentContext(context);
  }
  return config;
}

/** Resolves with the first signal; a second one forces the exit. */
function firstSignal(host: SignalHost, io: CommandIo): { signal: Promise<NodeJS.Signals>; release: () => void } {
  let received: NodeJS.Signals | undefined;
  let resolveSignal: (signal: NodeJS.Signals) => void = () => undefined;
  const signal = new Promise<NodeJS.Signals>((resolve) => (resolveSignal = resolve));
  const listener = (name: NodeJS.Signals): void => {
    if (received !== undefined) {
      io.err(`${name} again: exiting without waiting\n`);
      host.exit(EXIT.forced);
    }
    received = name;
    resolveSignal(name);
  };
  host.on('SIGINT', listener);
  host.on('SIGTERM', listener);
  return {
    signal,
    release: () => {
      host.off('SIGINT', listener);
      host.off('SIGTERM', listener);
    },
  };
}

/** Runs every stop, even after one fails; then throws the first failure. */
async function stopInOrder(stops: ReadonlyArray<() => Promise<void> | undefined>): Promise<void> {
  const failures: unknown[] = [];
  for (const stop of stops) {
    try {
      await stop();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
}

export async function runCommand(argv: readonly string[], io: CommandIo, host: SignalHost): Promise<number> {
  const { values, positionals } = parse({
    args: [...argv],
    options: {
      ...COMMON_OPTIONS,
      ...FILE_OPTIONS,
      embedded: { type: 'boolean' },
      code: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      kubeconfig: { type: 'string' },
      context: { type: 'string' },
      'install-crds': { type: 'boolean' },
      'leader-elect': { type: 'boolean' },
      'lease-namespace': { type: 'string', default: 'katalog-system' },
      'lease-name': { type: 'string' },
      'log-level': { type: 'string', default: 'info' },
      'log-format': { type: 'string', default: 'text' },
    },
  });
  const port = portOf(values.port, 8080);
  const level = values['log-level'];
  if (!LOG_LEVELS.has(level)) throw new UsageError(`--log-level: expected debug, info, warn, error or silent, got "${level}"`);
  const format = values['log-format'];
  if (format !== 'text' && format !== 'json') throw new UsageError(`--log-format: expected text or json, got "${format}"`);
  if (values.embedded === true && (values.kubeconfig !== undefined || values.context !== undefined)) {
    throw new UsageError('--embedded runs its own API server: --kubeconfig and --context do not apply');
  }
  const { definition } = await loadOne(positionals, values.katalog, io);
  const code = values.code === undefined ? undefined : await loadOperatorCode(values.code, io.cwd);
  const ownConfig = values.embedded === true ? undefined : kubeConfigOf(values.kubeconfig, values.context);

  const signals = firstSignal(host, io);
  let cluster: TestApiServer | undefined;
  let runtime: Runtime | undefined;
  let server: ServerHandle | undefined;
  try {
    if (values.embedded === true) {
      const { startTestApiServer } = await import('../testing/index.js');
      cluster = await startTestApiServer();
      io.err(`embedded test API server on ${cluster.url} (kubectl --server ${cluster.url} get crds)\n`);
    }
    const kubeConfig = cluster?.kubeConfig ?? ownConfig;
    if (kubeConfig === undefined) throw new Error('no kubeconfig: neither --embedded nor a loaded configuration');
    const options: RuntimeOptions = {
      kubeConfig,
      logger: consoleLogger({ level: level as LogLevel | 'silent', format, write: (line) => io.err(line) }),
      ...(io.env === undefined ? {} : { env: io.env }),
      installCrds: values.embedded === true || values['install-crds'] === true,
      ...(code === undefined ? {} : { hooks: code.hooks, constructors: code.constructors }),
      ...(values['leader-elect'] === true ? { leaderElection: { namespace: values['lease-namespace'], name: values['lease-name'] ?? definition.name } } : {}),
    };
    const started = createRuntime(definition, options);
    runtime = started;
    started.on('activated', ({ crd }) => io.err(`activated ${crd}\n`));
    started.on('deactivated', ({ crd, reason }) => io.err(`deactivated ${crd}: ${reason}\n`));
    server = await started.listen({ port, hostname: values.host });
    io.out(`${server.url}\n`);
    io.err(`inspection API on ${server.url} (/health /ready /metrics /katalog); Ctrl-C stops\n`);
    const starting = started.start().then(() => 'started' as const);
    // When a signal comes first, the runtime is stopped below and the start that was under way settles on its own;
    // its outcome no longer matters (the user asked to stop), so it is observed here and not reported.
    starting.catch(() => undefined);
    const first = await Promise.race([starting, signals.signal]);
    if (first === 'started') {
      io.err(`running ${definition.kind} ${definition.name}: ${definition.order.length} CRD${definition.order.length === 1 ? '' : 's'}\n`);
      io.err(`${await signals.signal}: stopping\n`);
    } else {
      io.err(`${first}: stopping\n`);
    }
  } finally {
    // Signal handlers stay until everything is stopped, so that a second Ctrl-C still forces the exit.
    try {
      await stopInOrder([() => runtime?.stop(), () => server?.close(), () => cluster?.stop()]);
    } finally {
      signals.release();
    }
  }
  io.err('stopped\n');
  return EXIT.ok;
}
