/**
 * A codec turns one YAML node into a typed value, or reports a positioned error, and describes itself
 * as JSON Schema so the published schema and the parser come from the same definitions.
 */
import type { ParseContext } from './context.js';
import { describeNode, type PNode } from './node.js';

export type JsonSchema = { readonly [keyword: string]: unknown };

export const INVALID: unique symbol = Symbol('invalid');
export type Invalid = typeof INVALID;

export interface Codec<T> {
  /** What a valid value looks like, for "expected …" messages: `a duration such as 250ms`. */
  readonly expected: string;
  readonly schema: JsonSchema;
  decode(node: PNode, ctx: ParseContext): T | Invalid;
  /** Back to the YAML form, for defaults in the schema (`100ms`, not 100000). Identity when absent. */
  encode?(value: T): unknown;
}

/** Reports `message` at the node and gives up on it. */
export function reject(ctx: ParseContext, node: PNode, message: string): Invalid {
  ctx.error(node.pos, message);
  return INVALID;
}

/** The usual complaint: what was expected, what was found. */
export function mismatch(ctx: ParseContext, node: PNode, expected: string): Invalid {
  return reject(ctx, node, `expected ${expected}, found ${describeNode(node)}`);
}
