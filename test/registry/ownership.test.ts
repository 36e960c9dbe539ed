import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  childrenSelector,
  collectedWithOwner,
  isOwnedBy,
  ownerLabelValue,
  ownerOf,
  parentKeyOf,
  stampOwnership,
} from '../../src/registry/ownership.js';

const parent = { apiVersion: 'example.io/v1', kind: 'Website', metadata: { name: 'blog', namespace: 'web', uid: 'uid-1' } };

describe('ownership', () => {
  test('a child in the parent namespace gets labels and a controller owner reference', () => {
    const owner = ownerOf('website', parent);
    const child = stampOwnership({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'web', labels: { mine: 'yes' } } }, owner);
    assert.deepEqual(child.metadata?.labels, {
      mine: 'yes',
      'app.kubernetes.io/managed-by': 'katalog',
      'katalog.dev/crd': 'website',
      'katalog.dev/owner': 'website.web.blog',
    });
    assert.deepEqual(child.metadata?.ownerReferences, [
      { apiVersion: 'example.io/v1', kind: 'Website', name: 'blog', uid: 'uid-1', controller: true, blockOwnerDeletion: true },
    ]);
    assert.equal(child.metadata?.annotations, undefined);
    assert.equal(isOwnedBy(child, owner), true);
    assert.equal(collectedWithOwner(child, owner), true);
  });

  test('a cluster-scoped or cross-namespace child of a namespaced parent is owned by label only', () => {
    const owner = ownerOf('website', parent);
    const namespace = stampOwnership({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'blog-ns' } }, owner);
    const elsewhere = stampOwnership({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'other' } }, owner);
    for (const child of [namespace, elsewhere]) {
      assert.equal(child.metadata?.ownerReferences, undefined);
      assert.equal(isOwnedBy(child, owner), true);
      assert.equal(collectedWithOwner(child, owner), false);
    }
  });

  test('a cluster-scoped parent may own children anywhere', () => {
    const owner = ownerOf('tenant', { apiVersion: 'example.io/v1', kind: 'Tenant', metadata: { name: 'acme', uid: 'uid-2' } });
    assert.equal(owner.value, 'tenant.acme');
    const child = stampOwnership({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'acme' } }, owner);
    assert.equal(child.metadata?.ownerReferences?.[0]?.uid, 'uid-2');
  });

  test('long owner values are shortened with a hash and kept whole in an annotation', () => {
    const name = 'a'.repeat(70);
    const owner = ownerOf('website', { ...parent, metadata: { ...parent.metadata, name } });
    assert.equal(owner.value, `website.web.${name}`);
    assert.equal(owner.label.length, 63);
    assert.match(owner.label, /^website\.web\.a+-[0-9a-f]{10}$/);
    assert.equal(ownerLabelValue(owner.value), owner.label, 'deterministic');
    assert.notEqual(ownerLabelValue(`website.web.${'a'.repeat(69)}b`), owner.label, 'distinct values stay distinct');
    const child = stampOwnership({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'web' } }, owner);
    assert.equal(child.metadata?.annotations?.['katalog.dev/owner'], owner.value);
    assert.equal(parentKeyOf(child, 'website', true), `web/${name}`);
  });

  test('a shortened value never ends in a separator before the hash', () => {
    const value = `website.web.${'a'.repeat(39)}.${'b'.repeat(30)}`;
    const label = ownerLabelValue(value);
    assert.match(label, /[A-Za-z0-9]-[0-9a-f]{10}$/);
  });

  test('parentKeyOf maps a child back to its parent key', () => {
    const child = { metadata: { labels: { 'katalog.dev/crd': 'website', 'katalog.dev/owner': 'website.web.my.blog' } } };
    assert.equal(parentKeyOf(child, 'website', true), 'web/my.blog');
    assert.equal(parentKeyOf({ metadata: { labels: { 'katalog.dev/crd': 'tenant', 'katalog.dev/owner': 'tenant.acme' } } }, 'tenant', false), 'acme');
    assert.equal(parentKeyOf(child, 'other', true), undefined, 'another CRD');
    assert.equal(parentKeyOf({ metadata: { labels: { 'katalog.dev/crd': 'website', 'katalog.dev/owner': 'website.bad' } } }, 'website', true), undefined);
    assert.equal(parentKeyOf({ metadata: {} }, 'website', true), undefined);
  });

  test('childrenSelector selects the children of every CRD named, sorted and without repeats', () => {
    assert.equal(childrenSelector(['website']), 'app.kubernetes.io/managed-by=katalog,katalog.dev/crd in (website)');
    assert.equal(childrenSelector(['website', 'database', 'website']), 'app.kubernetes.io/managed-by=katalog,katalog.dev/crd in (database,website)');
    assert.equal(childrenSelector([]), 'app.kubernetes.io/managed-by=katalog,katalog.dev/crd', 'no names: every child of katalog');
  });
});
