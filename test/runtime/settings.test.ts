import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { CrdDefinition } from '../../src/definition/types.js';
import { RuntimeError } from '../../src/errors.js';
import {
  BUILTIN_SETTINGS,
  SettingsError,
  resolveAllSettings,
  resolveSettings,
  type ResolvedSettings,
  type SettingsOptions,
} from '../../src/runtime/settings.js';

function crd(name: string, settings: CrdDefinition['settings'] = {}): CrdDefinition {
  return {
    name,
    description: undefined,
    apiTypes: { group: 'example.io', version: 'v1', kind: 'Website', plural: `${name}s`, scope: 'Namespaced', builtIn: false },
    crdFile: undefined,
    enabled: true,
    mode: undefined,
    namespace: undefined,
    labelSelector: undefined,
    fieldSelector: undefined,
    settings,
    dependsOn: [],
    operatorBox: {
      default: true,
      finalizers: [],
      onCreate: {},
      onReconcile: {},
      onDelete: {},
      hooks: undefined,
      constructor: undefined,
      status: { conditions: false, fields: [] },
    },
    finalizers: [],
    file: '/defs/katalog.yaml',
  };
}

/** Flattens resolved settings to `value@source` strings so tables stay readable. */
function flat(settings: ResolvedSettings): Record<string, string> {
  return Object.fromEntries(Object.entries(settings).map(([k, v]) => [k, `${String(v.value)}@${v.source}`]));
}

