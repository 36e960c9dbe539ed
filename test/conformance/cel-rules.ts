// CEL validation rules of custom resources (`x-kubernetes-validations: [{rule, message, messageExpression, reason,
// fieldPath, optionalOldSelf}]`), as kube-apiserver 1.37.2 answers writes that break them (every expectation here was
// probed on it): the 422 of a false rule on an object, a list, a map, a map value, a list item and a scalar (how its
// value is shown), message, messageExpression and their fallbacks, reason and fieldPath, the macros and functions
// rules use, rules at the schema's root, transition rules (oldSelf, optionalOldSelf, items of a list-type map), runtime
// errors, schema errors that keep CEL from running (and those that do not), the order of several causes, ratcheting of
// rules after a CRD is tightened (refusals become Warning headers), the status subresource, and what is stored.
//
// A CEL cause is FieldValueInvalid `Invalid value: <value>: <detail>` unless the rule names a reason. <value> is left
// out (`Invalid value: <detail>`) when the node is an object or a list; a scalar is printed as Go does: a string
// quoted (%q), an integer as is, a fraction in Go's shortest %v form (1e-06, -1.23456789125e+08). <detail> is the
// message (trimmed), else the messageExpression's result (trimmed; an empty, multi-line or failing result falls back
// to the message, else to `failed rule: <rule>`). A runtime error is `Invalid value: "<schema type>": <error>
// evaluating rule: <message, else rule>`. The bodies below break one rule each, except where kube-apiserver's order of
// several is fixed: rules of one node come in their order, a node's rules before its properties', list items in
// index order; properties of one object come in Go's random map order, so no body breaks rules of two siblings, and
// ratcheting warnings (one per unchanged broken node) are compared sorted.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unique, waitFor, type Backend, type Json } from './backend.js';
import { answered, invalidAnswer, type Answered, type Cause } from './invalid-answer.js';
import { raw, type RawAnswer } from './raw-http.js';

const GROUP = 'cel.conformance.katalog.dev';
const API_VERSION = `${GROUP}/v1`;
const MERGE = 'application/merge-patch+json';

const str = { type: 'string' };
const int = { type: 'integer' };

/** One rule on a schema node. */
function rule(text: string, more: Record<string, unknown> = {}): { 'x-kubernetes-validations': unknown[] } {
  return { 'x-kubernetes-validations': [{ rule: text, ...more }] };
}

