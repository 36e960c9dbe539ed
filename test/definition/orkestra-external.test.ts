// External calls in the definition: Orkestra's `external:` blocks (operatorBox, hooks, preReconcile, gates) and
// katalog.dev/v1's normalise into one model; what katalog does not make is refused by name; bad calls are
// errors at file:line:column; a normalised definition writes back to input that loads the same.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/load.js';
import { definitionToInput } from '../../src/definition/serialize.js';
import { loadProblems } from '../support/definition-problems.js';

const problems = loadProblems;

const TYPES = 'apiTypes: { group: demo.orkestra.io, version: v1alpha1, kind: Website, plural: websites }';

function doc(apiVersion: string, box: string): string {
  return `apiVersion: ${apiVersion}
kind: Katalog
metadata: { name: w }
spec:
  crds:
    website:
      ${TYPES}
      operatorBox:
${box}`;
}
const orkestra = (box: string): string => doc('orkestra.orkspace.io/v1', box);
const katalog = (box: string): string => doc('katalog.dev/v1', box);

describe('external calls in the definition', () => {
  test('Orkestra: box and hooks calls join (or → anyOf, method upper-cased, protocol http and query dropped); gates keep theirs', () => {
    const definition = parseDefinition(
      orkestra(`        reconciler:
          hooks:
            function: SiteHooks
            external:
              - name: flags
                url: "{{ .spec.flagUrl }}/{{ .metadata.name }}"
                continueOnError: true
                or:
                  - field: spec.flags
                    equals: "on"
        external:
          - name: health
            protocol: http
            url: "http://svc/health"
            method: post
            query: unused
            timeout: 2s
            expectedStatus: 204
            cacheFor: 30s
            headers: { X-Team: "{{ .spec.team }}" }
            auth:
              secretRef: { name: api, namespace: ops, key: token }
              header: X-Api-Key
        preReconcile:
          external:
            - name: quota
              url: "http://quota/{{ .metadata.namespace }}"
          reconcileGate:
            failPolicy: closed
            external:
              - name: window
                url: "http://window"
            when:
              - field: external.window.body
                equals: open
`),
    );
    const box = definition.crds.get('website')?.operatorBox;
    assert.deepEqual(
      box?.external?.map((call) => [call.name, call.method, call.timeoutMs, call.expectedStatus, call.cacheForMs, call.continueOnError, call.anyOf.length]),
      [
        ['health', 'POST', 2000, 204, 30_000, false, 0],
        ['flags', 'GET', 5000, undefined, undefined, true, 1],
      ],
    );
    assert.deepEqual(box?.external?.[0]?.auth, { secretRef: { name: 'api', namespace: 'ops', key: 'token' }, header: 'X-Api-Key' });
    assert.deepEqual(box?.external?.[0]?.headers, { 'X-Team': '{{ .spec.team }}' });
    assert.deepEqual(box?.preReconcile?.external?.map((call) => call.name), ['quota']);
    assert.deepEqual(box?.preReconcile?.reconcileGate?.external?.map((call) => call.name), ['window']);
    assert.equal(box?.preReconcile?.reconcileGate?.failPolicy, 'closed');
    // Written back as katalog.dev/v1 input, it loads the same.
    const again = parseDefinition(JSON.stringify(definitionToInput(definition)));
    assert.deepEqual(again.crds.get('website')?.operatorBox.external, box?.external);
    assert.deepEqual(again.crds.get('website')?.operatorBox.preReconcile, box?.preReconcile);
  });

  test('refused by name: other protocols, token, auth.env (a constructor\'s calls load)', () => {
    const found = problems(
      orkestra(`        reconciler:
          default: false
          constructor:
            function: NewSite
            external: [{ name: c, url: "http://c" }]
        external:
          - { name: cache, protocol: nats, url: "nats://nats:4222", query: "jobs" }
          - { name: tok, url: "http://t", token: "$API_TOKEN" }
          - { name: env, url: "http://e", auth: { env: API_TOKEN } }
`),
    );
    const refused = found.filter((p) => p.code === 'orkestra-unsupported').map((p) => `${p.line}:${p.message}`);
    for (const [line, feature] of [
      [15, 'external protocol nats'],
      [16, 'external token'],
      [17, 'auth.env'],
    ] as const) {
      assert.ok(refused.some((m) => m.startsWith(`${line}:`) && m.includes(feature) && m.includes('docs/orkestra-compatibility.md#')), `${feature}: ${refused.join(' | ')}`);
    }
    assert.ok(!found.some((p) => p.code === 'unknown-field' || p.code === 'missing-field'), JSON.stringify(found));
    assert.ok(!found.some((p) => p.line === 13), JSON.stringify(found));
    assert.ok(found.some((p) => p.line === 14 && p.message.includes('a constructor (default: false) does not use')), JSON.stringify(found));
  });

  test('katalog.dev/v1: a bad scheme, a repeated result name, a bad duration or header name are errors at their place', () => {
    const found = problems(
      katalog(`        external:
          - { name: a, url: "ftp://files" }
          - { name: a, url: "http://x", timeout: soon }
          - { name: b, url: "http://x", headers: { "bad header": v } }
        preReconcile:
          external: [{ name: s, url: "http://s" }]
          enqueueGate:
            external: [{ name: s, url: "http://again" }]
`),
    );
    const messages = found.map((p) => `${p.line}:${p.column}:${p.message}`);
    assert.ok(messages.some((m) => m.startsWith('10:') && m.includes('must start with http:// or https://')), messages.join('\n'));
    assert.ok(messages.some((m) => m.startsWith('11:') && m.includes('a call named "a" is already declared')), messages.join('\n'));
    assert.ok(messages.some((m) => m.startsWith('11:') && m.includes('"soon" is not a positive duration')), messages.join('\n'));
    assert.ok(messages.some((m) => m.startsWith('12:') && m.includes('"bad header" is not a valid HTTP header name')), messages.join('\n'));
    assert.ok(messages.some((m) => m.startsWith('16:') && m.includes('a call named "s" is already declared')), messages.join('\n'));
  });
});
