// A label selector written as text (a Scale's status.selector), as apimachinery's LabelSelectorAsSelector().String().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labelSelectorText } from '../../src/testing/selectors/label-selector-text.js';

test('requirements sorted by key, values sorted, every operator in its text form; nothing for an empty selector', () => {
  assert.equal(
    labelSelectorText({
      matchLabels: { tier: 'web', app: 'shop' },
      matchExpressions: [
        { key: 'zone', operator: 'In', values: ['b', 'a', 'b'] },
        { key: 'env', operator: 'NotIn', values: ['prod'] },
        { key: 'canary', operator: 'DoesNotExist' },
        { key: 'beta', operator: 'Exists' },
      ],
    }),
    'app=shop,beta,!canary,env notin (prod),tier=web,zone in (a,b)',
  );
  assert.equal(labelSelectorText({}), '');
  assert.equal(labelSelectorText(undefined), '');
});