/** A Namespaced CRD of this group with one version, v1, with the status subresource. */
function crdOf(kind: string, openAPIV3Schema: unknown): unknown {
  const plural = `${kind.toLowerCase()}s`;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${GROUP}` },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: { kind, plural, singular: kind.toLowerCase(), listKind: `${kind}List` },
      versions: [{ name: 'v1', served: true, storage: true, subresources: { status: {} }, schema: { openAPIV3Schema } }],
    },
  };
}

/** An object with minReplicas and maxReplicas, and `self.minReplicas <= self.maxReplicas` with these rule fields. */
function scale(more: Record<string, unknown> = {}): unknown {
  return { type: 'object', properties: { minReplicas: int, maxReplicas: int, name: str }, ...rule('self.minReplicas <= self.maxReplicas', more) };
}

// Lists a rule iterates over have maxItems where kube-apiserver's cost estimate refuses the CRD without one.
const widgetCrd = crdOf('Widget', {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        scale: scale(),
        scaleMsg: scale({ message: 'min must not exceed max' }),
        scaleExpr: scale({ messageExpression: "'replicas of ' + self.name + ' are out of order'" }),
        scaleExprInt: scale({ messageExpression: 'string(self.minReplicas)' }),
        scaleBoth: scale({ message: 'plain message', messageExpression: "'from expression'" }),
        scaleEmpty: scale({ message: 'fallback message', messageExpression: "''" }),
        scaleEmptyNoMsg: scale({ messageExpression: "''" }),
        scaleNewline: scale({ message: 'fallback message', messageExpression: "'line\\none'" }),
        scalePadded: scale({ message: '  padded message  ' }),
        scalePaddedExpr: scale({ message: 'plain message', messageExpression: "'  padded expression  '" }),
        scaleForbidden: scale({ reason: 'FieldValueForbidden', message: 'forbidden message' }),
        scaleForbiddenNoMsg: scale({ reason: 'FieldValueForbidden' }),
        scaleRequired: scale({ reason: 'FieldValueRequired', message: 'required message' }),
        scaleDuplicate: scale({ reason: 'FieldValueDuplicate', message: 'duplicate message' }),
        scaleInvalid: scale({ reason: 'FieldValueInvalid', message: 'invalid message' }),
        scalePath: scale({ fieldPath: '.minReplicas' }),
        scalePathBracket: scale({ fieldPath: "['minReplicas']" }),
        scalePathMsg: scale({ fieldPath: '.minReplicas', message: 'path message', reason: 'FieldValueForbidden' }),
        nestedPath: { type: 'object', properties: { inner: { type: 'object', properties: { x: int } } }, ...rule('self.inner.x > 0', { fieldPath: '.inner.x' }) },
        mapPath: { type: 'object', properties: { m: { type: 'object', additionalProperties: str } }, ...rule("self.m['a.b'] == 'ok'", { fieldPath: ".m['a.b']" }) },
        dottedPath: { type: 'object', properties: { 'a.b': int }, ...rule('self.a__dot__b > 0', { fieldPath: "['a.b']" }) },

        name: { type: 'string', ...rule("self.startsWith('a')") },
        even: { type: 'integer', ...rule('self % 2 == 0') },
        ratio: { type: 'number', ...rule('self > 1') },
        flag: { type: 'boolean', ...rule('self') },
        port: { 'x-kubernetes-int-or-string': true, ...rule('type(self) == string || self > 0') },
        portName: { 'x-kubernetes-int-or-string': true, ...rule("type(self) == int || self.startsWith('p')") },
        dup: { type: 'string', ...rule("self != 'x'", { reason: 'FieldValueDuplicate', message: 'dup message' }) },

        positives: { type: 'array', items: int, ...rule('self.all(x, x > 0)') },
        few: { type: 'array', items: str, ...rule('size(self) <= 3') },
        hasA: { type: 'array', items: str, ...rule("self.exists(x, x == 'a')") },
        oneA: { type: 'array', items: str, ...rule("self.exists_one(x, x == 'a')") },
        doubled: { type: 'array', maxItems: 10, items: int, ...rule('self.map(x, x * 2).all(x, x < 10)') },
        filtered: { type: 'array', maxItems: 10, items: int, ...rule('size(self.filter(x, x > 5)) == 0') },
        sorted: { type: 'array', items: int, ...rule('self.isSorted()') },
        summed: { type: 'array', items: int, ...rule('self.sum() < 10') },
        itemRule: { type: 'array', items: { type: 'integer', ...rule('self > 0') } },
        objItems: { type: 'array', items: { type: 'object', properties: { a: int, b: int }, ...rule('self.a < self.b') } },
        keysA: { type: 'object', additionalProperties: str, ...rule("self.all(k, k.startsWith('a'))") },
        needsX: { type: 'object', additionalProperties: str, ...rule("'x' in self") },
        mapValues: { type: 'object', additionalProperties: { type: 'integer', ...rule('self > 0') } },

        pair: { type: 'object', properties: { a: str, b: str }, ...rule('!has(self.a) || has(self.b)') },
        tern: { type: 'object', properties: { mode: str, n: int }, ...rule("self.mode == 'big' ? self.n > 10 : self.n <= 10") },
        matches: { type: 'string', ...rule("self.matches('^[a-z]+$')") },
        contains: { type: 'string', ...rule("self.contains('x')") },
        endsWith: { type: 'string', ...rule("self.endsWith('z')") },
        lower: { type: 'string', ...rule('self.lowerAscii() == self') },
        upper: { type: 'string', ...rule('self.upperAscii() == self') },
        split: { type: 'string', ...rule("self.split(',').size() == 2") },
        join: { type: 'array', maxItems: 5, items: { type: 'string', maxLength: 5 }, ...rule("self.join('-') == 'a-b'") },
        trim: { type: 'string', ...rule('self.trim() == self') },
        replace: { type: 'string', ...rule("self.replace('a', 'b') == self") },
        indexOf: { type: 'string', ...rule("self.indexOf('x') == 0") },
        substring: { type: 'string', ...rule("self.substring(0, 2) == 'ab'") },
        size: { type: 'string', ...rule('size(self) < 4') },
        toInt: { type: 'string', ...rule('int(self) > 0') },
        toString: { type: 'integer', ...rule('string(self).size() < 3') },
        toDouble: { type: 'integer', ...rule('double(self) < 1.5') },
        dur: { type: 'string', ...rule("duration(self) < duration('1h')") },
        time: { type: 'string', ...rule("timestamp(self) > timestamp('2020-01-01T00:00:00Z')") },
        inList: { type: 'string', ...rule("self in ['a', 'b']") },
        inMap: { type: 'string', ...rule("self in {'a': 1, 'b': 2}") },

        missing: { type: 'object', properties: { missing: int, other: int }, ...rule('self.missing == 1') },
        missingMsg: { type: 'object', properties: { a: int, b: int }, ...rule('self.a > self.b', { message: '  a must exceed b  ' }) },
        divide: { type: 'object', properties: { a: int, b: int }, ...rule('self.a / self.b > 0') },
        index: { type: 'array', items: int, ...rule('self[2] == 1') },
        portDivide: { 'x-kubernetes-int-or-string': true, ...rule('type(self) == string || 10 / self > 1') },

        several: {
          type: 'object',
          properties: { a: int, b: int },
          'x-kubernetes-validations': [
            { rule: 'self.a > 0', message: 'first' },
            { rule: 'self.b > 0', message: 'second' },
            { rule: 'self.a < 100', message: 'third' },
            { rule: 'self.b < 100', message: 'fourth' },
          ],
        },
        outer: {
          type: 'object',
          properties: { x: { type: 'integer', ...rule('self > 0', { message: 'x positive' }) } },
          'x-kubernetes-validations': [
            { rule: 'self.x < 100', message: 'x small' },
            { rule: 'self.x != 0', message: 'x not zero' },
          ],
        },
      },
    },
  },
});

/** Rules together with schema value validations: which schema errors keep CEL from running. */
const mixerCrd = crdOf('Mixer', {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        capped: { type: 'integer', maximum: 10, ...rule('self % 2 == 0') },
        coded: { type: 'string', pattern: '^[a-z]+$', ...rule("self.startsWith('a')") },
        short: { type: 'string', maxLength: 3, ...rule("self.startsWith('a')") },
        picked: { type: 'string', enum: ['a', 'b', 'c'], ...rule("self != 'c'") },
        few: { type: 'array', maxItems: 2, items: str, ...rule("self.all(x, x != 'z')") },
        typed: { type: 'object', properties: { n: int, s: str }, ...rule("self.s == 'ok'") },
        plain: str,
        maybe: { type: 'string', nullable: true, ...rule("self != 'x'") },
        defaulted: { type: 'object', properties: { a: { type: 'integer', default: 0 } }, ...rule('self.a > 0') },
        entries: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['k'],
          items: { type: 'object', required: ['k'], properties: { k: str, v: int }, ...rule('self.v == oldSelf.v', { message: 'v is immutable' }) },
        },
      },
    },
    status: { type: 'object', properties: { phase: { type: 'string', ...rule("self != 'Bad'") } } },
  },
});

/** A rule on spec itself. */
const scalerCrd = crdOf('Scaler', {
  type: 'object',
  properties: { spec: { type: 'object', properties: { minReplicas: int, maxReplicas: int }, ...rule('self.minReplicas <= self.maxReplicas') } },
});

/** Rules at the root of the schema: they see metadata.name. */
const rootCrd = crdOf('Root', {
  type: 'object',
  'x-kubernetes-validations': [{ rule: "self.metadata.name.startsWith('ok')" }, { rule: 'self.spec.a == self.spec.b', message: 'a and b differ' }],
  properties: { spec: { type: 'object', required: ['a', 'b'], properties: { a: str, b: str } } },
});

/** Transition rules. */
const gadgetCrd = crdOf('Gadget', {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        fixed: { type: 'string', ...rule('self == oldSelf', { message: 'is immutable' }) },
        fixedNoMsg: { type: 'string', ...rule('self == oldSelf') },
        sticky: { type: 'object', properties: { a: int, b: str }, ...rule('self.a >= oldSelf.a', { message: 'may not decrease' }) },
        optional: { type: 'string', ...rule("oldSelf.hasValue() || self.startsWith('init')", { optionalOldSelf: true, message: 'must start with init when first set' }) },
        mixed: {
          type: 'integer',
          'x-kubernetes-validations': [
            { rule: 'self >= 0', message: 'not negative' },
            { rule: 'self >= oldSelf', message: 'may not decrease' },
          ],
        },
      },
    },
  },
});

/** The Gear CRD of the ratcheting test: no rules at first, then rules its objects break. */
function gearCrd(tight: boolean): unknown {
  const when = (validations: unknown[]): Record<string, unknown> => (tight ? { 'x-kubernetes-validations': validations } : {});
  return crdOf('Gear', {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        ...when([{ rule: "self.label != 'frozen'", message: 'label may not be frozen' }]),
        properties: {
          limit: { type: 'integer', ...when([{ rule: 'self <= 5' }]) },
          label: str,
          inner: { type: 'object', properties: { a: int, b: int }, ...when([{ rule: 'self.a <= self.b' }]) },
          tags: { type: 'array', items: { type: 'string', ...when([{ rule: 'size(self) <= 3' }]) } },
          fixed: { type: 'string', ...when([{ rule: 'self == oldSelf', message: 'is immutable' }, { rule: "self != 'old'", message: 'not old' }]) },
        },
      },
    },
  });
}

/** kube-apiserver's 422 for `name` of `kind` with these causes, in this order. */
function invalid(kind: string, name: string, causes: Cause[]): Answered {
  return invalidAnswer(GROUP, kind, name, causes);
}

/** A false rule without a message; `value` is the printed scalar, or undefined for an object or a list. */
function failed(field: string, ruleText: string, value?: string): Cause {
  return said(field, `failed rule: ${ruleText}`, value);
}

/** A false rule with this detail (message or messageExpression result). */
function said(field: string, detail: string, value?: string): Cause {
  return ['FieldValueInvalid', field, value === undefined ? `Invalid value: ${detail}` : `Invalid value: ${value}: ${detail}`];
}

/** A rule that failed to evaluate: the value shown is the node's schema type. */
function evaluationError(field: string, type: string, error: string, ruleOrMessage: string): Cause {
  return ['FieldValueInvalid', field, `Invalid value: "${type}": ${error} evaluating rule: ${ruleOrMessage}`];
}

/** What follows a schema error that keeps CEL from running. */
const NOT_CHECKED: Cause = ['FieldValueInvalid', '<nil>', 'Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation'];

function collection(kind: string): string {
  return `/apis/${GROUP}/v1/namespaces/default/${kind.toLowerCase()}s`;
}

function objectText(kind: string, name: string, spec: unknown, resourceVersion?: string): string {
  return JSON.stringify({ apiVersion: API_VERSION, kind, metadata: { name, ...(resourceVersion === undefined ? {} : { resourceVersion }) }, spec });
}

function resourceVersion(object: Json | Record<string, unknown>): string {
  return String((object['metadata'] as Record<string, unknown>)['resourceVersion']);
}

async function create(backend: Backend, kind: string, spec: unknown, name = unique(kind.toLowerCase()), query = ''): Promise<{ name: string; answer: RawAnswer }> {
  return { name, answer: await raw(backend.kubeConfig, 'POST', `${collection(kind)}${query}`, objectText(kind, name, spec)) };
}

function mergeSpec(backend: Backend, kind: string, name: string, spec: unknown): Promise<RawAnswer> {
  return raw(backend.kubeConfig, 'PATCH', `${collection(kind)}/${name}`, JSON.stringify({ spec }), MERGE);
}

/** Creates an object of each spec; each must be refused with exactly these causes, no warning, and nothing stored. */
async function refusedOnCreate(backend: Backend, kind: string, cases: Array<[unknown, Cause[]]>): Promise<void> {
  for (const [spec, causes] of cases) {
    const { name, answer } = await create(backend, kind, spec);
    assert.deepEqual(answered(answer), invalid(kind, name, causes), JSON.stringify(spec));
    assert.deepEqual(answer.warnings, [], `no warning for ${JSON.stringify(spec)}`);
    assert.equal(await backend.get(API_VERSION, kind, name), undefined, `nothing stored for ${JSON.stringify(spec)}`);
  }
}

/** Creates an object of each spec; each must be created, answered and stored with this spec. */
async function acceptedOnCreate(backend: Backend, kind: string, cases: Array<[unknown, unknown]>): Promise<void> {
  for (const [spec, stored] of cases) {
    const { name, answer } = await create(backend, kind, spec);
    assert.equal(answer.status, 201, `${JSON.stringify(spec)}: ${String(answer.body['message'])}`);
    assert.deepEqual(answer.warnings, [], `no warning for ${JSON.stringify(spec)}`);
    assert.deepEqual(answer.body['spec'], stored, `answered for ${JSON.stringify(spec)}`);
    assert.deepEqual((await backend.get(API_VERSION, kind, name))?.spec, stored, `stored for ${JSON.stringify(spec)}`);
  }
}

/** An update that must pass (and say why not, when it does not). */
function assertOk(answer: RawAnswer, status = 200): void {
  assert.equal(answer.status, status, String(answer.body['message']));
}

const OUT_OF_ORDER = { minReplicas: 5, maxReplicas: 2 };

export function celRuleSuite(backend: () => Backend): void {
  describe('CEL validation rules (x-kubernetes-validations)', () => {
    test('a false rule on an object: the value is left out; message, messageExpression and their fallbacks; reason; fieldPath', async () => {
      await backend().applyCrd(widgetCrd);
      const rule = 'self.minReplicas <= self.maxReplicas';
      await refusedOnCreate(backend(), 'Widget', [
        [{ scale: OUT_OF_ORDER }, [failed('spec.scale', rule)]],
        [{ scaleMsg: OUT_OF_ORDER }, [said('spec.scaleMsg', 'min must not exceed max')]],
        [{ scaleExpr: { ...OUT_OF_ORDER, name: 'web' } }, [said('spec.scaleExpr', 'replicas of web are out of order')]],
        [{ scaleExprInt: OUT_OF_ORDER }, [said('spec.scaleExprInt', '5')]],
        // messageExpression wins over message.
        [{ scaleBoth: OUT_OF_ORDER }, [said('spec.scaleBoth', 'from expression')]],
        // A messageExpression that fails (self.name is absent), is empty or has a line break: the message, else the
        // default; no warning.
        [{ scaleExpr: OUT_OF_ORDER }, [failed('spec.scaleExpr', rule)]],
        [{ scaleEmpty: OUT_OF_ORDER }, [said('spec.scaleEmpty', 'fallback message')]],
        [{ scaleEmptyNoMsg: OUT_OF_ORDER }, [failed('spec.scaleEmptyNoMsg', rule)]],
        [{ scaleNewline: OUT_OF_ORDER }, [said('spec.scaleNewline', 'fallback message')]],
        // message and messageExpression's result are trimmed.
        [{ scalePadded: OUT_OF_ORDER }, [said('spec.scalePadded', 'padded message')]],
        [{ scalePaddedExpr: OUT_OF_ORDER }, [said('spec.scalePaddedExpr', 'padded expression')]],
        // reason: Forbidden and Required keep the detail; Duplicate drops it (and the omitted value); Invalid is the default.
        [{ scaleForbidden: OUT_OF_ORDER }, [['FieldValueForbidden', 'spec.scaleForbidden', 'Forbidden: forbidden message']]],
        [{ scaleForbiddenNoMsg: OUT_OF_ORDER }, [['FieldValueForbidden', 'spec.scaleForbiddenNoMsg', `Forbidden: failed rule: ${rule}`]]],
        [{ scaleRequired: OUT_OF_ORDER }, [['FieldValueRequired', 'spec.scaleRequired', 'Required value: required message']]],
        [{ scaleDuplicate: OUT_OF_ORDER }, [['FieldValueDuplicate', 'spec.scaleDuplicate', 'Duplicate value']]],
        [{ scaleInvalid: OUT_OF_ORDER }, [said('spec.scaleInvalid', 'invalid message')]],
        // fieldPath is appended to the node's path; the value stays left out although minReplicas is a scalar.
        [{ scalePath: OUT_OF_ORDER }, [failed('spec.scalePath.minReplicas', rule)]],
        [{ scalePathBracket: OUT_OF_ORDER }, [failed('spec.scalePathBracket.minReplicas', rule)]],
        [{ scalePathMsg: OUT_OF_ORDER }, [['FieldValueForbidden', 'spec.scalePathMsg.minReplicas', 'Forbidden: path message']]],
        [{ nestedPath: { inner: { x: 0 } } }, [failed('spec.nestedPath.inner.x', 'self.inner.x > 0')]],
        [{ mapPath: { m: { 'a.b': 'no' } } }, [failed('spec.mapPath.m[a.b]', "self.m['a.b'] == 'ok'")]],
        [{ dottedPath: { 'a.b': 0 } }, [failed('spec.dottedPath.a.b', 'self.a__dot__b > 0')]],
      ]);

      // A rule on spec itself.
      await backend().applyCrd(scalerCrd);
      await refusedOnCreate(backend(), 'Scaler', [
        [OUT_OF_ORDER, [failed('spec', rule)]],
        [{ minReplicas: 1 }, [evaluationError('spec', 'object', 'no such key: maxReplicas', rule)]],
      ]);
      await acceptedOnCreate(backend(), 'Scaler', [[{ minReplicas: 2, maxReplicas: 2 }, { maxReplicas: 2, minReplicas: 2 }]]);
    });

    test('a false rule on a scalar shows the value as Go prints it: strings quoted, integers as they are, fractions in shortest form; int-or-string as its JSON type', async () => {
      await backend().applyCrd(widgetCrd);
      const startsWithA = "self.startsWith('a')";
      await refusedOnCreate(backend(), 'Widget', [
        [{ name: 'bob' }, [failed('spec.name', startsWithA, '"bob"')]],
        [{ name: 'b"c' }, [failed('spec.name', startsWithA, '"b\\"c"')]],
        [{ name: 'b\nc\t' }, [failed('spec.name', startsWithA, '"b\\nc\\t"')]],
        [{ name: 'ü' }, [failed('spec.name', startsWithA, '"ü"')]],
        [{ even: 3 }, [failed('spec.even', 'self % 2 == 0', '3')]],
        [{ even: -7 }, [failed('spec.even', 'self % 2 == 0', '-7')]],
        [{ even: 9007199254740991 }, [failed('spec.even', 'self % 2 == 0', '9007199254740991')]],
        // A number field: an integral JSON number is an int compared with the int literal 1 (no type error).
        [{ ratio: 1 }, [failed('spec.ratio', 'self > 1', '1')]],
        [{ ratio: 0 }, [failed('spec.ratio', 'self > 1', '0')]],
        [{ ratio: 0.5 }, [failed('spec.ratio', 'self > 1', '0.5')]],
        [{ ratio: 0.1 }, [failed('spec.ratio', 'self > 1', '0.1')]],
        [{ ratio: 0.3333333333333333 }, [failed('spec.ratio', 'self > 1', '0.3333333333333333')]],
        [{ ratio: -0.25 }, [failed('spec.ratio', 'self > 1', '-0.25')]],
        [{ ratio: 0.0001 }, [failed('spec.ratio', 'self > 1', '0.0001')]],
        [{ ratio: 0.000001 }, [failed('spec.ratio', 'self > 1', '1e-06')]],
        [{ ratio: -0.00001 }, [failed('spec.ratio', 'self > 1', '-1e-05')]],
        [{ ratio: -123456789.125 }, [failed('spec.ratio', 'self > 1', '-1.23456789125e+08')]],
        [{ ratio: -1e20 }, [failed('spec.ratio', 'self > 1', '-1e+20')]],
        [{ ratio: -1e21 }, [failed('spec.ratio', 'self > 1', '-1e+21')]],
        [{ flag: false }, [failed('spec.flag', 'self', 'false')]],
        [{ port: -1 }, [failed('spec.port', 'type(self) == string || self > 0', '-1')]],
        [{ portName: 'x' }, [failed('spec.portName', "type(self) == int || self.startsWith('p')", '"x"')]],
        // reason FieldValueDuplicate on a scalar: the value, no detail.
        [{ dup: 'x' }, [['FieldValueDuplicate', 'spec.dup', 'Duplicate value: "x"']]],
      ]);
    });

    test('rules on lists, list items, maps and map values: the value of a list or map is left out; an item is `[i]`, a map value `[key]`', async () => {
      await backend().applyCrd(widgetCrd);
      await refusedOnCreate(backend(), 'Widget', [
        [{ positives: [1, -2, 3] }, [failed('spec.positives', 'self.all(x, x > 0)')]],
        [{ few: ['a', 'b', 'c', 'd'] }, [failed('spec.few', 'size(self) <= 3')]],
        [{ hasA: ['b'] }, [failed('spec.hasA', "self.exists(x, x == 'a')")]],
        [{ oneA: ['a', 'a'] }, [failed('spec.oneA', "self.exists_one(x, x == 'a')")]],
        [{ doubled: [1, 5] }, [failed('spec.doubled', 'self.map(x, x * 2).all(x, x < 10)')]],
        [{ filtered: [1, 6] }, [failed('spec.filtered', 'size(self.filter(x, x > 5)) == 0')]],
        [{ sorted: [2, 1] }, [failed('spec.sorted', 'self.isSorted()')]],
        [{ summed: [5, 5] }, [failed('spec.summed', 'self.sum() < 10')]],
        [{ join: ['a', 'c'] }, [failed('spec.join', "self.join('-') == 'a-b'")]],
        // Items in index order.
        [{ itemRule: [1, -1, 2, -3] }, [failed('spec.itemRule[1]', 'self > 0', '-1'), failed('spec.itemRule[3]', 'self > 0', '-3')]],
        [{ objItems: [{ a: 1, b: 2 }, { a: 3, b: 2 }] }, [failed('spec.objItems[1]', 'self.a < self.b')]],
        [{ keysA: { ab: 'x', bc: 'y' } }, [failed('spec.keysA', "self.all(k, k.startsWith('a'))")]],
        [{ needsX: { y: '1' } }, [failed('spec.needsX', "'x' in self")]],
        // A map value's path is [key], the key as it is (no quotes, no escaping).
        [{ mapValues: { good: 1, bad: -1 } }, [failed('spec.mapValues[bad]', 'self > 0', '-1')]],
        [{ mapValues: { 'a.b': -1 } }, [failed('spec.mapValues[a.b]', 'self > 0', '-1')]],
        [{ mapValues: { 'a b': -1 } }, [failed('spec.mapValues[a b]', 'self > 0', '-1')]],
      ]);
    });

    test('has(), the ternary, string functions, conversions, durations, timestamps and literals', async () => {
      await backend().applyCrd(widgetCrd);
      const tern = "self.mode == 'big' ? self.n > 10 : self.n <= 10";
      await refusedOnCreate(backend(), 'Widget', [
        [{ pair: { a: 'x' } }, [failed('spec.pair', '!has(self.a) || has(self.b)')]],
        [{ tern: { mode: 'big', n: 5 } }, [failed('spec.tern', tern)]],
        [{ tern: { mode: 'small', n: 50 } }, [failed('spec.tern', tern)]],
        [{ matches: 'A1' }, [failed('spec.matches', "self.matches('^[a-z]+$')", '"A1"')]],
        [{ contains: 'abc' }, [failed('spec.contains', "self.contains('x')", '"abc"')]],
        [{ endsWith: 'abc' }, [failed('spec.endsWith', "self.endsWith('z')", '"abc"')]],
        [{ lower: 'aB' }, [failed('spec.lower', 'self.lowerAscii() == self', '"aB"')]],
        [{ upper: 'aB' }, [failed('spec.upper', 'self.upperAscii() == self', '"aB"')]],
        [{ split: 'a' }, [failed('spec.split', "self.split(',').size() == 2", '"a"')]],
        [{ trim: ' a ' }, [failed('spec.trim', 'self.trim() == self', '" a "')]],
        [{ replace: 'cat' }, [failed('spec.replace', "self.replace('a', 'b') == self", '"cat"')]],
        [{ indexOf: 'ax' }, [failed('spec.indexOf', "self.indexOf('x') == 0", '"ax"')]],
        [{ substring: 'ba' }, [failed('spec.substring', "self.substring(0, 2) == 'ab'", '"ba"')]],
        [{ size: 'abcd' }, [failed('spec.size', 'size(self) < 4', '"abcd"')]],
        [{ toInt: '-5' }, [failed('spec.toInt', 'int(self) > 0', '"-5"')]],
        [{ toString: 100 }, [failed('spec.toString', 'string(self).size() < 3', '100')]],
        [{ toDouble: 2 }, [failed('spec.toDouble', 'double(self) < 1.5', '2')]],
        [{ dur: '2h' }, [failed('spec.dur', "duration(self) < duration('1h')", '"2h"')]],
        [{ time: '2019-01-01T00:00:00Z' }, [failed('spec.time', "timestamp(self) > timestamp('2020-01-01T00:00:00Z')", '"2019-01-01T00:00:00Z"')]],
        [{ inList: 'c' }, [failed('spec.inList', "self in ['a', 'b']", '"c"')]],
        [{ inMap: 'c' }, [failed('spec.inMap', "self in {'a': 1, 'b': 2}", '"c"')]],
      ]);
      await acceptedOnCreate(backend(), 'Widget', [
        [{ pair: { b: 'y' } }, { pair: { b: 'y' } }],
        [{ tern: { mode: 'big', n: 50 } }, { tern: { mode: 'big', n: 50 } }],
        [{ split: 'a,b', join: ['a', 'b'], dur: '30m', time: '2021-06-01T00:00:00Z', toInt: '7' }, { dur: '30m', join: ['a', 'b'], split: 'a,b', time: '2021-06-01T00:00:00Z', toInt: '7' }],
      ]);
    });

    test('runtime errors: the value shown is the node\'s schema type, then `<error> evaluating rule: <message, else rule>`', async () => {
      await backend().applyCrd(widgetCrd);
      await refusedOnCreate(backend(), 'Widget', [
        [{ missing: { other: 1 } }, [evaluationError('spec.missing', 'object', 'no such key: missing', 'self.missing == 1')]],
        [{ missing: { missing: 2 } }, [failed('spec.missing', 'self.missing == 1')]],
        [{ missingMsg: { a: 1 } }, [evaluationError('spec.missingMsg', 'object', 'no such key: b', 'a must exceed b')]],
        [{ divide: { a: 1, b: 0 } }, [evaluationError('spec.divide', 'object', 'division by zero', 'self.a / self.b > 0')]],
        [{ index: [1] }, [evaluationError('spec.index', 'array', 'index out of bounds: 2', 'self[2] == 1')]],
        [{ toInt: 'abc' }, [evaluationError('spec.toInt', 'string', "type conversion error from 'string' to 'int'", 'int(self) > 0')]],
        [{ dur: 'xyz' }, [evaluationError('spec.dur', 'string', "type conversion error from 'string' to 'google.protobuf.Duration'", "duration(self) < duration('1h')")]],
        [{ time: 'nope' }, [evaluationError('spec.time', 'string', "type conversion error from 'string' to 'google.protobuf.Timestamp'", "timestamp(self) > timestamp('2020-01-01T00:00:00Z')")]],
        // int-or-string has no schema type: the value shown is "".
        [{ portDivide: 0 }, [evaluationError('spec.portDivide', '', 'division by zero', 'type(self) == string || 10 / self > 1')]],
      ]);
    });

    test('several broken rules: a node\'s rules in their order, then its properties\' rules; list items in index order', async () => {
      await backend().applyCrd(widgetCrd);
      await refusedOnCreate(backend(), 'Widget', [
        [{ several: { a: -1, b: -1 } }, [said('spec.several', 'first'), said('spec.several', 'second')]],
        [{ several: { a: 100, b: 100 } }, [said('spec.several', 'third'), said('spec.several', 'fourth')]],
        [{ several: { a: -1, b: 200 } }, [said('spec.several', 'first'), said('spec.several', 'fourth')]],
        [{ outer: { x: 0 } }, [said('spec.outer', 'x not zero'), said('spec.outer.x', 'x positive', '0')]],
        [{ outer: { x: 200 } }, [said('spec.outer', 'x small')]],
        [{ outer: { x: -1 } }, [said('spec.outer.x', 'x positive', '-1')]],
      ]);
    });

    test('rules at the root of the schema: the field is <nil>; they see metadata.name; a missing spec is a runtime error', async () => {
      await backend().applyCrd(rootCrd);
      const kc = backend().kubeConfig;
      const cases: Array<[string, unknown, Cause[]]> = [
        ['bad', { a: 'x', b: 'x' }, [failed('<nil>', "self.metadata.name.startsWith('ok')")]],
        ['ok', { a: 'x', b: 'y' }, [said('<nil>', 'a and b differ')]],
        ['bad', { a: 'x', b: 'y' }, [failed('<nil>', "self.metadata.name.startsWith('ok')"), said('<nil>', 'a and b differ')]],
        ['ok', undefined, [evaluationError('<nil>', 'object', 'no such key: spec', 'a and b differ')]],
        // required is a schema error: CEL does not run.
        ['ok', { a: 'x' }, [['FieldValueRequired', 'spec.b', 'Required value'], NOT_CHECKED]],
      ];
      for (const [prefix, spec, causes] of cases) {
        const { name, answer } = await create(backend(), 'Root', spec, unique(prefix));
        assert.deepEqual(answered(answer), invalid('Root', name, causes), `${prefix} ${JSON.stringify(spec)}`);
        assert.equal(await backend().get(API_VERSION, 'Root', name), undefined);
      }
      const { name, answer } = await create(backend(), 'Root', { a: 'x', b: 'x' }, unique('ok'));
      assertOk(answer, 201);
      const renamed = await raw(kc, 'PUT', `${collection('Root')}/${name}`, objectText('Root', name, { a: 'y', b: 'z' }, resourceVersion(answer.body)));
      assert.deepEqual(answered(renamed), invalid('Root', name, [said('<nil>', 'a and b differ')]), 'an update too');
      assert.deepEqual((await backend().get(API_VERSION, 'Root', name))?.spec, { a: 'x', b: 'x' });
    });

    test('transition rules: not evaluated on create or when the old value is absent; an update that breaks one is refused; optionalOldSelf is evaluated on create', async () => {
      await backend().applyCrd(gadgetCrd);
      const kc = backend().kubeConfig;
      // Create: rules with oldSelf do not run (sticky.a could be anything); the other rules of a node do.
      const { name, answer } = await create(backend(), 'Gadget', { fixed: 'one', fixedNoMsg: 'one', sticky: { a: 5 }, mixed: 3 });
      assertOk(answer, 201);
      const merge = (spec: unknown): Promise<RawAnswer> => mergeSpec(backend(), 'Gadget', name, spec);
      assert.deepEqual(answered(await merge({ fixed: 'two' })), invalid('Gadget', name, [said('spec.fixed', 'is immutable', '"two"')]));
      assert.deepEqual(answered(await merge({ fixedNoMsg: 'two' })), invalid('Gadget', name, [failed('spec.fixedNoMsg', 'self == oldSelf', '"two"')]));
      const current = await backend().get(API_VERSION, 'Gadget', name);
      const put = await raw(kc, 'PUT', `${collection('Gadget')}/${name}`, objectText('Gadget', name, { ...current?.spec, fixed: 'three' }, resourceVersion(current ?? {})));
      assert.deepEqual(answered(put), invalid('Gadget', name, [said('spec.fixed', 'is immutable', '"three"')]), 'PUT');

      const kept = await merge({ fixed: 'one', sticky: { a: 6 } });
      assertOk(kept);
      assert.deepEqual(kept.body['spec'], { fixed: 'one', fixedNoMsg: 'one', mixed: 3, sticky: { a: 6 } });
      assert.deepEqual(answered(await merge({ sticky: { a: 1 } })), invalid('Gadget', name, [said('spec.sticky', 'may not decrease')]));
      assertOk(await merge({ sticky: { b: 'x' } }));
      // Removed, then set again: the old value is absent, so `self == oldSelf` does not run.
      assertOk(await merge({ fixed: null }));
      const readded = await merge({ fixed: 'four' });
      assertOk(readded);
      assert.deepEqual(readded.body['spec'], { fixed: 'four', fixedNoMsg: 'one', mixed: 3, sticky: { a: 6, b: 'x' } });

      // Two rules on one node, one with oldSelf: both run on update, in their order.
      assert.deepEqual(answered(await merge({ mixed: -1 })), invalid('Gadget', name, [said('spec.mixed', 'not negative', '-1'), said('spec.mixed', 'may not decrease', '-1')]));
      assert.deepEqual(answered(await merge({ mixed: 1 })), invalid('Gadget', name, [said('spec.mixed', 'may not decrease', '1')]));

      // optionalOldSelf: evaluated with oldSelf = none where there is no old value, on an update as on a create.
      const mustStart = (value: string): Cause => said('spec.optional', 'must start with init when first set', value);
      assert.deepEqual(answered(await merge({ optional: 'nope' })), invalid('Gadget', name, [mustStart('"nope"')]));
      assertOk(await merge({ optional: 'initial' }));
      const changed = await merge({ optional: 'changed' });
      assertOk(changed);
      assert.deepEqual(changed.body['spec'], { fixed: 'four', fixedNoMsg: 'one', mixed: 3, optional: 'changed', sticky: { a: 6, b: 'x' } });
      assert.deepEqual((await backend().get(API_VERSION, 'Gadget', name))?.spec, changed.body['spec']);

      await refusedOnCreate(backend(), 'Gadget', [
        [{ optional: 'x' }, [mustStart('"x"')]],
        [{ mixed: -5 }, [said('spec.mixed', 'not negative', '-5')]],
      ]);
      await acceptedOnCreate(backend(), 'Gadget', [[{ optional: 'init-1', sticky: { a: -100 } }, { optional: 'init-1', sticky: { a: -100 } }]]);
    });

    test('transition rules on the items of a list-type map: an item is compared with the old item of its key, wherever it moved; a new key has no old item', async () => {
      await backend().applyCrd(mixerCrd);
      const { name, answer } = await create(backend(), 'Mixer', { entries: [{ k: 'a', v: 1 }, { k: 'b', v: 2 }] });
      assertOk(answer, 201);
      const merge = (spec: unknown): Promise<RawAnswer> => mergeSpec(backend(), 'Mixer', name, spec);
      assert.deepEqual(answered(await merge({ entries: [{ k: 'a', v: 5 }, { k: 'b', v: 2 }] })), invalid('Mixer', name, [said('spec.entries[0]', 'v is immutable')]));
      assert.deepEqual(answered(await merge({ entries: [{ k: 'c', v: 9 }, { k: 'b', v: 3 }, { k: 'a', v: 1 }] })), invalid('Mixer', name, [said('spec.entries[1]', 'v is immutable')]));
      const moved = await merge({ entries: [{ k: 'c', v: 9 }, { k: 'b', v: 2 }, { k: 'a', v: 1 }] });
      assertOk(moved);
      assert.deepEqual(moved.body['spec'], { entries: [{ k: 'c', v: 9 }, { k: 'b', v: 2 }, { k: 'a', v: 1 }] });
    });

    test('schema errors of type, required, enum, maxLength and maxItems keep CEL from running (one more cause, field <nil>); maximum and pattern do not (their cause comes first)', async () => {
      await backend().applyCrd(mixerCrd);
      await refusedOnCreate(backend(), 'Mixer', [
        [
          { typed: { n: 'x', s: 'no' } },
          [['FieldValueTypeInvalid', 'spec.typed.n', 'Invalid value: "string": spec.typed.n in body must be of type integer: "string"'], NOT_CHECKED],
        ],
        [
          { typed: { n: 1.5, s: 'no' } },
          [
            ['FieldValueTypeInvalid', 'spec.typed.n', 'Invalid value: "number": spec.typed.n in body must be of type integer: "number"'],
            ['FieldValueInvalid', '<nil>', 'Invalid value: "": Checked value must be of type integer (default format) in spec.typed.n'],
            NOT_CHECKED,
          ],
        ],
        // A type error where no rule is: CEL does not run anywhere (capped: 3 breaks its rule).
        [{ plain: 5, capped: 3 }, [['FieldValueTypeInvalid', 'spec.plain', 'Invalid value: "integer": spec.plain in body must be of type string: "integer"'], NOT_CHECKED]],
        [{ short: 'bcde' }, [['FieldValueTooLong', 'spec.short', 'Too long: may not be more than 3 bytes'], NOT_CHECKED]],
        [{ picked: 'd' }, [['FieldValueNotSupported', 'spec.picked', 'Unsupported value: "d": supported values: "a", "b", "c"'], NOT_CHECKED]],
        [{ few: ['a', 'b', 'z'] }, [['FieldValueTooMany', 'spec.few', 'Too many: 3: must have at most 2 items'], NOT_CHECKED]],
        // Not blocking: the schema error, then the rule's.
        [{ capped: 12 }, [['FieldValueInvalid', 'spec.capped', 'Invalid value: 12: spec.capped in body should be less than or equal to 10']]],
        [
          { capped: 11 },
          [['FieldValueInvalid', 'spec.capped', 'Invalid value: 11: spec.capped in body should be less than or equal to 10'], failed('spec.capped', 'self % 2 == 0', '11')],
        ],
        [{ coded: 'B' }, [['FieldValueInvalid', 'spec.coded', `Invalid value: "B": spec.coded in body should match '^[a-z]+$'`], failed('spec.coded', "self.startsWith('a')", '"B"')]],
        // The rules alone.
        [{ coded: 'b' }, [failed('spec.coded', "self.startsWith('a')", '"b"')]],
        [{ short: 'b' }, [failed('spec.short', "self.startsWith('a')", '"b"')]],
        [{ picked: 'c' }, [failed('spec.picked', "self != 'c'", '"c"')]],
        [{ few: ['z'] }, [failed('spec.few', "self.all(x, x != 'z')")]],
        [{ typed: { n: 1, s: 'no' } }, [failed('spec.typed', "self.s == 'ok'")]],
        // Defaults are applied before the rules run; a null (nullable) value is not validated, a non-null one is.
        [{ defaulted: {} }, [failed('spec.defaulted', 'self.a > 0')]],
        [{ maybe: 'x' }, [failed('spec.maybe', "self != 'x'", '"x"')]],
      ]);
      await acceptedOnCreate(backend(), 'Mixer', [
        [{ maybe: null }, { maybe: null }],
        [{ defaulted: { a: 1 } }, { defaulted: { a: 1 } }],
      ]);
    });

    test('an object that keeps every rule is created and stored as sent', async () => {
      await backend().applyCrd(widgetCrd);
      const spec = {
        scale: { minReplicas: 1, maxReplicas: 2 },
        scaleMsg: { minReplicas: 2, maxReplicas: 2, name: 'web' },
        name: 'alice',
        even: 4,
        ratio: 1.5,
        flag: true,
        port: 'http',
        portName: 'pod',
        positives: [1, 2],
        few: ['a', 'b', 'c'],
        hasA: ['b', 'a'],
        oneA: ['a', 'b'],
        doubled: [1, 4],
        filtered: [1, 5],
        sorted: [1, 1, 2],
        summed: [1, 2, 6],
        itemRule: [1, 2],
        objItems: [{ a: 1, b: 2 }],
        keysA: { ab: 'x' },
        needsX: { x: '' },
        mapValues: { a: 1, 'b.c': 2 },
        matches: 'abc',
        contains: 'xyz',
        endsWith: 'baz',
        lower: 'ab',
        upper: 'AB',
        trim: 'a',
        replace: 'bob',
        indexOf: 'xa',
        substring: 'abc',
        size: 'abc',
        toString: 99,
        toDouble: 1,
        inList: 'b',
        inMap: 'a',
        missing: { missing: 1 },
        divide: { a: 2, b: 1 },
        index: [0, 0, 1],
        several: { a: 1, b: 99 },
        outer: { x: 1 },
      };
      await acceptedOnCreate(backend(), 'Widget', [[spec, spec]]);
    });

    test('the status subresource validates the rules of status; the main resource ignores status', async () => {
      await backend().applyCrd(mixerCrd);
      const kc = backend().kubeConfig;
      const { name, answer } = await create(backend(), 'Mixer', { capped: 2 });
      assertOk(answer, 201);
      const status = (body: unknown, sub = '/status'): Promise<RawAnswer> => raw(kc, 'PATCH', `${collection('Mixer')}/${name}${sub}`, JSON.stringify({ status: body }), MERGE);
      assert.deepEqual(answered(await status({ phase: 'Bad' })), invalid('Mixer', name, [failed('status.phase', "self != 'Bad'", '"Bad"')]));
      const good = await status({ phase: 'Good' });
      assertOk(good);
      assert.deepEqual(good.body['status'], { phase: 'Good' });
      const main = await status({ phase: 'Bad' }, '');
      assertOk(main);
      assert.deepEqual(main.body['status'], { phase: 'Good' }, 'the main resource does not change status');
    });

    test('ratcheting: after rules are added, a node left unchanged is let through with a Warning (its error text); a changed node is refused; rules with oldSelf and nodes whose descendants changed are not ratcheted', async () => {
      const kc = backend().kubeConfig;
      await backend().applyCrd(gearCrd(false));
      const one = await create(backend(), 'Gear', { limit: 10, label: 'a', inner: { a: 5, b: 1 }, tags: ['long1', 'ok'], fixed: 'old' });
      assertOk(one.answer, 201);
      const two = await create(backend(), 'Gear', { limit: 1, label: 'frozen' });
      assertOk(two.answer, 201);

      await backend().applyCrd(gearCrd(true));
      // kube-apiserver serves the new rules a moment after the CRD update: wait until a new Gear of limit 10 is refused.
      await waitFor('the rules', async () => (await create(backend(), 'Gear', { limit: 10, label: 'x' }, unique('gear'), '?dryRun=All')).answer.status === 422, 10_000);

      const limit = (value: number): Cause => failed('spec.limit', 'self <= 5', String(value));
      const inner = failed('spec.inner', 'self.a <= self.b');
      const tag = (index: number): Cause => failed(`spec.tags[${index}]`, 'size(self) <= 3', '"long1"');
      const notOld = said('spec.fixed', 'not old', '"old"');
      // A warning is the cause as `<field>: <message>`; kube-apiserver sends them in Go's random map order.
      const warnings = (...causes: Cause[]): string[] => causes.map(([, field, message]) => `${field}: ${message}`).sort();
      const warned = (answer: RawAnswer): string[] => [...answer.warnings].sort();
      const merge = (name: string, spec: unknown): Promise<RawAnswer> => mergeSpec(backend(), 'Gear', name, spec);

      const relabeled = await merge(one.name, { label: 'b' });
      assertOk(relabeled);
      assert.deepEqual(warned(relabeled), warnings(limit(10), inner, tag(0), notOld));
      assert.deepEqual(relabeled.body['spec'], { fixed: 'old', inner: { a: 5, b: 1 }, label: 'b', limit: 10, tags: ['long1', 'ok'] });

      // A refusal carries the warnings of the other unchanged nodes.
      const tooHigh = await merge(one.name, { limit: 11 });
      assert.deepEqual(answered(tooHigh), invalid('Gear', one.name, [limit(11)]));
      assert.deepEqual(warned(tooHigh), warnings(inner, tag(0), notOld));
      const stillOut = await merge(one.name, { inner: { b: 2 } });
      assert.deepEqual(answered(stillOut), invalid('Gear', one.name, [inner]));
      assert.deepEqual(warned(stillOut), warnings(limit(10), tag(0), notOld));
      // An atomic list that changes is validated whole: its unchanged item is refused too.
      const added = await merge(one.name, { tags: ['long1', 'ok', 'x'] });
      assert.deepEqual(answered(added), invalid('Gear', one.name, [tag(0)]));
      assert.deepEqual(warned(added), warnings(limit(10), inner, notOld));
      assert.deepEqual(answered(await merge(one.name, { tags: ['ok', 'long1'] })), invalid('Gear', one.name, [failed('spec.tags[1]', 'size(self) <= 3', '"long1"')]));
      // A transition rule is never ratcheted; the node's other broken rule still warns when the value is unchanged.
      const refixed = await merge(one.name, { fixed: 'new' });
      assert.deepEqual(answered(refixed), invalid('Gear', one.name, [said('spec.fixed', 'is immutable', '"new"')]));
      assert.deepEqual(warned(refixed), warnings(limit(10), inner, tag(0)));

      // The same object again, through PUT and through /status: 200 with every warning.
      const current = await backend().get(API_VERSION, 'Gear', one.name);
      const same = await raw(kc, 'PUT', `${collection('Gear')}/${one.name}`, objectText('Gear', one.name, current?.spec, resourceVersion(current ?? {})));
      assertOk(same);
      assert.deepEqual(warned(same), warnings(limit(10), inner, tag(0), notOld));
      const statusPut = await raw(kc, 'PUT', `${collection('Gear')}/${one.name}/status`, objectText('Gear', one.name, current?.spec, resourceVersion(same.body)));
      assertOk(statusPut);
      assert.deepEqual(warned(statusPut), warnings(limit(10), inner, tag(0), notOld), '/status evaluates the rules of spec too, ratcheted');

      // A rule on spec: any change under spec changes spec, so the rule is enforced; an unchanged spec warns.
      const frozen = await merge(two.name, { limit: 2 });
      assert.deepEqual(answered(frozen), invalid('Gear', two.name, [said('spec', 'label may not be frozen')]));
      assert.deepEqual(frozen.warnings, []);
      const untouched = await merge(two.name, {});
      assertOk(untouched);
      assert.deepEqual(untouched.warnings, ['spec: Invalid value: label may not be frozen']);

      // Once valid, the old invalid value is refused like any other.
      const fixed = await merge(one.name, { limit: 4 });
      assertOk(fixed);
      assert.deepEqual(answered(await merge(one.name, { limit: 10 })), invalid('Gear', one.name, [limit(10)]));
      assert.deepEqual((await backend().get(API_VERSION, 'Gear', one.name))?.spec, { fixed: 'old', inner: { a: 5, b: 1 }, label: 'b', limit: 4, tags: ['long1', 'ok'] });
      assert.deepEqual((await backend().get(API_VERSION, 'Gear', two.name))?.spec, { label: 'frozen', limit: 1 });
    });
  });
}
