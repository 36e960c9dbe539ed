// Request options are asked of client-node once while they cannot change (everything inline in the KubeConfig), and
// for every request when they can (auth providers, exec plugins, custom authenticators, files), or after a switch of
// the current context.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeConfig, type User } from '@kubernetes/client-node';
import { Credentials } from '../../src/kube/credentials.js';

function config(users: User[], current = users[0]?.name ?? ''): { kubeConfig: KubeConfig; asked: () => number } {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:6443', caData: Buffer.from('not a real CA').toString('base64') }],
    users,
    contexts: users.map((user) => ({ name: user.name, cluster: 'c', user: user.name })),
    currentContext: current,
  });
  let calls = 0;
  const original = kubeConfig.applyToHTTPSOptions.bind(kubeConfig);
  kubeConfig.applyToHTTPSOptions = async (options) => {
    calls++;
    await original(options);
  };
  return { kubeConfig, asked: () => calls };
}

const authorization = async (credentials: Credentials): Promise<unknown> => ((await credentials.options()).headers as Record<string, unknown> | undefined)?.['Authorization'];

test('an inline token and CA are asked of the KubeConfig once, and sent with every request', async () => {
  const { kubeConfig, asked } = config([{ name: 'u', token: 'abc' }]);
  const credentials = new Credentials(kubeConfig);
  for (let i = 0; i < 3; i++) assert.equal(await authorization(credentials), 'Bearer abc');
  assert.equal(asked(), 1);
  assert.ok((await credentials.options()).ca !== undefined, 'the CA is given');
});

test('a custom authenticator is asked for every request: a token it rotates is used at once', async () => {
  const { kubeConfig, asked } = config([{ name: 'u' }]);
  let issued = 0;
  kubeConfig.addAuthenticator({
    isAuthProvider: () => true,
    applyAuthentication: async (_user, options) => {
      issued++;
      options.headers = { ...options.headers, Authorization: `Bearer t${issued}` };
    },
  });
  const credentials = new Credentials(kubeConfig);
  assert.equal(await authorization(credentials), 'Bearer t1');
  assert.equal(await authorization(credentials), 'Bearer t2');
  assert.equal(asked(), 2);
});

test('auth providers, exec plugins and files are asked for every request', async () => {
  const cases: User[] = [
    { name: 'provider', authProvider: { name: 'tokenFile', config: { tokenFile: '/dev/null' } } },
    { name: 'exec', exec: { command: 'false', apiVersion: 'client.authentication.k8s.io/v1' } } as unknown as User,
    { name: 'cert-file', certFile: '/dev/null', keyFile: '/dev/null' },
  ];
  for (const user of cases) {
    const { kubeConfig, asked } = config([user]);
    // Only how often client-node is asked matters here; what the provider gives (or fails with) is its own.
    kubeConfig.applyToHTTPSOptions = (() => {
      let calls = 0;
      const counted = async (): Promise<void> => void calls++;
      Object.defineProperty(counted, 'calls', { get: () => calls });
      return counted;
    })();
    const credentials = new Credentials(kubeConfig);
    await credentials.options();
    await credentials.options();
    assert.equal((kubeConfig.applyToHTTPSOptions as unknown as { calls: number }).calls, 2, user.name);
    assert.equal(asked(), 0);
  }
});

test('switching the current context asks again and uses the new user', async () => {
  const { kubeConfig, asked } = config([
    { name: 'a', token: 'ta' },
    { name: 'b', token: 'tb' },
  ]);
  const credentials = new Credentials(kubeConfig);
  assert.equal(await authorization(credentials), 'Bearer ta');
  kubeConfig.setCurrentContext('b');
  assert.equal(await authorization(credentials), 'Bearer tb');
  assert.equal(await authorization(credentials), 'Bearer tb');
  assert.equal(asked(), 2);
});
