// The conversion router's metrics registration (src/admission/conversion-metrics.ts): a bad prefix and a second
// router on one registry are E_METRICS errors that say what to change; a prefix tells two routers apart. What the
// metrics count through real HTTP is asserted by test/integration/orkestra-conversion-run.test.ts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { createConversionMetrics, CONVERSION_METRIC_NAMES } from '../../src/admission/conversion-metrics.js';
import { KatalogError } from '../../src/errors.js';

describe('createConversionMetrics', () => {
  test('registers each name once; a second set on the same registry needs another prefix', async () => {
    const registry = new Registry();
    const first = createConversionMetrics({ registry });
    assert.throws(() => createConversionMetrics({ registry }), (error: unknown) => error instanceof KatalogError && error.code === 'E_METRICS' && /already registered.*another prefix/.test(error.message));
    createConversionMetrics({ registry, prefix: 'shop_' }).reviewed('Website', 'failure', 2, 0.002);
    first.reviewed('Website', 'success', 3, 0.001);
    const text = await registry.metrics();
    assert.match(text, new RegExp(`^${CONVERSION_METRIC_NAMES.reviews}\\{kind="Website",result="success"\\} 1$`, 'm'));
    assert.match(text, new RegExp(`^${CONVERSION_METRIC_NAMES.objects}\\{kind="Website",result="success"\\} 3$`, 'm'));
    assert.match(text, new RegExp(`^shop_${CONVERSION_METRIC_NAMES.objects}\\{kind="Website",result="failure"\\} 2$`, 'm'));
    assert.match(text, new RegExp(`^${CONVERSION_METRIC_NAMES.duration}_count\\{kind="Website"\\} 1$`, 'm'));
  });

  test('a prefix that is not a Prometheus name prefix is refused', () => {
    assert.throws(() => createConversionMetrics({ registry: new Registry(), prefix: '9x-' }), (error: unknown) => error instanceof KatalogError && error.code === 'E_METRICS' && /"9x-"/.test(error.message));
  });
});
