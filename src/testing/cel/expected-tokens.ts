/**
 * What cel-go's ANTLR parser says it expected where an operand may start, in its syntax errors (`mismatched input
 * '<EOF>' expecting {...}`): the default set, and the variants after an index's `[`, a call's `(`, a list's `[` and a
 * map's `{`, as kube-apiserver 1.37.2 words them.
 */

/** What ANTLR's parser for CEL expects where an operand starts, as its errors list it. */
const OPERAND_START = ["'['", "'{'", "'('", "'.'", "'-'", "'!'", "'true'", "'false'", "'null'", 'NUM_FLOAT', 'NUM_INT', 'NUM_UINT', 'STRING', 'BYTES', 'IDENTIFIER'];
export const OPERANDS = `{${OPERAND_START.join(', ')}}`;
/** After `[` of an index (`a[?b]` may follow), and as a call's first argument (`)` may close it). */
export const INDEX_OPERANDS = `{${[...OPERAND_START.slice(0, 6), "'?'", ...OPERAND_START.slice(6)].join(', ')}}`;
export const ARGUMENT_OPERANDS = `{${[...OPERAND_START.slice(0, 3), "')'", ...OPERAND_START.slice(3)].join(', ')}}`;
/** After the `[` of a list literal and the `{` of a map literal (an empty one, a trailing comma, an optional entry). */
export const LIST_OPERANDS = `{${["'['", "']'", "'{'", "'('", "'.'", "','", "'-'", "'!'", "'?'", ...OPERAND_START.slice(6)].join(', ')}}`;
export const MAP_OPERANDS = `{${["'['", "'{'", "'}'", "'('", "'.'", "','", "'-'", "'!'", "'?'", ...OPERAND_START.slice(6)].join(', ')}}`;
