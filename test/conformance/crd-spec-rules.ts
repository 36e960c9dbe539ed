// A CustomResourceDefinition's spec outside its schema, as kube-apiserver 1.37.2 checks it on create (POST) and update
// (PUT), and what it fills in; every expectation here was probed on it. Checked: metadata.name is
// `<plural>.<group>`; plural, singular, shortNames, categories and versions' names are DNS-1035 labels, kind and
// listKind too but of mixed case, and listKind is not kind; the group is a DNS subdomain with a dot, and a protected
// one (k8s.io, kubernetes.io) needs the api-approved.kubernetes.io annotation (a URL, or "unapproved…"); version names
// are unique and exactly one version is the storage version; preserveUnknownFields is never true; scale paths,
// printer columns, a deprecation warning, conversion and selectable fields are checked; on update, group, plural and
// scope are immutable, kind once the CRD is established, and a version in status.storedVersions stays. Not checked:
// duplicate shortNames, categories or column names, singular equal to plural, a lower-case or hyphenated kind.
// Filled in: singular (the kind in lower case), listKind (`<kind>List`), conversion `None`, storedVersions, a
// webhook service's port 443; false and zero values (deprecated, priority, preserveUnknownFields) are not stored.
// With one version (or versions of the same schema), subresources, printer columns and selectable fields are named
// `spec.subresources`, `spec.additionalPrinterColumns`, `spec.selectableFields` (the server hoists them), and an
// invalid first version name is also reported at `spec.version`. Each CRD below has one problem, unless the server
// always gives several for it (the order then asserted, as noted).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unique, waitFor, type Backend } from './backend.js';
import { answered, invalidAnswer, type Cause } from './invalid-answer.js';
import { raw, type RawAnswer } from './raw-http.js';
import { DNS1035, DNS1123 } from './kube-messages.js';

const GROUP = 'specrules.conformance.katalog.dev';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const MIXED = `may have mixed case, but should otherwise match: ${DNS1035}`;
const APPROVAL = 'protected groups must have approval annotation "api-approved.kubernetes.io"';
const KEP = 'see https://github.com/kubernetes/enhancements/pull/1111';
const SCHEMA = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } };

interface Names { plural?: string; singular?: string; kind?: string; listKind?: string; shortNames?: string[]; categories?: string[] }
type Version = { name: string; served: boolean; storage: boolean } & Record<string, unknown>;
interface Crd {
  apiVersion: string;
  kind: string;
  metadata: { name: string; annotations?: Record<string, string> };
  spec: { group?: string; scope: string; names: Names; versions: Version[] } & Record<string, unknown>;
}
type Edit = (crd: Crd) => void;
type Causes = Cause[] | ((crd: Crd) => Cause[]);

