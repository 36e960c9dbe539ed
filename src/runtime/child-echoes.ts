/**
 * Whether a CRD's reconcile must run again when a child's watch event only echoes the runtime's own last write of
 * that child (docs/performance.md, "The echo of a child write").
 *
 * Every apply of a child comes back as a watch event. It carries nothing the reconcile that wrote it did not already
 * know, unless something read the children *before* the write landed in the cache: a template or condition that reads
 * `.children` (a child created when another exists, say), a status field computed from the children, or code (hooks,
 * which may run before the templates, and constructors). For a CRD with none of these the echo is skipped, which halves
 * the reconciles of a new resource; any other event of the child (drift, another controller's status, a deletion)
 * still reconciles its parent. The check is textual and errs on the side of reconciling: the word `children` anywhere
 * in the operatorBox keeps the echoes.
 */
import type { CrdDefinition } from '../definition/types.js';
import type { ResolvedCode } from './code-registry.js';

export function needsChildEchoes(crd: CrdDefinition, code: ResolvedCode): boolean {
  if (!crd.operatorBox.default || code.hooks !== undefined || code.constructor !== undefined) return true;
  return JSON.stringify(crd.operatorBox).includes('children');
}
