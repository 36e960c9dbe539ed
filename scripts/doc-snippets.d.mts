// Types of scripts/doc-snippets.mjs, for the test that runs the blocks it finds.
export type SnippetKind = 'program' | 'server' | 'test' | 'fragment';

export interface Snippet {
  /** The markdown file, relative to the repository root. */
  readonly file: string;
  /** The line of the opening fence. */
  readonly line: number;
  readonly kind: SnippetKind;
  readonly code: string;
  readonly id: string;
  /** Where writeSnippets wrote it. */
  path: string;
}

export const KINDS: readonly SnippetKind[];
export function markdownFiles(root?: string): string[];
export function findSnippets(root?: string): Snippet[];
export function writeSnippets(outDir: string, options?: { source?: boolean; root?: string }): Snippet[];