/** A valid CRD of a new plural in `group` (one version v1 with a small structural schema), then `edit`ed. */
function crdOf(edit: Edit = () => undefined, group = GROUP): { id: string; crd: Crd } {
  const id = unique('x').replace(/-/g, 'x');
  const crd: Crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `rules${id}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: `rules${id}`, singular: `rule${id}`, kind: `Rule${id}`, listKind: `Rule${id}List` },
      versions: [{ name: 'v1', served: true, storage: true, schema: SCHEMA }],
    },
  };
  edit(crd);
  return { id, crd };
}

function first(crd: Crd): Version {
  const version = crd.spec.versions[0];
  assert.ok(version !== undefined);
  return version;
}

/** The CRD's v1 version, and a second one `name` sharing its schema. */
function twoVersions(name: string, storage: [boolean, boolean] = [true, false]): Edit {
  return (crd) => {
    crd.spec.versions = [{ ...first(crd), storage: storage[0] }, { ...first(crd), name, storage: storage[1] }];
  };
}

function invalid(name: string, causes: Cause[]): ReturnType<typeof invalidAnswer> {
  return invalidAnswer('apiextensions.k8s.io', 'CustomResourceDefinition', name, causes);
}

/** Each CRD (valid, then edited) must be refused with exactly these causes, and nothing stored. */
async function refused(backend: Backend, cases: Array<[Edit, Causes] | [Edit, Causes, string]>): Promise<void> {
  for (const [edit, causes, group] of cases) {
    const { crd } = crdOf(edit, group);
    const want = typeof causes === 'function' ? causes(crd) : causes;
    const answer = await raw(backend.kubeConfig, 'POST', CRDS, JSON.stringify(crd));
    assert.deepEqual(answered(answer), invalid(crd.metadata.name, want), JSON.stringify(crd.spec));
    assert.equal((await raw(backend.kubeConfig, 'GET', `${CRDS}/${crd.metadata.name}`)).status, 404, `nothing stored for ${JSON.stringify(crd.spec)}`);
  }
}

/** Each CRD must be created (201); answers what was stored, with the CRD sent. */
async function accepted(backend: Backend, edits: Edit[], group = GROUP): Promise<Array<{ id: string; sent: Crd; stored: Crd & { status: Record<string, unknown> } }>> {
  const out = [];
  for (const edit of edits) {
    const { id, crd } = crdOf(edit, group);
    const answer = await raw(backend.kubeConfig, 'POST', CRDS, JSON.stringify(crd));
    assert.equal(answer.status, 201, `${JSON.stringify(crd.spec)}: ${String(answer.body['message'])}`);
    out.push({ id, sent: crd, stored: answer.body as unknown as Crd & { status: Record<string, unknown> } });
  }
  return out;
}

/** A read, edit and PUT of the stored CRD, again when the server's own controllers wrote it in between (409). */
async function put(backend: Backend, name: string, edit: Edit, attempt = 0): Promise<RawAnswer> {
  const current = (await raw(backend.kubeConfig, 'GET', `${CRDS}/${name}`)).body as unknown as Crd;
  edit(current);
  const answer = await raw(backend.kubeConfig, 'PUT', `${CRDS}/${name}`, JSON.stringify(current));
  return answer.status === 409 && attempt < 5 ? put(backend, name, edit, attempt + 1) : answer;
}

async function condition(backend: Backend, name: string, type: string, status: string): Promise<void> {
  await waitFor(`${name} ${type}=${status}`, async () => {
    const crd = (await raw(backend.kubeConfig, 'GET', `${CRDS}/${name}`)).body as { status?: { conditions?: Array<{ type: string; status: string }> | null } };
    return (crd.status?.conditions ?? []).some((c) => c.type === type && c.status === status);
  });
}

/** The server's dump of its internal versions (schemas hoisted away: null) in a `spec.versions` cause. */
function versionsDump(versions: Array<[name: string, storage: boolean]>): string {
  const fields = (Name: string, Storage: boolean): unknown => ({ Name, Served: true, Storage, Deprecated: false, DeprecationWarning: null, Schema: null, Subresources: null, AdditionalPrinterColumns: null, SelectableFields: null });
  return JSON.stringify(versions.map(([name, storage]) => fields(name, storage)));
}

export function crdSpecRuleSuite(backend: () => Backend): void {
  describe('CRD spec rules', () => {
    test('what the server fills in: singular and listKind from the kind, conversion None, storedVersions; false and zero values are not stored', async () => {
      const [plain, webhook] = await accepted(backend(), [
        (crd) => {
          crd.spec.names = { plural: crd.spec.names.plural ?? '', kind: 'BigRule' };
          Object.assign(first(crd), { deprecated: false, additionalPrinterColumns: [{ name: 'A', type: 'string', jsonPath: '.spec.a', priority: 0 }] });
          crd.spec['preserveUnknownFields'] = false;
        },
        (crd) => {
          crd.spec['conversion'] = { strategy: 'Webhook', webhook: { clientConfig: { service: { name: 's', namespace: 'n' } }, conversionReviewVersions: ['v1beta1', 'v1'] } };
        },
      ]);
      assert.ok(plain !== undefined && webhook !== undefined);
      assert.deepEqual(plain.stored.spec, {
        group: GROUP,
        names: { plural: `rules${plain.id}`, singular: 'bigrule', kind: 'BigRule', listKind: 'BigRuleList' },
        scope: 'Namespaced',
        versions: [{ name: 'v1', served: true, storage: true, schema: SCHEMA, additionalPrinterColumns: [{ name: 'A', type: 'string', jsonPath: '.spec.a' }] }],
        conversion: { strategy: 'None' },
      });
      assert.deepEqual(plain.stored.status['storedVersions'], ['v1']);
      assert.deepEqual(webhook.stored.spec['conversion'], {
        strategy: 'Webhook',
        webhook: { clientConfig: { service: { namespace: 'n', name: 's', port: 443 } }, conversionReviewVersions: ['v1beta1', 'v1'] },
      });
    });

    test('metadata.name must be <plural>.<group>; plural, singular, kind and listKind must be DNS-1035 labels (kinds of mixed case); kind, plural and listKind are required', async () => {
      await refused(backend(), [
        [(crd) => void (crd.metadata.name = `other.${GROUP}`), [['FieldValueInvalid', 'metadata.name', `Invalid value: "other.${GROUP}": must be spec.names.plural+"."+spec.group`]]],
        // An upper-case plural: the name does not match it, or is no DNS subdomain (two causes, in this order).
        [
          (crd) => void (crd.spec.names.plural = 'Rules'),
          (crd) => [
            ['FieldValueInvalid', 'metadata.name', `Invalid value: "${crd.metadata.name}": must be spec.names.plural+"."+spec.group`],
            ['FieldValueInvalid', 'spec.names.plural', `Invalid value: "Rules": ${DNS1035}`],
          ],
        ],
        [
          (crd) => {
            crd.spec.names.plural = 'Rules';
            crd.metadata.name = `Rules.${GROUP}`;
          },
          [
            ['FieldValueInvalid', 'metadata.name', `Invalid value: "Rules.${GROUP}": ${DNS1123}`],
            ['FieldValueInvalid', 'spec.names.plural', `Invalid value: "Rules": ${DNS1035}`],
          ],
        ],
        [(crd) => void (crd.spec.names.singular = 'Rule_x'), [['FieldValueInvalid', 'spec.names.singular', `Invalid value: "Rule_x": ${DNS1035}`]]],
        [(crd) => void (crd.spec.names.kind = 'Rule K'), [['FieldValueInvalid', 'spec.names.kind', `Invalid value: "Rule K": ${MIXED}`]]],
        [(crd) => void (crd.spec.names.kind = 'Rule.K'), [['FieldValueInvalid', 'spec.names.kind', `Invalid value: "Rule.K": ${MIXED}`]]],
        [(crd) => void (crd.spec.names.kind = '9Rule'), [['FieldValueInvalid', 'spec.names.kind', `Invalid value: "9Rule": ${MIXED}`]]],
        [(crd) => void (crd.spec.names.listKind = 'Rule List'), [['FieldValueInvalid', 'spec.names.listKind', `Invalid value: "Rule List": ${MIXED}`]]],
        [(crd) => void (crd.spec.names.listKind = crd.spec.names.kind ?? ''), (crd) => [['FieldValueInvalid', 'spec.names.listKind', `Invalid value: "${crd.spec.names.kind}": kind and listKind may not be the same`]]],
        [(crd) => delete crd.spec.names.kind, [['FieldValueRequired', 'spec.names.kind', 'Required value']]],
        // Without a plural, the name cannot match it (two causes, in this order).
        [(crd) => delete crd.spec.names.plural, (crd) => [['FieldValueInvalid', 'metadata.name', `Invalid value: "${crd.metadata.name}": must be spec.names.plural+"."+spec.group`], ['FieldValueRequired', 'spec.names.plural', 'Required value']]],
        // Nothing to default singular and listKind from: three causes, in this order.
        [
          (crd) => (crd.spec.names = { plural: crd.spec.names.plural ?? '' }),
          [['FieldValueRequired', 'spec.names.singular', 'Required value'], ['FieldValueRequired', 'spec.names.kind', 'Required value'], ['FieldValueRequired', 'spec.names.listKind', 'Required value']],
        ],
      ]);
    });

    test('shortNames and categories must be DNS-1035 labels; duplicates, singular = plural and a lower-case or hyphenated kind are accepted', async () => {
      await refused(backend(), [
        [(crd) => void (crd.spec.names.shortNames = ['ok', 'Bad']), [['FieldValueInvalid', 'spec.names.shortNames[1]', `Invalid value: "Bad": ${DNS1035}`]]],
        [(crd) => void (crd.spec.names.categories = ['all', 'My_Cat']), [['FieldValueInvalid', 'spec.names.categories[1]', `Invalid value: "My_Cat": ${DNS1035}`]]],
      ]);
      const kept = await accepted(backend(), [
        (crd) => Object.assign(crd.spec.names, { shortNames: ['rr', 'rr'], categories: ['all', 'all'] }),
        (crd) => void (crd.spec.names.singular = crd.spec.names.plural ?? ''),
        (crd) => void (crd.spec.names.kind = 'ruleK'),
        (crd) => (crd.spec.names = { plural: crd.spec.names.plural ?? '', kind: 'Rule-K' }),
      ]);
      for (const { sent, stored } of kept.slice(0, 3)) assert.deepEqual(stored.spec.names, sent.spec.names);
      assert.deepEqual(kept[3]?.stored.spec.names, { plural: kept[3]?.sent.spec.names.plural, singular: 'rule-k', kind: 'Rule-K', listKind: 'Rule-KList' });
    });

    test('the group must be a DNS subdomain with a dot, the scope Namespaced or Cluster, preserveUnknownFields not true', async () => {
      await refused(backend(), [
        // The group is part of metadata.name: two causes, in this order.
        [() => undefined, (crd) => [['FieldValueInvalid', 'metadata.name', `Invalid value: "${crd.metadata.name}": ${DNS1123}`], ['FieldValueInvalid', 'spec.group', `Invalid value: "Ex_Ample.com": ${DNS1123}`]], 'Ex_Ample.com'],
        [() => undefined, [['FieldValueInvalid', 'spec.group', 'Invalid value: "example": should be a domain with at least one dot']], 'example'],
        [(crd) => void (crd.spec.scope = 'Global'), [['FieldValueNotSupported', 'spec.scope', 'Unsupported value: "Global": supported values: "Cluster", "Namespaced"']]],
        [(crd) => void (crd.spec['preserveUnknownFields'] = true), [['FieldValueInvalid', 'spec.preserveUnknownFields', 'Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead']]],
      ]);
    });

    test('a protected group (k8s.io, kubernetes.io) needs the api-approved.kubernetes.io annotation, a URL or "unapproved…", on create and when it changes', async () => {
      const annotated = (value: string): Edit => (crd) => void (crd.metadata.annotations = { 'api-approved.kubernetes.io': value });
      const missing: Cause = ['FieldValueRequired', 'metadata.annotations[api-approved.kubernetes.io]', `Required value: ${APPROVAL}, ${KEP}`];
      const junk: Cause = ['FieldValueInvalid', 'metadata.annotations[api-approved.kubernetes.io]', `Invalid value: "yes": ${APPROVAL} with either a URL or a reason starting with "unapproved", ${KEP}`];
      await refused(backend(), [
        [() => undefined, [missing], 'specrules.k8s.io'],
        [() => undefined, [missing], 'k8s.io'],
        [annotated('yes'), [junk], 'x.kubernetes.io'],
      ]);
      await accepted(backend(), [annotated('https://github.com/kubernetes/kubernetes/pull/1')], 'specrules.k8s.io');
      await accepted(backend(), [() => undefined], 'notk8s.io');
      const [bypassed] = await accepted(backend(), [annotated('unapproved, testing only')], 'x.kubernetes.io');
      assert.ok(bypassed !== undefined);
      const name = bypassed.sent.metadata.name;
      assert.deepEqual(answered(await put(backend(), name, (crd) => delete crd.metadata.annotations?.['api-approved.kubernetes.io'])), invalid(name, [missing]));
      assert.deepEqual(answered(await put(backend(), name, annotated('yes'))), invalid(name, [junk]));
      assert.equal((await put(backend(), name, (crd) => void (crd.spec.names.shortNames = ['xr']))).status, 200, 'the annotation unchanged');
      assert.equal((await put(backend(), name, annotated('https://example.com/pr/1'))).status, 200);
    });

    test('version names are DNS-1035 labels and unique, and exactly one version is the storage version', async () => {
      await refused(backend(), [
        // The first version's name is also reported as `spec.version`: two causes, in this order.
        [(crd) => void (first(crd).name = 'V1'), [['FieldValueInvalid', 'spec.versions[0].name', `Invalid value: "V1": ${DNS1035}`], ['FieldValueInvalid', 'spec.version', `Invalid value: "V1": ${DNS1035}`]]],
        [twoVersions('1v'), [['FieldValueInvalid', 'spec.versions[1].name', `Invalid value: "1v": ${DNS1035}`]]],
        [twoVersions('v1.0'), [['FieldValueInvalid', 'spec.versions[1].name', `Invalid value: "v1.0": ${DNS1035}`]]],
        [twoVersions('v1'), [['FieldValueInvalid', 'spec.versions', `Invalid value: ${versionsDump([['v1', true], ['v1', false]])}: must contain unique version names`]]],
        // No storage version, or two: status.storedVersions is wrong as well (two causes, in this order).
        [
          (crd) => void (first(crd).storage = false),
          [['FieldValueInvalid', 'spec.versions', `Invalid value: ${versionsDump([['v1', false]])}: must have exactly one version marked as storage version`], ['FieldValueInvalid', 'status.storedVersions', 'Invalid value: null: must have at least one stored version']],
        ],
        [
          twoVersions('v2', [true, true]),
          [['FieldValueInvalid', 'spec.versions', `Invalid value: ${versionsDump([['v1', true], ['v2', true]])}: must have exactly one version marked as storage version`], ['FieldValueInvalid', 'status.storedVersions', 'Invalid value: ["v1"]: must have the storage version v2']],
        ],
      ]);
    });

    test('the scale subresource: both replica paths required, under .spec and .status, a label selector path under either', async () => {
      const scale = (paths: Record<string, string>): Edit => (crd) => void (first(crd)['subresources'] = { scale: paths });
      const at = (path: string): string => `spec.subresources.scale.${path}`;
      await refused(backend(), [
        [scale({ specReplicasPath: '.status.replicas', statusReplicasPath: '.status.replicas' }), [['FieldValueInvalid', at('specReplicasPath'), 'Invalid value: ".status.replicas": should be a json path under .spec']]],
        [scale({ specReplicasPath: '.spec', statusReplicasPath: '.status.replicas' }), [['FieldValueInvalid', at('specReplicasPath'), 'Invalid value: ".spec": should be a json path under .spec']]],
        [scale({ specReplicasPath: 'spec.replicas', statusReplicasPath: '.status.replicas' }), [['FieldValueInvalid', at('specReplicasPath'), 'Invalid value: "spec.replicas": must be a simple json path starting with .']]],
        [scale({ specReplicasPath: '.spec.replicas', statusReplicasPath: '.spec.replicas' }), [['FieldValueInvalid', at('statusReplicasPath'), 'Invalid value: ".spec.replicas": should be a json path under .status']]],
        [scale({ specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.metadata.labels' }), [['FieldValueInvalid', at('labelSelectorPath'), 'Invalid value: ".metadata.labels": should be a json path under either .spec or .status']]],
        [scale({ specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: 'status.sel' }), [['FieldValueInvalid', at('labelSelectorPath'), 'Invalid value: "status.sel": must be a simple json path starting with .']]],
        // Both paths missing: two causes, in this order.
        [scale({}), [['FieldValueRequired', at('specReplicasPath'), 'Required value'], ['FieldValueRequired', at('statusReplicasPath'), 'Required value']]],
      ]);
      const subresources = { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } };
      const [ok] = await accepted(backend(), [(crd) => void (first(crd)['subresources'] = subresources)]);
      assert.deepEqual(ok?.stored.spec.versions[0]?.['subresources'], subresources);
    });

    test('printer columns: a name, a type and a format of the known ones, a JSON path starting with a dot; duplicate names are accepted', async () => {
      const column = (fields: Record<string, unknown>): Edit => (crd) => void (first(crd)['additionalPrinterColumns'] = [fields]);
      const at = (field: string): string => `spec.additionalPrinterColumns[0].${field}`;
      await refused(backend(), [
        [column({ type: 'string', jsonPath: '.spec.a' }), [['FieldValueRequired', at('name'), 'Required value']]],
        [column({ name: 'A', jsonPath: '.spec.a' }), [['FieldValueRequired', at('type'), 'Required value: must be one of boolean,date,integer,number,string']]],
        [column({ name: 'A', type: 'object', jsonPath: '.spec.a' }), [['FieldValueInvalid', at('type'), 'Invalid value: "object": must be one of boolean,date,integer,number,string']]],
        [column({ name: 'A', type: 'string', format: 'uuid', jsonPath: '.spec.a' }), [['FieldValueInvalid', at('format'), 'Invalid value: "uuid": must be one of byte,date,date-time,double,float,int32,int64,password']]],
        [column({ name: 'A', type: 'string' }), [['FieldValueRequired', at('JSONPath'), 'Required value']]],
        [column({ name: 'A', type: 'string', jsonPath: 'spec.a' }), [['FieldValueInvalid', at('JSONPath'), 'Invalid value: "spec.a": must be a simple json path starting with .']]],
      ]);
      const columns = [
        { name: 'Age', type: 'date', format: 'date-time', description: 'd', priority: 1, jsonPath: '.metadata.creationTimestamp' },
        { name: 'Age', type: 'integer', priority: -3, jsonPath: '.spec.items[0].n' },
      ];
      const [ok] = await accepted(backend(), [(crd) => void (first(crd)['additionalPrinterColumns'] = columns)]);
      assert.deepEqual(ok?.stored.spec.versions[0]?.['additionalPrinterColumns'], columns);
    });

    test('a deprecationWarning only on a deprecated version, not empty, at most 256 characters, printable', async () => {
      const warning = (text: string, deprecated = true): Edit => (crd) => void Object.assign(first(crd), { deprecated, deprecationWarning: text });
      const at = 'spec.versions[0].deprecationWarning';
      await refused(backend(), [
        [warning('old', false), [['FieldValueInvalid', at, 'Invalid value: "old": can only be set for deprecated versions']]],
        [warning(''), [['FieldValueInvalid', at, 'Invalid value: "": must not be an empty string']]],
        [warning('x'.repeat(257)), [['FieldValueInvalid', at, `Invalid value: "${'x'.repeat(257)}": must be <= 256 characters long`]]],
        [warning('a\tb'), [['FieldValueInvalid', at, 'Invalid value: "a\\tb": must only contain printable UTF-8 characters; non-printable character found at index 1']]],
        [warning('ab\n'), [['FieldValueInvalid', at, 'Invalid value: "ab\\n": must only contain printable UTF-8 characters; non-printable character found at index 2']]],
        [warning('a\u200bb'), [['FieldValueInvalid', at, 'Invalid value: "a\u200bb": must only contain printable UTF-8 characters; non-printable character found at index 1']]],
      ]);
      const kept = await accepted(backend(), [warning('x'.repeat(256)), (crd) => void (first(crd)['deprecated'] = true)]);
      assert.equal(kept[0]?.stored.spec.versions[0]?.['deprecationWarning'], 'x'.repeat(256));
      assert.deepEqual([kept[1]?.stored.spec.versions[0]?.['deprecated'], 'deprecationWarning' in (kept[1]?.stored.spec.versions[0] ?? {})], [true, false]);
    });

    test('conversion: strategy None or Webhook; a webhook needs one of url (https) or service and known conversionReviewVersions; None takes neither', async () => {
      const conversion = (value: unknown): Edit => (crd) => void (crd.spec['conversion'] = value);
      const webhook = (clientConfig: unknown, conversionReviewVersions: string[] = ['v1']): Edit => conversion({ strategy: 'Webhook', webhook: { clientConfig, conversionReviewVersions } });
      const url = { url: 'https://example.com/convert' };
      const at = (field: string): string => `spec.conversion.${field}`;
      await refused(backend(), [
        [conversion({ strategy: 'Magic' }), [['FieldValueNotSupported', at('strategy'), 'Unsupported value: "Magic": supported values: "None", "Webhook"']]],
        [conversion({ strategy: '' }), [['FieldValueRequired', at('strategy'), 'Required value']]],
        [conversion({ strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'] } }), [['FieldValueRequired', at('webhookClientConfig'), 'Required value: required when strategy is set to Webhook']]],
        // No webhook at all: two causes, in this order.
        [conversion({ strategy: 'Webhook' }), [['FieldValueRequired', at('webhookClientConfig'), 'Required value: required when strategy is set to Webhook'], ['FieldValueRequired', at('conversionReviewVersions'), 'Required value']]],
        [webhook(url, []), [['FieldValueRequired', at('conversionReviewVersions'), 'Required value']]],
        [webhook(url, ['v9']), [['FieldValueInvalid', at('conversionReviewVersions'), 'Invalid value: ["v9"]: must include at least one of v1, v1beta1']]],
        [webhook(url, ['v1', 'v1']), [['FieldValueInvalid', at('conversionReviewVersions[1]'), 'Invalid value: "v1": duplicate version']]],
        [webhook(url, ['v1', 'V2']), [['FieldValueInvalid', at('conversionReviewVersions[1]'), `Invalid value: "V2": ${DNS1035}`]]],
        [webhook({ ...url, service: { name: 's', namespace: 'n' } }), [['FieldValueRequired', at('webhookClientConfig'), 'Required value: exactly one of url or service is required']]],
        [conversion({ strategy: 'None', webhook: { conversionReviewVersions: ['v1'] } }), [['FieldValueForbidden', at('conversionReviewVersions'), 'Forbidden: should not be set when strategy is not set to Webhook']]],
        [conversion({ strategy: 'None', webhook: { clientConfig: url } }), [['FieldValueForbidden', at('webhookClientConfig'), 'Forbidden: should not be set when strategy is not set to Webhook']]],
      ]);
      const [ok] = await accepted(backend(), [webhook(url)]);
      assert.deepEqual(ok?.stored.spec['conversion'], { strategy: 'Webhook', webhook: { clientConfig: url, conversionReviewVersions: ['v1'] } });
      // The client config is checked as an admission webhook's: https only, a service's name and namespace (Go's
      // caller swaps them: a missing name is reported at .namespace), port and path segments.
      const service = (fields: Record<string, unknown>): Edit => webhook({ service: { name: 's', namespace: 'n', ...fields } });
      await refused(backend(), [
        [webhook({ url: 'http://example.com/convert' }), [['FieldValueInvalid', at('webhookClientConfig.url'), "Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]"]]],
        [service({ name: '' }), [['FieldValueRequired', at('webhookClientConfig.service.namespace'), 'Required value']]],
        [service({ port: 0 }), [['FieldValueInvalid', at('webhookClientConfig.service.port'), 'Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive']]],
        [service({ path: 'convert' }), [['FieldValueInvalid', at('webhookClientConfig.service.path'), 'Invalid value: "convert": must start with a \'/\'']]],
      ]);
      // A caBundle that is not base64 fails the decoding of the body: 400, before any validation.
      const { crd } = crdOf(webhook({ ...url, caBundle: 'not base64!' }));
      const notBase64 = await raw(backend().kubeConfig, 'POST', CRDS, JSON.stringify(crd));
      assert.deepEqual([notBase64.status, notBase64.body['message']], [400, 'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: illegal base64 data at input byte 3']);
    });

    test('selectable fields: a field of the schema (not metadata) of type string, boolean or integer, no array notation, no duplicates, at most 8', async () => {
      const many = Object.fromEntries([...Array(9).keys()].map((i) => [`f${i}`, { type: 'string' }]));
      const properties = { color: { type: 'string' }, ratio: { type: 'number' }, on: { type: 'boolean' }, size: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } }, inner: { type: 'object', properties: { a: { type: 'string' } } }, mode: { type: 'string', enum: ['a', 'b'] }, when: { type: 'string', format: 'date-time' }, ...many };
      const selecting = (...paths: Array<string | undefined>): Edit => (crd) => {
        Object.assign(first(crd), { schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties } } } }, selectableFields: paths.map((jsonPath) => (jsonPath === undefined ? {} : { jsonPath })) });
      };
      const at = (i: number): string => `spec.selectableFields[${i}].jsonPath`;
      const scalar = 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.';
      await refused(backend(), [
        [selecting('.spec.nope'), [['FieldValueInvalid', at(0), 'Invalid value: ".spec.nope": is an invalid path: does not refer to a valid field']]],
        [selecting('.metadata.name'), [['FieldValueInvalid', at(0), 'Invalid value: ".metadata.name": is an invalid path: does not refer to a valid field']]],
        // Under x-kubernetes-preserve-unknown-fields (the default schema here), no field is known.
        [(crd) => void (first(crd)['selectableFields'] = [{ jsonPath: '.spec.x' }]), [['FieldValueInvalid', at(0), 'Invalid value: ".spec.x": is an invalid path: does not refer to a valid field']]],
        [selecting('.spec.inner'), [['FieldValueInvalid', at(0), `Invalid value: ".spec.inner": ${scalar}`]]],
        [selecting('.spec.tags'), [['FieldValueInvalid', at(0), `Invalid value: ".spec.tags": ${scalar}`]]],
        [selecting('.spec.ratio'), [['FieldValueInvalid', at(0), `Invalid value: ".spec.ratio": ${scalar}`]]],
        [selecting('.spec.tags[0]'), [['FieldValueInvalid', at(0), 'Invalid value: ".spec.tags[0]": is an invalid path: array notation is not allowed']]],
        [selecting('spec.color'), [['FieldValueInvalid', at(0), 'Invalid value: "spec.color": is an invalid path: expected [ or . but got: spec']]],
        [selecting(undefined), [['FieldValueRequired', at(0), 'Required value']]],
        [selecting('.spec.color', '.spec.color'), [['FieldValueDuplicate', at(1), 'Duplicate value: ".spec.color"']]],
        [selecting(...Object.keys(many).map((f) => `.spec.${f}`)), [['FieldValueTooMany', 'spec.selectableFields', 'Too many: 9: must have at most 8 items']]],
        // Nine listed, eight of them different: only the duplicate.
        [selecting(...Object.keys(many).slice(0, 8).map((f) => `.spec.${f}`), '.spec.f0'), [['FieldValueDuplicate', at(8), 'Duplicate value: ".spec.f0"']]],
      ]);
      await accepted(backend(), [selecting('.spec.inner.a', '.spec.mode', '.spec.when', '.spec.on', '.spec.size'), selecting(...Object.keys(many).slice(0, 8).map((f) => `.spec.${f}`))]);
    });

    test('on update: group, plural and scope are immutable, the kind once established; a kind not yet established, singular, listKind and shortNames may change', async () => {
      const [created] = await accepted(backend(), [twoVersions('v2')]);
      assert.ok(created !== undefined);
      const name = created.sent.metadata.name;
      await condition(backend(), name, 'Established', 'True');
      const cases: Array<[Edit, Cause]> = [
        [(crd) => void (crd.spec.scope = 'Cluster'), ['FieldValueInvalid', 'spec.scope', 'Invalid value: "Cluster": field is immutable']],
        [(crd) => void (crd.spec.names.plural = 'others'), ['FieldValueInvalid', 'spec.names.plural', 'Invalid value: "others": field is immutable']],
        [(crd) => void (crd.spec.group = 'other.conformance.katalog.dev'), ['FieldValueInvalid', 'spec.group', 'Invalid value: "other.conformance.katalog.dev": field is immutable']],
        [(crd) => void Object.assign(crd.spec.names, { kind: 'Other', listKind: 'OtherList' }), ['FieldValueInvalid', 'spec.names.kind', 'Invalid value: "Other": field is immutable']],
        [(crd) => void (crd.spec['preserveUnknownFields'] = true), ['FieldValueInvalid', 'spec.preserveUnknownFields', 'Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead']],
      ];
      for (const [edit, cause] of cases) assert.deepEqual(answered(await put(backend(), name, edit)), invalid(name, [cause]), cause[1]);
      const renamed = await put(backend(), name, (crd) => Object.assign(crd.spec.names, { singular: 'other', listKind: 'OtherList', shortNames: ['ot'], categories: ['all'] }));
      assert.equal(renamed.status, 200, String(renamed.body['message']));
      assert.deepEqual((renamed.body as unknown as Crd).spec.names, { plural: created.sent.spec.names.plural, singular: 'other', shortNames: ['ot'], kind: created.sent.spec.names.kind, listKind: 'OtherList', categories: ['all'] });

      // Another CRD of the group with the same kind: its names are not accepted, it is not established, its kind may change.
      const [taken] = await accepted(backend(), [(crd) => void (crd.spec.names.kind = created.sent.spec.names.kind ?? '')]);
      assert.ok(taken !== undefined);
      const second = taken.sent.metadata.name;
      await condition(backend(), second, 'NamesAccepted', 'False');
      const changed = await put(backend(), second, (crd) => void (crd.spec.names.kind = `Free${taken.id}`));
      assert.equal(changed.status, 200, String(changed.body['message']));
      await condition(backend(), second, 'Established', 'True');
      assert.deepEqual(answered(await put(backend(), second, (crd) => void (crd.spec.names.kind = 'Again'))), invalid(second, [['FieldValueInvalid', 'spec.names.kind', 'Invalid value: "Again": field is immutable']]));
    });

    test('on update: a version in status.storedVersions cannot be removed; one never stored can; moving the storage version adds to storedVersions', async () => {
      const [created] = await accepted(backend(), [twoVersions('v2')]);
      assert.ok(created !== undefined);
      const name = created.sent.metadata.name;
      await condition(backend(), name, 'Established', 'True');
      const gone = (v: string, i: number): Cause => ['FieldValueInvalid', `status.storedVersions[${i}]`, `Invalid value: "${v}": missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`];
      const onlyV2 = (crd: Crd): void => void (crd.spec.versions = crd.spec.versions.filter((v) => v.name === 'v2').map((v) => ({ ...v, storage: true })));
      assert.deepEqual(answered(await put(backend(), name, onlyV2)), invalid(name, [gone('v1', 0)]));
      const moved = await put(backend(), name, (crd) => void (crd.spec.versions = crd.spec.versions.map((v) => ({ ...v, storage: v.name === 'v2' }))));
      assert.equal(moved.status, 200, String(moved.body['message']));
      assert.deepEqual((moved.body['status'] as { storedVersions: unknown }).storedVersions, ['v1', 'v2']);
      assert.deepEqual(answered(await put(backend(), name, onlyV2)), invalid(name, [gone('v1', 0)]));
      const stored = (await raw(backend().kubeConfig, 'GET', `${CRDS}/${name}`)).body as unknown as Crd;
      assert.deepEqual(stored.spec.versions.map((v) => `${v.name}:${String(v.storage)}`), ['v1:false', 'v2:true']);

      const [other] = await accepted(backend(), [twoVersions('v2')]);
      assert.ok(other !== undefined);
      const dropped = await put(backend(), other.sent.metadata.name, (crd) => void (crd.spec.versions = crd.spec.versions.slice(0, 1)));
      assert.equal(dropped.status, 200, String(dropped.body['message']));
      assert.deepEqual((dropped.body as unknown as Crd).spec.versions.map((v) => v.name), ['v1']);
    });
  });
}
