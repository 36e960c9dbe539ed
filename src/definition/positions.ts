/**
 * YAML with positions. The text is parsed once with the `yaml` package's document API; while walking the node
 * tree we record, for every document path, where its key and its value start. Problems found later on the
 * plain value are placed back in the file through this index. For a string we also record how characters of
 * its content map to file columns, so that a template error can point at the exact character.
 */
import { LineCounter, parseDocument, isAlias, isMap, isScalar, isSeq, Scalar } from 'yaml';
import type { Node } from 'yaml';
import type { DefinitionProblem } from '../errors.js';
import { formatPath, type Path } from './path.js';

/** A 1-based place in a file. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/**
 * How the content of a string maps back to the file. `single`: the content is on one line starting at `start`,
 * character for character (a plain or quoted scalar without escapes). `block`: a literal block scalar; content
 * line n starts at `start.line + n - 1`, column `start.column`. Anything else (folded, escaped, multi-line flow)
 * maps only to the scalar's own start.
 */
export type ContentMap =
  | { readonly kind: 'single'; readonly start: Position }
  | { readonly kind: 'block'; readonly start: Position };

/** Where a value (and, for a map entry, its key) is written. */
export interface NodePosition {
  readonly value: Position;
  readonly key?: Position;
  readonly content?: ContentMap;
  /** The file it is written in, when not the document's own (a fragment spliced in by `include`). */
  readonly file?: string;
}

/** Document path (formatted) → position. Paths under an alias (`*ref`) resolve to the alias itself. */
export class PositionIndex {
  private readonly entries = new Map<string, NodePosition>();

  set(path: Path, position: NodePosition): void {
    this.entries.set(formatPath(path), position);
  }

  /**
   * Makes everything written under `from` also findable under `to` (used when a document written in another
   * shape is rewritten into ours, so that problems still point at what the user wrote). Existing entries under
   * `to` are kept.
   */
  alias(from: Path, to: Path): void {
    const source = formatPath(from);
    const target = formatPath(to);
    const moved: Array<[string, NodePosition]> = [];
    for (const [key, position] of this.entries) {
      if (key !== source && !(key.startsWith(source) && (source === '' || key[source.length] === '.' || key[source.length] === '['))) continue;
      const rest = key.slice(source.length);
      const joined = target === '' ? rest.replace(/^\./, '') : rest === '' ? target : `${target}${rest}`;
      moved.push([joined, position]);
    }
    for (const [key, position] of moved) if (!this.entries.has(key)) this.entries.set(key, position);
  }

  /** Entries at and under `path`, keyed by the rest of their formatted path (`''` for `path` itself). */
  subtree(path: Path): Map<string, NodePosition> {
    const prefix = formatPath(path);
    const found = new Map<string, NodePosition>();
    for (const [key, position] of this.entries) {
      if (key === prefix) found.set('', position);
      else if (prefix === '' || (key.startsWith(prefix) && (key[prefix.length] === '.' || key[prefix.length] === '['))) found.set(prefix === '' ? `.${key}` : key.slice(prefix.length), position);
    }
    return found;
  }

  /** Removes the entries at and under `path`. */
  clear(path: Path): void {
    const prefix = formatPath(path);
    for (const rest of this.subtree(path).keys()) this.entries.delete(join(prefix, rest));
  }

  /**
   * Sets entries under `path` from a {@link subtree} (of this index or another file's), replacing what is there;
   * `file` tags them with the file they are written in.
   */
  plant(path: Path, subtree: ReadonlyMap<string, NodePosition>, file?: string): void {
    const prefix = formatPath(path);
    for (const [rest, position] of subtree) this.entries.set(join(prefix, rest), file === undefined || position.file !== undefined ? position : { ...position, file });
  }

  /** The position of `path`, or of its nearest ancestor that has one (a missing field points at its parent). */
  find(path: Path): { readonly position: NodePosition; readonly exact: boolean } | undefined {
    for (let end = path.length; end >= 0; end--) {
      const position = this.entries.get(formatPath(path.slice(0, end)));
      if (position !== undefined) return { position, exact: end === path.length };
    }
    return undefined;
  }
}

/** A formatted path and the rest of one below it (`''`, `.key` or `[0]...`). */
function join(prefix: string, rest: string): string {
  return prefix === '' ? rest.replace(/^\./, '') : `${prefix}${rest}`;
}

