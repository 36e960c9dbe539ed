// The TypeScript blocks of README.md and docs/*.md, as files a compiler can check and a test can run.
//
// The convention (docs/contributing-docs.md): the fence's info string says what a block is.
//   ```ts            a complete program: imports everything it uses, runs to completion and exits by itself
//   ```ts server     a complete program that serves until SIGTERM or SIGINT, then shuts down and exits by itself
//   ```ts test       a complete node:test file
//   ```ts fragment   a piece of a program: type-checked with the names of scripts/snippet-context.ts in scope
// `typescript` works as well as `ts`. Every block is type-checked; programs, servers and tests also run (in
// test/docs/snippets.test.ts against the sources, and in .ci/run's consumer check against the packed package).
//
// Usage: node scripts/doc-snippets.mjs <outDir> [--source]
//   writes one .ts file per block into <outDir>, the fragment context, a package.json and a strict tsconfig.json;
//   --source maps `katalog` and `katalog/testing` to this repository's src/ (what `npm test` checks), otherwise the
//   imports resolve to the installed package (what a user's project sees).
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const KINDS = ['program', 'server', 'test', 'fragment'];
const MARKERS = { '': 'program', server: 'server', test: 'test', fragment: 'fragment' };

/** The markdown files whose TypeScript blocks are checked: README.md and every docs/*.md page. */
export function markdownFiles(root = repo) {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => join(root, 'docs', name));
  return [join(root, 'README.md'), ...docs];
}

/**
 * Every TypeScript block: `{ file, line, kind, code, id }`, `file` relative to the root, `line` the fence's line.
 * Throws on a marker this convention does not know and on an unclosed fence, naming the file and line.
 */
export function findSnippets(root = repo) {
  const snippets = [];
  for (const path of markdownFiles(root)) {
    const file = relative(root, path);
    const lines = readFileSync(path, 'utf8').split('\n');
    let open; // { line, kind, language, body }
    lines.forEach((text, index) => {
      const fence = /^\s*(`{3,})\s*(.*)$/.exec(text);
      if (open !== undefined) {
        if (fence !== null && fence[2] === '' && fence[1].length >= open.ticks) {
          if (open.language) {
            const id = `${file.replace(/[^a-z0-9]+/gi, '-').replace(/-md$/, '')}-${open.line}`;
            snippets.push({ file, line: open.line, kind: open.kind, code: open.body.join('\n') + '\n', id });
          }
          open = undefined;
        } else {
          open.body.push(text);
        }
        return;
      }
      if (fence === null) return;
      const [language = '', ...markers] = fence[2].trim().split(/\s+/);
      const isTs = language === 'ts' || language === 'typescript';
      let kind = 'other';
      if (isTs) {
        kind = MARKERS[markers.join(' ')];
        if (kind === undefined) {
          throw new Error(`${file}:${index + 1}: unknown snippet marker "${markers.join(' ')}" (use one of: ts, ts server, ts test, ts fragment)`);
        }
      }
      open = { line: index + 1, ticks: fence[1].length, kind, language: isTs, body: [] };
    });
    if (open !== undefined) throw new Error(`${file}:${open.line}: code block never closed`);
  }
  return snippets;
}

const CONTEXT = 'snippet-context.ts';

/** The names scripts/snippet-context.ts exports, which fragments may use without declaring them. */
function contextNames() {
  const text = readFileSync(join(repo, 'scripts', CONTEXT), 'utf8');
  const names = new Set();
  for (const match of text.matchAll(/export declare (?:const|function) (\w+)/g)) names.add(match[1]);
  for (const match of text.matchAll(/export (?:type )?\{([^}]*)\}/g)) {
    for (const part of match[1].split(',')) {
      const name = part.trim().split(/\s+as\s+/).pop();
      if (name) names.add(name);
    }
  }
  return [...names];
}

/** A fragment, made a module that imports from the context the names it uses and does not declare itself. */
function fragmentSource(code, names) {
  const declares = (name) =>
    new RegExp(`\\b(?:const|let|var|function|class|interface|type|enum)\\s+${name}\\b`).test(code) ||
    new RegExp(`import\\s[^;]*\\b${name}\\b[^;]*\\bfrom\\b`).test(code) ||
    new RegExp(`[{,]\\s*${name}\\s*[,}][^=;]*=`).test(code); // destructured: const { a, b } = ...
  const used = names.filter((name) => new RegExp(`(?<![.\\w$])${name}\\b`).test(code) && !declares(name));
  const head = used.length > 0 ? `import { ${used.join(', ')} } from './${CONTEXT.replace(/\.ts$/, '.js')}';\n` : '';
  return `${head}export {};\n${code}`;
}

/** Writes every block into outDir (emptied first) and returns the snippets with their `path`. */
export function writeSnippets(outDir, { source = false, root = repo } = {}) {
  const snippets = findSnippets(root);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const names = contextNames();
  writeFileSync(join(outDir, CONTEXT), readFileSync(join(repo, 'scripts', CONTEXT), 'utf8'));
  for (const snippet of snippets) {
    snippet.path = join(outDir, `${snippet.id}${snippet.kind === 'test' ? '.test' : ''}.ts`);
    const banner = `// ${snippet.file}:${snippet.line} (${snippet.kind})\n`;
    writeFileSync(snippet.path, banner + (snippet.kind === 'fragment' ? fragmentSource(snippet.code, names) : snippet.code));
  }
  writeFileSync(join(outDir, 'package.json'), `${JSON.stringify({ private: true, type: 'module' }, null, 2)}\n`);
  // What a user's strict project uses: no skipLibCheck, so client-node's own typings are checked (they need @types/ws).
  // `lib` stays the default (it includes DOM): hono's typings refer to DOM types such as MessageEvent and CloseEvent.
  const compilerOptions = {
    target: 'ES2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    types: ['node'],
  };
  if (source) {
    // The package's own sources are written for ES2023 (tsconfig.json: `findLast`...); its built typings need no more
    // than the default lib, which the packaged check keeps.
    compilerOptions.lib = ['ES2023', 'DOM'];
    compilerOptions.paths = {
      katalog: [join(repo, 'src', 'index.ts')],
      'katalog/testing': [join(repo, 'src', 'testing', 'index.ts')],
    };
  }
  writeFileSync(join(outDir, 'tsconfig.json'), `${JSON.stringify({ compilerOptions, include: ['*.ts'] }, null, 2)}\n`);
  return snippets;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [outDir, ...flags] = process.argv.slice(2);
  if (outDir === undefined) {
    console.error('usage: node scripts/doc-snippets.mjs <outDir> [--source]');
    process.exit(2);
  }
  const snippets = writeSnippets(resolve(outDir), { source: flags.includes('--source') });
  for (const snippet of snippets) console.log(`${snippet.kind.padEnd(8)} ${snippet.file}:${snippet.line} -> ${relative(process.cwd(), snippet.path)}`);
}
