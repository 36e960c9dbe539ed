// The templates' data root (SPEC §4.2): the custom resource's fields, `{}` for a missing metadata, spec or status,
// `.inputs` and `.children`, then what a caller adds; what wins when two of them name the same key.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { templateData } from '../../src/operatorbox/template-data.js';
import { compileTemplate } from '../../src/template/index.js';
import type { KubeObject } from '../../src/kube/resource.js';

const widget = (extra: Record<string, unknown> = {}): KubeObject =>
  JSON.parse(JSON.stringify({ apiVersion: 'example.io/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'default' }, spec: { image: 'nginx' }, ...extra })) as KubeObject;
const render = (text: string, data: Record<string, unknown>): string => String(compileTemplate(text).render(data));

describe('templateData', () => {
  test('the resource fields, `{}` for a missing status, and the children, as templates read them', () => {
    const data = templateData(widget(), { configMaps: { w1: { metadata: { name: 'w1' } } as KubeObject } });
    assert.equal(render('{{ .kind }} {{ .metadata.name }} {{ .spec.image }}', data), 'Widget w1 nginx');
    assert.deepEqual(data['status'], {});
    assert.deepEqual(data['inputs'], {});
    assert.equal(render('{{ .children.configMaps.w1.metadata.name }}', data), 'w1');
  });

  test('top-level fields other than spec and status are there too (a ConfigMap-like resource with data)', () => {
    const data = templateData(widget({ data: { mode: 'fast' }, type: 'Opaque' }), {});
    assert.equal(render('{{ .data.mode }} {{ .type }}', data), 'fast Opaque');
  });

  test('the root keys win over fields of the same name on the resource: .inputs and .children are never the resource’s', () => {
    const data = templateData(widget({ inputs: { leaked: true }, children: { leaked: true } }), { configMaps: {} });
    assert.deepEqual(data['inputs'], {});
    assert.deepEqual(data['children'], { configMaps: {} });
  });

  test('what the caller adds wins over everything else', () => {
    const data = templateData(widget({ data: { mode: 'fast' } }), {}, { inputs: { size: 3 }, data: 'replaced', sentinels: { changed: true } });
    assert.deepEqual(data['inputs'], { size: 3 });
    assert.equal(data['data'], 'replaced');
    assert.deepEqual(data['sentinels'], { changed: true });
  });

  test('the resource itself is not changed, and its metadata and spec are the same objects (no copy per reconcile)', () => {
    const object = widget();
    const before = JSON.stringify(object);
    const data = templateData(object, {});
    assert.equal(JSON.stringify(object), before);
    assert.equal(data['metadata'], object.metadata);
    assert.equal(data['spec'], object['spec']);
  });
});
