/** The PromQL subset lessor-sim evaluates, as a small tree built from lezer-promql's syntax tree. */
import type { Micros } from '../../clock/time.js';

export interface Matcher {
  readonly label: string;
  readonly op: '=' | '!=' | '=~' | '!~';
  readonly value: string;
}

export interface Selector {
  readonly kind: 'selector';
  readonly name: string | undefined;
  readonly matchers: readonly Matcher[];
  readonly offsetUs: Micros;
  /** Character offset of the metric name in the expression, for "did you mean" messages. */
  readonly at: number;
}

export interface MatrixSelector {
  readonly kind: 'matrix';
  readonly selector: Selector;
  readonly rangeUs: Micros;
}

export type BinaryOp =
  | '+'
  | '-'
  | '*'
  | '/'
  | '%'
  | '^'
  | '=='
  | '!='
  | '>'
  | '<'
  | '>='
  | '<='
  | 'and'
  | 'or'
  | 'unless';
export const COMPARISONS: readonly BinaryOp[] = ['==', '!=', '>', '<', '>=', '<='];
export const SET_OPS: readonly BinaryOp[] = ['and', 'or', 'unless'];

export interface Matching {
  readonly on: boolean;
  readonly labels: readonly string[];
}

export type Expr =
  | { readonly kind: 'number'; readonly value: number }
  | Selector
  | MatrixSelector
  | { readonly kind: 'call'; readonly fn: string; readonly args: readonly Expr[] }
  | {
      readonly kind: 'aggregate';
      readonly op: string;
      readonly grouping: { readonly without: boolean; readonly labels: readonly string[] } | undefined;
      readonly arg: Expr;
    }
  | {
      readonly kind: 'binary';
      readonly op: BinaryOp;
      readonly bool: boolean;
      readonly matching: Matching | undefined;
      readonly lhs: Expr;
      readonly rhs: Expr;
    }
  | { readonly kind: 'negate'; readonly arg: Expr };

/** Every metric name an expression selects, with where it is written. */
export function selectorsOf(e: Expr): Selector[] {
  switch (e.kind) {
    case 'selector':
      return [e];
    case 'matrix':
      return [e.selector];
    case 'call':
      return e.args.flatMap(selectorsOf);
    case 'aggregate':
    case 'negate':
      return selectorsOf(e.arg);
    case 'binary':
      return [...selectorsOf(e.lhs), ...selectorsOf(e.rhs)];
    case 'number':
      return [];
  }
}