/** A parsed YAML source: the plain value, where everything is, and the syntax problems (if any). */
export interface YamlSource {
  readonly value: unknown;
  readonly positions: PositionIndex;
  readonly problems: readonly DefinitionProblem[];
}

/**
 * Parses one YAML document. Syntax errors (including duplicate keys and a second document) become problems with
 * code `yaml-syntax`; the value is then whatever could be read and should not be trusted.
 */
export function parseYamlSource(text: string, file: string | undefined): YamlSource {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number): Position => {
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  };
  const problems: DefinitionProblem[] = doc.errors.map((error) => {
    const { line, column } = at(error.pos[0]);
    return { code: 'yaml-syntax', path: '', message: `YAML syntax error: ${error.message}`, ...(file === undefined ? {} : { file }), line, column };
  });
  const positions = new PositionIndex();
  const walk = (node: Node | null, path: Path, key: Position | undefined): void => {
    if (node === null) return;
    const range = node.range;
    const value = range === undefined || range === null ? key : at(range[0]);
    if (value === undefined) return;
    const content = isScalar(node) && range ? contentMap(node, text, range, at) : undefined;
    positions.set(path, { value, ...(key === undefined ? {} : { key }), ...(content === undefined ? {} : { content }) });
    if (isAlias(node)) return;
    if (isMap(node)) {
      for (const pair of node.items) {
        const keyNode = pair.key as Node | null;
        const name = isScalar(keyNode) ? String(keyNode.value) : String(keyNode);
        const keyRange = keyNode?.range;
        const keyAt = keyRange ? at(keyRange[0]) : value;
        const child = [...path, name];
        if (pair.value === null) positions.set(child, { value: keyAt, key: keyAt });
        else walk(pair.value as Node, child, keyAt);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => walk(item as Node | null, [...path, index], undefined));
    }
  };
  walk(doc.contents as Node | null, [], undefined);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    problems.push({ code: 'yaml-syntax', path: '', message: `YAML error: ${(error as Error).message}`, ...(file === undefined ? {} : { file }) });
    value = undefined;
  }
  return { value, positions, problems };
}

/** How the characters of a string scalar map to the file, when they do exactly. */
function contentMap(node: Scalar, text: string, range: readonly [number, number, number], at: (offset: number) => Position): ContentMap | undefined {
  if (typeof node.value !== 'string') return undefined;
  const value = node.value;
  const raw = text.slice(range[0], range[1]);
  const start = at(range[0]);
  switch (node.type) {
    case Scalar.PLAIN:
      return raw === value && !value.includes('\n') ? { kind: 'single', start } : undefined;
    case Scalar.QUOTE_DOUBLE:
      return raw === `"${value}"` && !/[\\\n"]/.test(value) ? { kind: 'single', start: { line: start.line, column: start.column + 1 } } : undefined;
    case Scalar.QUOTE_SINGLE:
      return raw === `'${value}'` && !/['\n]/.test(value) ? { kind: 'single', start: { line: start.line, column: start.column + 1 } } : undefined;
    case Scalar.BLOCK_LITERAL:
      return blockMap(raw, value, start);
    default:
      return undefined;
  }
}

/** A literal block maps exactly when every content line is the source line minus one common indentation. */
function blockMap(raw: string, value: string, start: Position): ContentMap | undefined {
  if (value.startsWith('\n')) return undefined;
  const sourceLines = raw.split('\n').slice(1); // drop the `|` header line; the rest are whole file lines
  const first = sourceLines.find((line) => line.trim() !== '');
  if (first === undefined) return undefined;
  const indent = first.length - first.trimStart().length;
  const valueLines = value.replace(/\n+$/, '').split('\n');
  const firstContent = sourceLines.indexOf(first);
  for (let i = 0; i < valueLines.length; i++) {
    const source = sourceLines[firstContent + i];
    const line = valueLines[i] ?? '';
    if (source === undefined) return undefined;
    if (line === '' ? source.trim() !== '' : source.slice(indent) !== line) return undefined;
  }
  return { kind: 'block', start: { line: start.line + 1 + firstContent, column: indent + 1 } };
}

/**
 * The file position of (line, column) inside a string's content (both 1-based), when the string maps exactly;
 * otherwise the string's own start.
 */
export function positionInContent(position: NodePosition, line: number, column: number): Position {
  const content = position.content;
  if (content === undefined) return position.value;
  if (content.kind === 'single') return line === 1 ? { line: content.start.line, column: content.start.column + column - 1 } : position.value;
  return { line: content.start.line + line - 1, column: content.start.column + column - 1 };
}
