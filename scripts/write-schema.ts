// Writes schema.json (the JSON Schema for editors) at the repository root from the TypeBox schemas.
// Run with `npm run schema`; test/definition/editor-schema.test.ts fails when the committed file is stale.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { editorSchemaText } from '../src/definition/editor-schema.js';

const target = join(dirname(fileURLToPath(import.meta.url)), '..', 'schema.json');
writeFileSync(target, editorSchemaText());
console.log(`wrote ${target}`);
