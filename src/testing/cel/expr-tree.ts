/**
 * Walking a parsed CEL expression (parser.ts's tree): the expressions directly inside one, and whether one reads a
 * variable.
 */
import type { Expr } from './parser.js';

/** The expressions directly inside `expr`. */
export function childExprs(expr: Expr): readonly Expr[] {
  switch (expr.k) {
    case 'literal':
    case 'ident':
      return [];
    case 'select':
      return [expr.operand];
    case 'index':
      return [expr.operand, expr.index];
    case 'call':
      return expr.target === undefined ? expr.args : [expr.target, ...expr.args];
    case 'list':
      return expr.items;
    case 'map':
      return expr.entries.flatMap((entry) => [entry.key, entry.value]);
    case 'construct':
      return expr.fields.map((field) => field.value);
    case 'conditional':
      return [expr.condition, expr.then, expr.otherwise];
    case 'and':
    case 'or':
      return [expr.left, expr.right];
    case 'comprehension':
      return expr.filter === undefined ? [expr.range, expr.step] : [expr.range, expr.filter, expr.step];
  }
}

/** Whether `expr` reads the variable `name` (a rule that reads `oldSelf` is a transition rule). */
export function readsVariable(expr: Expr, name: string): boolean {
  if (expr.k === 'ident') return expr.name === name;
  return childExprs(expr).some((inner) => readsVariable(inner, name));
}