function problemsOf(fn: () => unknown): SettingsError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof SettingsError, `expected SettingsError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a SettingsError');
}

describe('precedence', () => {
  const everything: SettingsOptions = {
    crds: { website: { workers: 8 } },
    defaults: { workers: 4, resync: '1m', maxDepth: 50 },
    env: { KATALOG_WORKERS: '3', KATALOG_RESYNC: '2m', KATALOG_QUEUE_DEPTH: '60', KATALOG_FAILURE_THRESHOLD: '7' },
  };
  const cases: Array<[string, CrdDefinition, SettingsOptions, Record<string, string>]> = [
    ['built-in defaults', crd('website'), {}, { workers: '2@default', resync: '600000@default', maxDepth: '1000@default', failureThreshold: '5@default' }],
    [
      'env over default',
      crd('website'),
      { env: everything.env ?? {} },
      { workers: '3@env', resync: '120000@env', maxDepth: '60@env', failureThreshold: '7@env' },
    ],
    [
      'options over env',
      crd('website'),
      { defaults: everything.defaults ?? {}, env: everything.env ?? {} },
      { workers: '4@options', resync: '60000@options', maxDepth: '50@options', failureThreshold: '7@env' },
    ],
    [
      'definition over options',
      crd('website', { workers: { value: 6, source: 'definition' }, resync: { value: 30_000, source: 'definition' } }),
      { defaults: everything.defaults ?? {}, env: everything.env ?? {} },
      { workers: '6@definition', resync: '30000@definition', maxDepth: '50@options', failureThreshold: '7@env' },
    ],
    [
      'komposer source is kept',
      crd('website', { workers: { value: 5, source: 'komposer' }, failureThreshold: { value: 2, source: 'definition' } }),
      {},
      { workers: '5@komposer', resync: '600000@default', maxDepth: '1000@default', failureThreshold: '2@definition' },
    ],
    [
      'override over everything',
      crd('website', { workers: { value: 5, source: 'komposer' } }),
      everything,
      { workers: '8@override', resync: '60000@options', maxDepth: '50@options', failureThreshold: '7@env' },
    ],
    [
      'overrides of another CRD do not apply',
      crd('database'),
      { crds: { website: { workers: 8 } } },
      { workers: '2@default', resync: '600000@default', maxDepth: '1000@default', failureThreshold: '5@default' },
    ],
    [
      'empty env values count as unset',
      crd('website'),
      { env: { KATALOG_WORKERS: '', KATALOG_RESYNC: '  ' } },
      { workers: '2@default', resync: '600000@default', maxDepth: '1000@default', failureThreshold: '5@default' },
    ],
    [
      'resync as milliseconds, as a duration, and zero',
      crd('website'),
      { crds: { website: { resync: 1500 } }, defaults: { resync: '1m30s' }, env: { KATALOG_RESYNC: '0' } },
      { workers: '2@default', resync: '1500@override', maxDepth: '1000@default', failureThreshold: '5@default' },
    ],
  ];
  for (const [label, definition, options, expected] of cases) {
    test(label, () => {
      assert.deepEqual(flat(resolveSettings(definition, options)), expected);
    });
  }

  test('only the env object given is read, never process.env', () => {
    process.env['KATALOG_WORKERS'] = '9';
    try {
      assert.deepEqual(resolveSettings(crd('website'), {}).workers, { value: 2, source: 'default' });
    } finally {
      delete process.env['KATALOG_WORKERS'];
    }
  });

  test('results are frozen value-with-source objects', () => {
    const settings = resolveSettings(crd('website'), {});
    assert.equal(JSON.stringify(settings.workers), '{"value":2,"source":"default"}');
    assert.ok(Object.isFrozen(settings) && Object.isFrozen(settings.resync));
    assert.deepEqual(BUILTIN_SETTINGS, { workers: 2, resync: 600_000, maxDepth: 1000, failureThreshold: 5 });
  });
});

describe('validation', () => {
  const cases: Array<[string, CrdDefinition, SettingsOptions, string]> = [
    ['zero workers in an override', crd('website'), { crds: { website: { workers: 0 } } }, 'website: workers from override (options.crds.website.workers) must be an integer of at least 1, got 0'],
    ['fractional workers', crd('website'), { defaults: { workers: 1.5 } }, 'website: workers from options (options.defaults.workers) must be an integer of at least 1, got 1.5'],
    ['workers as text in code', crd('website'), { defaults: { workers: '4' as unknown as number } }, 'must be an integer of at least 1, got "4"'],
    ['bad duration', crd('website'), { crds: { website: { resync: '10 minutes' } } }, 'website: resync from override (options.crds.website.resync) must be a duration such as "30s", "5m" or "1h30m", got "10 minutes"'],
    ['negative resync', crd('website'), { defaults: { resync: -1 } }, 'resync from options (options.defaults.resync) must be a non-negative number of milliseconds, got -1'],
    ['resync longer than a timer can wait', crd('website'), { defaults: { resync: '1000h' } }, 'must be at most 596h31m23.647s, got "1000h"'],
    ['env count not a number', crd('website'), { env: { KATALOG_QUEUE_DEPTH: 'lots' } }, 'website: maxDepth from env (env KATALOG_QUEUE_DEPTH) must be an integer of at least 1, got "lots"'],
    ['env resync without a unit', crd('website'), { env: { KATALOG_RESYNC: '30' } }, 'resync from env (env KATALOG_RESYNC) must be a duration with a unit such as "30s" or "5m", got "30"'],
    ['env threshold zero', crd('website'), { env: { KATALOG_FAILURE_THRESHOLD: '0' } }, 'failureThreshold from env (env KATALOG_FAILURE_THRESHOLD) must be an integer of at least 1, got "0"'],
    ['invalid definition value', crd('website', { maxDepth: { value: 0, source: 'komposer' } }), {}, 'website: maxDepth from komposer (CRD website in /defs/katalog.yaml) must be an integer of at least 1, got 0'],
    ['unknown key with a hint', crd('website'), { crds: { website: { queueDepth: 5 } as never } }, 'website: unknown setting "queueDepth" in options.crds.website (did you mean maxDepth?)'],
    ['unknown key', crd('website'), { defaults: { speed: 5 } as never }, 'unknown setting "speed" in options.defaults (known: workers, resync, maxDepth, failureThreshold)'],
  ];
  for (const [label, definition, options, message] of cases) {
    test(label, () => {
      const error = problemsOf(() => resolveSettings(definition, options));
      assert.equal(error.problems.length, 1, error.message);
      assert.ok(error.message.includes(message), `${error.message}\n  does not include\n${message}`);
    });
  }

  test('a hidden invalid value is still an error', () => {
    const error = problemsOf(() => resolveSettings(crd('website'), { crds: { website: { workers: 3 } }, env: { KATALOG_WORKERS: 'x' } }));
    assert.equal(error.problems[0]?.source, 'env');
  });

  test('the error is a RuntimeError with a stable code and every problem', () => {
    const error = problemsOf(() => resolveSettings(crd('website'), { crds: { website: { workers: 0, maxDepth: -3 } }, defaults: { resync: 'x' } }));
    assert.ok(error instanceof RuntimeError);
    assert.equal(error.code, 'E_SETTINGS');
    assert.deepEqual(
      error.problems.map((p) => `${p.setting}@${p.source}`),
      ['resync@options', 'workers@override', 'maxDepth@override'],
    );
    assert.match(error.message, /^invalid settings: 3 problems\n {2}- /);
  });
});

describe('resolveAllSettings', () => {
  test('resolves every CRD in order', () => {
    const all = resolveAllSettings([crd('website'), crd('database', { workers: { value: 1, source: 'definition' } })], {
      crds: { website: { workers: 8 } },
    });
    assert.deepEqual([...all.keys()], ['website', 'database']);
    assert.equal(all.get('website')?.workers.value, 8);
    assert.deepEqual(all.get('database')?.workers, { value: 1, source: 'definition' });
  });

  test('collects the problems of all CRDs and reports shared sources once', () => {
    const error = problemsOf(() =>
      resolveAllSettings([crd('website'), crd('database')], {
        crds: { website: { workers: 0 }, database: { resync: 'soon' }, webiste: { workers: 2 } },
        env: { KATALOG_WORKERS: 'two' },
      }),
    );
    assert.deepEqual(
      error.problems.map((p) => `${String(p.crd)}:${p.setting}@${p.source}`),
      ['undefined:workers@env', 'website:workers@override', 'database:resync@override', 'webiste:(settings)@override'],
    );
    assert.ok(error.message.includes('options.crds names CRD "webiste", which is not in the definition (known: website, database)'));
    assert.ok(error.message.includes('\n  - workers from env (env KATALOG_WORKERS) must be an integer of at least 1, got "two"'));
  });

  test('an override with no CRDs at all names the CRD', () => {
    const error = problemsOf(() => resolveAllSettings([], { crds: { ghost: {} } }));
    assert.ok(error.message.includes('"ghost", which is not in the definition (known: none)'));
  });
});
