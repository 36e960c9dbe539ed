/**
 * A JSON patch request's body as kube-apiserver's PATCH handler decodes it (`handlers/patch.go` `applyJSPatch`).
 * Unless `fieldValidation=Ignore`, it first decodes the body strictly into its own `[]jsonPatchOp` (sigs.k8s.io/json,
 * case-sensitive; members `op`, `path`, `from` strings and `value` anything): a value of the wrong type is the 400
 * `error decoding patch: json: cannot unmarshal ...`, and unknown or repeated fields (in `value` too) are problems
 * (`json patch unknown field "[0].x"`) warned about or refused with the patched object's own
 * (field-validation.ts). Then the patch library decodes it (operations/json-patch-answers.ts), with the body's text
 * for the values its `test` compares by their text.
 */
import { goQuote } from '../go/go-values.js';
import { decodedJsonPatch } from '../operations/json-patch-answers.js';
import type { JsonPatch } from '../patch/json-patch.js';
import { rawElements, rawMembers, skipSpace } from '../patch/json-raw.js';
import { badRequest } from '../status-errors.js';
import type { FieldValidation } from './field-validation.js';

const OPERATION_FIELDS = new Set(['op', 'path', 'from', 'value']);
/** sigs.k8s.io/json keeps at most this many strict problems. */
const MAX_PROBLEMS = 100;

/** Go's name for the JSON type of a raw value. */
function kindOf(raw: string): 'object' | 'array' | 'string' | 'bool' | 'null' | 'number' {
  switch (raw[0]) {
    case '{':
      return 'object';
    case '[':
      return 'array';
    case '"':
      return 'string';
    case 't':
    case 'f':
      return 'bool';
    case 'n':
      return 'null';
    default:
      return 'number';
  }
}

/** What the strict decoding says of a JSON patch's text. */
export interface StrictJsonPatch {
  /** The value of the wrong type, in Go's words. */
  readonly error?: string;
  /** The unknown and duplicate fields, each once, in the text's order. */
  readonly problems: readonly string[];
  /** Whether a `value` repeats a key: written as sent, it makes the patched object repeat it too. */
  readonly repeatsInValues: boolean;
}

/** The strict decoding of a JSON patch's text. */
export function strictJsonPatch(text: string): StrictJsonPatch {
  const problems = new Set<string>();
  let repeatsInValues = false;
  const problem = (what: 'unknown field' | 'duplicate field', path: string): void => {
    if (problems.size < MAX_PROBLEMS) problems.add(`${what} ${goQuote(path)}`);
  };
  // A `value` decodes into an interface{}: only its repeated keys are problems.
  const repeated = (raw: string, path: string): void => {
    if (raw.startsWith('[')) rawElements(raw).forEach((element, index) => repeated(element, `${path}[${index}]`));
    if (!raw.startsWith('{')) return;
    const seen = new Set<string>();
    for (const [key, value] of rawMembers(raw)) {
      if (seen.has(key)) {
        problem('duplicate field', `${path}.${key}`);
        repeatsInValues = true;
      }
      seen.add(key);
      repeated(value, `${path}.${key}`);
    }
  };
  const top = text.slice(skipSpace(text, 0));
  const refused = (error: string): StrictJsonPatch => ({ error, problems: [], repeatsInValues: false });
  if (kindOf(top) === 'null') return { problems: [], repeatsInValues: false };
  if (kindOf(top) !== 'array') return refused(`json: cannot unmarshal ${kindOf(top)} into Go value of type []handlers.jsonPatchOp`);
  const elements = rawElements(top);
  for (const [index, element] of elements.entries()) {
    const kind = kindOf(element);
    if (kind === 'null') continue;
    if (kind !== 'object') return refused(`json: cannot unmarshal ${kind} into Go value of type handlers.jsonPatchOp`);
    const seen = new Set<string>();
    for (const [key, value] of rawMembers(element)) {
      if (!OPERATION_FIELDS.has(key)) {
        problem('unknown field', `[${index}].${key}`);
        continue;
      }
      if (seen.has(key)) problem('duplicate field', `[${index}].${key}`);
      seen.add(key);
      if (key === 'value') repeated(value, `[${index}].value`);
      else if (kindOf(value) !== 'string' && kindOf(value) !== 'null') {
        return refused(`json: cannot unmarshal ${kindOf(value)} into Go struct field jsonPatchOp.${key} of type string`);
      }
    }
  }
  return { problems: [...problems], repeatsInValues };
}

/** How the handler decodes the request's JSON patch (`patch`, parsed from `text`): 400 and 413 as there. */
export function jsonPatchDecoder(text: string, mode: FieldValidation): (patch: unknown) => JsonPatch {
  return (patch) => {
    if (mode !== 'Ignore') {
      const strict = strictJsonPatch(text);
      if (strict.error !== undefined) throw badRequest(`error decoding patch: ${strict.error}`);
    }
    return decodedJsonPatch(patch, text);
  };
}
