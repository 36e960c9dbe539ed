// The compile checks a ValidatingAdmissionPolicy's CEL gets when it is written (kinds/builtin/admission-policy-
// expressions.ts): what the conformance suite cannot show on both servers, the rule that nothing kube-apiserver
// compiles is refused here (a call of a function the type check does not know, a part of CEL the parser does not
// read, a comprehension variable named as an undeclared one), and how a variable's type reaches later expressions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileExpression, type CelScope, type VariableType } from '../../src/testing/kinds/builtin/admission-policy-expressions.js';

const SCOPE: CelScope = { params: false, authorizer: true, variables: undefined };

function refusal(text: string, scope: CelScope = SCOPE, want: 'bool' | 'string' | 'any' = 'bool'): string | undefined {
  return compileExpression(text, 'f', scope, want).problem?.message;
}

test('an expression whose type the check does not know is accepted, whatever kube-apiserver makes of it', () => {
  for (const text of ["'a'.lowerAscii() == 'a'", "authorizer.group('').resource('x').check('get').allowed()", 'object.?spec.orValue(true)', "quantity('1').isGreaterThan(quantity('0'))", 'cel.bind(x, 1, x == 1)']) {
    assert.equal(refusal(text), undefined, text);
  }
});

test('a comprehension variable named params is bound, not an undeclared reference', () => {
  assert.equal(refusal('object.items.all(params, params > 1)'), undefined);
  assert.match(refusal('object.items.all(x, x > params)') ?? '', /^Invalid value: ".*": compilation failed: ERROR: <input>:1:25: undeclared reference to 'params'/);
});

test('an undeclared reference is found at its own identifier, not at a field or a call of the same name', () => {
  const text = "object.params == 'x' && params.x == 1";
  assert.equal(refusal(text), `Invalid value: "${text}": compilation failed: ERROR: <input>:1:25: undeclared reference to 'params' (in container '')\n | ${text}\n | ${'.'.repeat(24)}^`);
});

test('a variable reaches later expressions with its type: a string, an object turned dyn, a failed one dyn', () => {
  const variables = new Map<string, VariableType>();
  for (const [name, text] of [['s', "'x'"], ['r', 'request'], ['bad', '1 +'], ['u', "'a'.lowerAscii()"]] as const) variables.set(name, compileExpression(text, 'f', { ...SCOPE, variables }, 'any').variable);
  const scope = { ...SCOPE, variables };
  assert.equal(refusal('variables.s', scope), 'Invalid value: "variables.s": must evaluate to bool but got string');
  assert.equal(refusal('variables.r', scope), 'Invalid value: "variables.r": must evaluate to bool but got dyn');
  assert.equal(refusal('variables.r.nope == 1', scope), undefined);
  assert.equal(refusal('variables.bad', scope), 'Invalid value: "variables.bad": must evaluate to bool but got dyn');
  // A type the check does not know stays unjudged.
  assert.equal(refusal('variables.u', scope), undefined);
  assert.equal(refusal('variables.s', scope, 'string'), undefined);
});
