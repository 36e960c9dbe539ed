// The problems a definition text is refused with: the one way definition tests read a load error.
import assert from 'node:assert/strict';
import { parseDefinition } from '../../src/definition/index.js';
import { DefinitionError, type DefinitionProblem } from '../../src/errors.js';

/** Parses `text` (as the file `source`) and returns its problems; fails the test when it loads. */
export function loadProblems(text: string, source = 'k.yaml'): DefinitionProblem[] {
  try {
    parseDefinition(text, { source });
  } catch (error) {
    assert.ok(error instanceof DefinitionError, `not a DefinitionError: ${String(error)}`);
    return [...error.problems];
  }
  return assert.fail('the definition loaded');
}
