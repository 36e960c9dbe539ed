// The informers behind a CRD's gates keep the managedFields fingerprint only when those gates may read the
// managedFieldsChanged sentinel: declared, used by a gate, or read by a condition.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readsManagedFieldsChanged } from '../../src/operatorbox/managed-fields-sentinel.js';

test('a gate that may read managedFieldsChanged asks for the fingerprint; any other gate, or none, does not', () => {
  assert.equal(readsManagedFieldsChanged(undefined), false);
  assert.equal(readsManagedFieldsChanged({ sentinels: ['generationChanged'], reconcileGate: { sentinels: ['generationChanged'] } }), false);
  assert.equal(readsManagedFieldsChanged({ sentinels: ['managedFieldsChanged'], reconcileGate: { sentinels: ['managedFieldsChanged'] } }), true);
  assert.equal(readsManagedFieldsChanged({ sentinels: ['managedFieldsChanged'] }), true, 'declared only: kept, erring on the safe side');
  assert.equal(readsManagedFieldsChanged({ when: [{ key: '{{ .sentinels.managedFieldsChanged }}', operator: 'Equal', value: 'true' }] }), true, 'read by a condition');
});
