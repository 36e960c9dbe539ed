// Every invalid fixture, with the exact problems it must produce: code, file, line, column, path and message.
// A fixture file that is not in this table fails the last test, so no fixture goes unchecked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DefinitionError } from '../../src/errors.js';
import { loadDefinition } from '../../src/definition/load.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'definitions', 'invalid');

interface Expected {
  readonly code: string;
  /** Relative to the invalid/ folder; default: the fixture itself. */
  readonly file?: string;
  readonly line: number;
  readonly column: number;
  readonly path: string;
  readonly message: string;
}

const table: Readonly<Record<string, readonly Expected[]>> = {
  'bad-api-version.yaml': [
    { code: 'invalid-value', line: 1, column: 13, path: "apiVersion", message: 'must be one of "katalog.dev/v1", "orkestra.orkspace.io/v1", got "katalog.dev/v2"; did you mean "katalog.dev/v1"?' },
  ],
  'bad-dependency-condition.yaml': [
    { code: 'invalid-value', line: 10, column: 30, path: "spec.crds.web.dependsOn.database", message: 'must be one of "started", "healthy", got "ready"' },
  ],
  'condition-bad-operator.yaml': [
    { code: 'invalid-value', line: 14, column: 29, path: "spec.crds.web.operatorBox.onCreate.configMaps[0].when[0].operator", message: 'must be one of "eq", "neq", "gt", "lt", "gte", "lte", "contains", "prefix", "suffix", "exists", "notExists", "in", "equals", "notEquals", "greaterThan", "lessThan", "min", "max", got "equal"; did you mean "equals"?' },
  ],
  'condition-missing-value.yaml': [
    { code: 'missing-field', line: 13, column: 19, path: "spec.crds.web.operatorBox.onCreate.configMaps[0].anyOf[0].value", message: 'operator "eq" needs a value' },
    { code: 'invalid-value', line: 14, column: 64, path: "spec.crds.web.operatorBox.onCreate.configMaps[0].anyOf[1].value", message: 'value "many" is not a valid int' },
  ],
  'constructor-with-default-true.yaml': [
    { code: 'constructor-needs-default-false', line: 9, column: 9, path: "spec.crds.backup.operatorBox.constructor", message: 'a constructor is declared but operatorBox.default is not false; set default: false (a constructor replaces the template reconciler)' },
  ],
  'constructor-with-hooks.yaml': [
    { code: 'hooks-without-reconciler', line: 11, column: 9, path: "spec.crds.backup.operatorBox.hooks", message: 'hooks never run when operatorBox.default is false (the constructor owns reconcile); call that code from the constructor' },
    { code: 'finalizers-without-reconciler', line: 12, column: 9, path: "spec.crds.backup.operatorBox.finalizers", message: 'finalizers are not managed by the runtime when operatorBox.default is false; the constructor adds and removes its own' },
  ],
  'crd-name-too-long.yaml': [
    { code: 'invalid-name', line: 6, column: 13, path: "spec.crds[0].name", message: 'invalid CRD name "a-very-long-crd-name-that-goes-on-and-on-past-the-sixty-three-limit": must be a lowercase RFC 1123 label (a-z, 0-9 and "-", starting and ending with a letter or digit, at most 63 characters)' },
  ],
  'default-false-without-constructor.yaml': [
    { code: 'missing-constructor', line: 9, column: 18, path: "spec.crds.backup.operatorBox.default", message: 'operatorBox.default is false but no constructor is declared; add constructor: { function: <name> } or remove default: false' },
  ],
  'dependency-cycle.yaml': [
    { code: 'dependency-cycle', line: 8, column: 19, path: "spec.crds.a.dependsOn[0]", message: 'dependency cycle: a → b → c → a' },
  ],
  'disabled-dependency.yaml': [
    { code: 'disabled-dependency', line: 11, column: 20, path: "spec.crds.web.dependsOn.database", message: 'web depends on "database", which is disabled (enabled: false); enable it or disable web' },
  ],
  'duplicate-dependency.yaml': [
    { code: 'duplicate-dependency', line: 10, column: 23, path: "spec.crds.web.dependsOn[1]", message: '"db" is listed twice in dependsOn' },
  ],
  'duplicate-key.yaml': [
    { code: 'yaml-syntax', line: 8, column: 5, path: "", message: 'YAML syntax error: Map keys must be unique' },
  ],
  'duplicate-list-name.yaml': [
    { code: 'duplicate-crd', line: 10, column: 13, path: "spec.crds[2].name", message: 'CRD "web" is declared twice (first at spec.crds[0])' },
  ],
  'hooks-missing-function.yaml': [
    { code: 'missing-field', line: 9, column: 9, path: "spec.crds.web.operatorBox.hooks.function", message: 'missing required field "function" in hooks' },
    { code: 'invalid-type', line: 10, column: 26, path: "spec.crds.web.operatorBox.hooks.runHooksFirst", message: 'must be true or false, got "yes"' },
  ],
  'invalid-crd-name.yaml': [
    { code: 'invalid-name', line: 6, column: 5, path: "spec.crds.Web_Site", message: 'invalid CRD name "Web_Site": must be a lowercase RFC 1123 label (a-z, 0-9 and "-", starting and ending with a letter or digit, at most 63 characters)' },
  ],
  'invalid-duration.yaml': [
    { code: 'invalid-duration', line: 8, column: 15, path: "spec.crds.web.resync", message: 'invalid duration "30 seconds": expected a Go duration such as "30s", "1m30s" or "2h"' },
  ],
  'komposer-duplicate-crd.yaml': [
    { code: 'duplicate-crd', file: "support/web-b.yaml", line: 8, column: 5, path: "spec.crds.web", message: 'CRD "web" is declared in both "./support/web-a.yaml" and "./support/web-b.yaml"; each CRD must come from exactly one imported file (override it inline instead)' },
  ],
  'komposer-duplicate-import.yaml': [
    { code: 'duplicate-import', line: 8, column: 9, path: "spec.imports.files[1]", message: '"support/../support/web-a.yaml" is imported twice (also as "./support/web-a.yaml")' },
  ],
  'komposer-imports-komposer.yaml': [
    { code: 'komposer-imports-komposer', line: 6, column: 13, path: "spec.imports.files[0]", message: '"./support/inner-komposer.yaml" is a Komposer; a Komposer can import only Katalogs' },
  ],
  'komposer-missing-file.yaml': [
    { code: 'unreadable-file', line: 6, column: 35, path: "spec.imports.files[1]", message: 'cannot read "./support/nowhere.yaml": file not found' },
  ],
  'komposer-new-crd-without-api-types.yaml': [
    { code: 'missing-field', line: 10, column: 5, path: "spec.crds.extra.apiTypes", message: 'missing required field "apiTypes" in CRD "extra"' },
  ],
  'labels-not-strings.yaml': [
    { code: 'invalid-type', line: 8, column: 22, path: "spec.crds.web.fieldSelector", message: 'must be a string or a map, got a list' },
    { code: 'invalid-type', line: 13, column: 34, path: "spec.crds.web.operatorBox.onCreate.configMaps[0].labels.version", message: 'must be a string, got 2' },
  ],
  'many-problems.yaml': [
    { code: 'invalid-value', line: 7, column: 74, path: "spec.crds.web.apiTypes.plural", message: 'plural "Websites" must be lowercase' },
    { code: 'unknown-field', line: 7, column: 84, path: "spec.crds.web.apiTypes.scop", message: 'unknown field "scop" in apiTypes; did you mean "scope"?' },
    { code: 'invalid-value', line: 8, column: 16, path: "spec.crds.web.workers", message: 'must be at least 1, got -1' },
    { code: 'invalid-duration', line: 9, column: 15, path: "spec.crds.web.resync", message: 'invalid duration "soon": expected a Go duration such as "30s", "1m30s" or "2h"' },
    { code: 'unknown-dependency', line: 10, column: 19, path: "spec.crds.web.dependsOn[0]", message: 'web depends on "db", which is not a CRD of this definition' },
    { code: 'missing-constructor', line: 12, column: 18, path: "spec.crds.web.operatorBox.default", message: 'operatorBox.default is false but no constructor is declared; add constructor: { function: <name> } or remove default: false' },
  ],
  'missing-api-types.yaml': [
    { code: 'missing-field', line: 6, column: 5, path: "spec.crds.web.apiTypes", message: 'missing required field "apiTypes" in CRD "web"' },
  ],
  'missing-kind.yaml': [
    { code: 'missing-field', line: 1, column: 1, path: "kind", message: 'missing required field "kind" in the document (Katalog, Komposer or Motif)' },
  ],
  'missing-metadata-name.yaml': [
    { code: 'missing-field', line: 3, column: 1, path: "metadata.name", message: 'missing required field "name" in metadata' },
    { code: 'no-crds', line: 5, column: 15, path: "spec.crds", message: 'a Katalog must declare at least one CRD under spec.crds' },
  ],
  'motif-missing-input.yaml': [
    { code: 'missing-input', line: 9, column: 11, path: "spec.crds.blog.imports[0]", message: 'Motif "web" needs input "image" (required, no default); set it under with:' },
    { code: 'unknown-input', line: 10, column: 19, path: "spec.crds.blog.imports[0].with.prot", message: 'Motif "web" has no input "prot"; did you mean "port"?' },
  ],
  'motif-template-error.yaml': [
    { code: 'duplicate-input', file: "support/broken-motif.yaml", line: 6, column: 13, path: "inputs[1].name", message: 'input "image" is declared twice' },
    { code: 'template-syntax', file: "support/broken-motif.yaml", line: 9, column: 38, path: "resources.services[0].name", message: 'invalid template: unclosed action' },
  ],
  'motif-top-level.yaml': [
    { code: 'motif-not-importable', line: 2, column: 7, path: "kind", message: 'a Motif is only valid as an import (imports: [{motif: ./file.yaml}] in a CRD entry); load a Katalog or a Komposer' },
  ],
  'motif-wrong-kind.yaml': [
    { code: 'wrong-kind', line: 9, column: 18, path: "spec.crds.blog.imports[0].motif", message: '"./support/web-a.yaml" is a Katalog, not a Motif' },
    { code: 'unreadable-file', line: 10, column: 18, path: "spec.crds.blog.imports[1].motif", message: 'cannot read "./support/missing-motif.yaml": file not found' },
  ],
  'name-mismatch.yaml': [
    { code: 'name-mismatch', line: 7, column: 13, path: "spec.crds.web.name", message: 'name "website" differs from its key "web"; in map form the key is the name' },
  ],
  'not-a-map.yaml': [
    { code: 'invalid-type', line: 1, column: 1, path: "", message: 'a definition must be a map with apiVersion, kind, metadata and spec, got a list' },
  ],
  'partial-api-types.yaml': [
    { code: 'partial-api-types', line: 7, column: 7, path: "spec.crds.web.apiTypes", message: 'apiTypes is partially specified (missing version, plural): declare kind alone for a built-in kind, or all of group, version, kind and plural' },
  ],
  'queue-alias-conflict.yaml': [
    { code: 'alias-conflict', line: 10, column: 9, path: "spec.crds.web.queue.maxQueueDepth", message: 'queue.maxQueueDepth is an alias of queue.maxDepth; set only one of them' },
  ],
  'resources-missing-kind.yaml': [
    { code: 'missing-field', line: 11, column: 15, path: "spec.crds.web.operatorBox.onCreate.resources[0].kind", message: 'missing required field "kind" in resources[0]' },
  ],
  'self-dependency.yaml': [
    { code: 'dependency-cycle', line: 8, column: 19, path: "spec.crds.web.dependsOn[0]", message: 'dependency cycle: web → web' },
  ],
  'status-field-template.yaml': [
    { code: 'template-syntax', line: 12, column: 40, path: "spec.crds.web.operatorBox.status.fields[0].value", message: 'invalid template: unrecognized character in action: "}"' },
    { code: 'template-syntax', line: 14, column: 64, path: "spec.crds.web.operatorBox.status.fields[0].when[0].value", message: 'invalid template: unexpected {{end}}' },
  ],
  'template-syntax.yaml': [
    { code: 'template-syntax', line: 11, column: 42, path: "spec.crds.web.operatorBox.onCreate.deployments[0].name", message: 'invalid template: unclosed action' },
    { code: 'template-syntax', line: 12, column: 40, path: "spec.crds.web.operatorBox.onCreate.deployments[0].image", message: 'invalid template: missing command' },
    { code: 'template-syntax', line: 18, column: 25, path: "spec.crds.web.operatorBox.onCreate.configMaps[0].data[\"index.html\"]", message: 'invalid template: unexpected EOF: {{if}} has no {{end}}' },
  ],
  'templates-with-constructor.yaml': [
    { code: 'templates-without-reconciler', line: 11, column: 9, path: "spec.crds.backup.operatorBox.onCreate", message: 'onCreate templates are never applied when operatorBox.default is false (the constructor owns reconcile)' },
  ],
  'unknown-builtin-kind.yaml': [
    { code: 'unknown-builtin-kind', line: 7, column: 25, path: "spec.crds.settings.apiTypes.kind", message: 'apiTypes declares only kind "Configmap", which is not a built-in kind; declare group, version, kind and plural; did you mean "ConfigMap"?' },
  ],
  'unknown-crd-field.yaml': [
    { code: 'unknown-field', line: 8, column: 7, path: "spec.crds[0].worker", message: 'unknown field "worker" in CRD "web"; did you mean "workers"?' },
  ],
  'unknown-dependency.yaml': [
    { code: 'unknown-dependency', line: 10, column: 19, path: "spec.crds.web.dependsOn[0]", message: 'web depends on "databse", which is not a CRD of this definition; did you mean "database"?' },
    { code: 'unknown-dependency', line: 10, column: 28, path: "spec.crds.web.dependsOn[1]", message: 'web depends on "cache", which is not a CRD of this definition' },
  ],
  'unknown-kind.yaml': [
    { code: 'invalid-value', line: 2, column: 7, path: "kind", message: 'must be one of "Katalog", "Komposer", "Motif", got "Katalogue"; did you mean "Katalog"?' },
  ],
  'unknown-operatorbox-field.yaml': [
    { code: 'unknown-field', line: 9, column: 9, path: "spec.crds.web.operatorBox.onCreated", message: 'unknown field "onCreated" in operatorBox; did you mean "onCreate"?' },
    { code: 'unknown-field', line: 11, column: 9, path: "spec.crds.web.operatorBox.reconcileMode", message: 'unknown field "reconcileMode" in operatorBox' },
  ],
  'unknown-template-kind.yaml': [
    { code: 'unknown-field', line: 10, column: 11, path: "spec.crds.web.operatorBox.onReconcile.configmaps", message: 'unknown field "configmaps" in onReconcile; did you mean "configMaps"?' },
  ],
  'unknown-top-field.yaml': [
    { code: 'missing-field', line: 1, column: 1, path: "spec", message: 'missing required field "spec" in the document' },
    { code: 'unknown-field', line: 4, column: 1, path: "spce", message: 'unknown field "spce" in the document; did you mean "spec"?' },
  ],
  'workers-string.yaml': [
    { code: 'invalid-type', line: 8, column: 16, path: "spec.crds.web.workers", message: 'must be an integer, got "two"' },
  ],
  'workers-zero.yaml': [
    { code: 'invalid-value', line: 8, column: 16, path: "spec.crds.web.workers", message: 'must be at least 1, got 0' },
    { code: 'invalid-type', line: 9, column: 26, path: "spec.crds.web.queue.maxDepth", message: 'must be an integer, got 2.5' },
  ],
  'yaml-syntax.yaml': [
    { code: 'yaml-syntax', line: 9, column: 7, path: "", message: 'YAML syntax error: Flow map in block collection must be sufficiently indented and end with a }' },
  ],
  'duration-unit.yaml': [
    { code: 'invalid-duration', line: 8, column: 15, path: "spec.crds.web.resync", message: 'invalid duration "10d": expected a Go duration such as "30s", "1m30s" or "2h"' },
  ],
};

for (const [fixture, expected] of Object.entries(table)) {
  test(`invalid/${fixture}`, async () => {
    const error = await loadDefinition(join(dir, fixture)).then(
      () => assert.fail(`${fixture} loaded without error`),
      (e: unknown) => e,
    );
    assert.ok(error instanceof DefinitionError, String(error));
    assert.equal(error.code, 'E_DEFINITION');
    const actual = error.problems.map((p) => ({
      code: p.code,
      ...(p.file === undefined || relative(dir, p.file) === fixture ? {} : { file: relative(dir, p.file) }),
      line: p.line,
      column: p.column,
      path: p.path,
      message: p.message,
    }));
    assert.deepEqual(actual, expected);
    for (const problem of expected) assert.ok(error.message.includes(problem.message), 'the error message lists every problem');
  });
}

test('every invalid fixture has expectations', () => {
  const files = readdirSync(dir).filter((name) => name.endsWith('.yaml'));
  assert.ok(files.length >= 30);
  assert.deepEqual(files.filter((name) => !(name in table)), []);
});
