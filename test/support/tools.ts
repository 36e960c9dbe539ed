// The external clients the suite runs against katalog/testing, fetched from Debian into the git-ignored .tools/
// (never from PATH, never installed system-wide). Each helper fetches once when missing and, when that fails,
// says why so that the test can skip with the reason.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const KUBECTL = join(ROOT, '.tools', 'kubectl', 'usr', 'bin', 'kubectl');
export const PYTHON_KUBERNETES_PATH = join(ROOT, '.tools', 'python-kubernetes', 'usr', 'lib', 'python3', 'dist-packages');

/** A tool found or fetched (`path`), or the reason it could not be had. */
export interface Tool {
  readonly path?: string;
  readonly reason?: string;
}

function fetchOutput(script: string): string {
  const fetched = spawnSync(join(ROOT, 'scripts', script), { encoding: 'utf8', timeout: 180_000 });
  return (fetched.stderr || fetched.error?.message || 'no output').trim();
}

/** Debian's kubectl from .tools/, fetched by scripts/fetch-kubectl.sh when missing. */
export function kubectlBinary(): Tool {
  if (existsSync(KUBECTL)) return { path: KUBECTL };
  const output = fetchOutput('fetch-kubectl.sh');
  if (existsSync(KUBECTL)) return { path: KUBECTL };
  return { reason: `kubectl could not be fetched (scripts/fetch-kubectl.sh: ${output})` };
}

function pythonImports(): boolean {
  const probe = spawnSync('python3', ['-c', 'import kubernetes.client, kubernetes.watch, kubernetes.config'], {
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: PYTHON_KUBERNETES_PATH },
    timeout: 60_000,
  });
  return probe.status === 0;
}

/** The PYTHONPATH entry of Debian's python3-kubernetes, fetched by scripts/fetch-python-kubernetes.sh when missing. */
export function pythonKubernetes(): Tool {
  if (pythonImports()) return { path: PYTHON_KUBERNETES_PATH };
  const output = fetchOutput('fetch-python-kubernetes.sh');
  if (pythonImports()) return { path: PYTHON_KUBERNETES_PATH };
  return { reason: `the Python Kubernetes client could not be fetched (scripts/fetch-python-kubernetes.sh: ${output})` };
}
