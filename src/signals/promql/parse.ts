/**
 * PromQL text to the evaluator's tree, through lezer-promql (the grammar Prometheus' own web UI uses).
 * Syntax errors come from that parser; constructs outside the evaluated subset are refused by name.
 */
import { parser } from '@prometheus-io/lezer-promql';
import type { SyntaxNode } from '@lezer/common';
import { COMPARISONS, type BinaryOp, type Expr, type Matcher, type Selector } from './ast.js';
import { promDuration } from './duration.js';
import { labelRegexError } from './label-regex.js';

export type ParsedExpr =
  | { readonly ok: true; readonly expr: Expr }
  | { readonly ok: false; readonly at: number; readonly message: string };

/** Functions over a range vector, and over an instant vector or nothing. */
export const RANGE_FUNCTIONS = [
  'rate',
  'increase',
  'delta',
  'changes',
  'resets',
  'avg_over_time',
  'min_over_time',
  'max_over_time',
  'sum_over_time',
  'count_over_time',
  'last_over_time',
  'present_over_time',
] as const;
export const INSTANT_FUNCTIONS = ['abs', 'absent', 'time', 'vector'] as const;
const AGGREGATES = ['sum', 'min', 'max', 'avg', 'count'];

const BINARY: Readonly<Record<string, BinaryOp>> = {
  Add: '+',
  Sub: '-',
  Mul: '*',
  Div: '/',
  Mod: '%',
  Pow: '^',
  Eql: '==',
  Neq: '!=',
  Gtr: '>',
  Lss: '<',
  Gte: '>=',
  Lte: '<=',
  And: 'and',
  Or: 'or',
  Unless: 'unless',
};

class Refused extends Error {
  constructor(
    readonly at: number,
    message: string,
  ) {
    super(message);
  }
}

export function parsePromQL(text: string): ParsedExpr {
  const tree = parser.parse(text);
  let error: number | undefined;
  tree.iterate({
    enter(n) {
      if (error === undefined && n.type.isError) error = n.from;
    },
  });
  if (error !== undefined) {
    const near = text.slice(error, error + 12);
    const what = near === '' ? 'unexpected end of expression' : `unexpected ${JSON.stringify(near)}`;
    return { ok: false, at: error, message: `lezer-promql: syntax error at character ${error + 1}: ${what}` };
  }
  try {
    const top = tree.topNode.firstChild;
    if (top === null) return { ok: false, at: 0, message: 'lezer-promql: empty expression' };
    return { ok: true, expr: new Builder(text).expr(top) };
  } catch (e) {
    if (e instanceof Refused) return { ok: false, at: e.at, message: e.message };
    throw e;
  }
}

class Builder {
  constructor(private readonly text: string) {}

  private src(n: SyntaxNode): string {
    return this.text.slice(n.from, n.to);
  }

  private refuse(n: SyntaxNode, what: string): never {
    throw new Refused(
      n.from,
      `${what} is not in the PromQL subset lessor-sim evaluates (at ` +
        `character ${n.from + 1}: ${JSON.stringify(this.src(n).slice(0, 40))})`,
    );
  }

  private children(n: SyntaxNode): SyntaxNode[] {
    const out: SyntaxNode[] = [];
    for (let c = n.firstChild; c !== null; c = c.nextSibling) out.push(c);
    return out;
  }

  private duration(n: SyntaxNode): number {
    const us = promDuration(this.src(n));
    if (us === undefined) this.refuse(n, `duration ${JSON.stringify(this.src(n))}`);
    return us;
  }

  expr(n: SyntaxNode): Expr {
    switch (n.type.name) {
      case 'NumberDurationLiteral': {
        const v = Number(this.src(n));
        if (Number.isNaN(v) && !/^nan$/i.test(this.src(n))) this.refuse(n, 'a duration used as a number');
        return { kind: 'number', value: v };
      }
      case 'ParenExpr':
        return this.expr(this.children(n)[0]!);
      case 'VectorSelector':
        return this.selector(n, 0);
      case 'MatrixSelector':
        return this.matrix(n, 0);
      case 'OffsetExpr': {
        const [inner, , dur] = this.children(n);
        const off = this.duration(dur!);
        if (inner!.type.name === 'VectorSelector') return this.selector(inner!, off);
        if (inner!.type.name === 'MatrixSelector') return this.matrix(inner!, off);
        return this.refuse(n, 'offset on anything but a selector');
      }
      case 'UnaryExpr': {
        const [op, arg] = this.children(n);
        const e = this.expr(arg!);
        return this.src(op!) === '-' ? { kind: 'negate', arg: e } : e;
      }
      case 'FunctionCall':
        return this.call(n);
      case 'AggregateExpr':
        return this.aggregate(n);
      case 'BinaryExpr':
        return this.binary(n);
      default:
        return this.refuse(n, n.type.name);
    }
  }

  private selector(n: SyntaxNode, offsetUs: number): Selector {
    let name: string | undefined;
    const matchers: Matcher[] = [];
    for (const c of this.children(n)) {
      if (c.type.name === 'Identifier') name = this.src(c);
      else if (c.type.name === 'LabelMatchers') {
        for (const m of this.children(c)) {
          const [label, op, value] = this.children(m);
          if (m.type.name !== 'UnquotedLabelMatcher' || label === undefined || op === undefined || value === undefined)
            this.refuse(m, 'this label matcher');
          const v = this.string(value);
          const l = this.src(label);
          const o = this.src(op);
          const bad = o === '=~' || o === '!~' ? labelRegexError(v) : undefined;
          if (bad !== undefined)
            throw new Refused(value.from, `label regex at character ${value.from + 1} is not RE2 syntax: ${bad}`);
          if (l === '__name__' && this.src(op) === '=') name = v;
          else matchers.push({ label: l, op: this.src(op) as Matcher['op'], value: v });
        }
      }
    }
    if (name === undefined) this.refuse(n, 'a selector without a metric name');
    return { kind: 'selector', name, matchers, offsetUs, at: n.from };
  }

  private string(n: SyntaxNode): string {
    const s = this.src(n);
    if (s.startsWith('`')) return s.slice(1, -1);
    if (s.startsWith("'")) return JSON.parse(`"${s.slice(1, -1).replace(/\\'/g, "'").replace(/"/g, '\\"')}"`) as string;
    return JSON.parse(s) as string;
  }

  private matrix(n: SyntaxNode, offsetUs: number): Expr {
    const [sel, dur] = this.children(n);
    if (sel?.type.name !== 'VectorSelector' || dur === undefined) return this.refuse(n, 'this range selector');
    return { kind: 'matrix', selector: this.selector(sel, offsetUs), rangeUs: this.duration(dur) };
  }

  private call(n: SyntaxNode): Expr {
    const [id, body] = this.children(n);
    const fn = this.src(id!);
    const args = this.children(body!).map((a) => this.expr(a));
    const range = (RANGE_FUNCTIONS as readonly string[]).includes(fn);
    if (!range && !(INSTANT_FUNCTIONS as readonly string[]).includes(fn)) this.refuse(id!, `function ${fn}()`);
    const want = fn === 'time' ? 0 : 1;
    if (args.length !== want)
      throw new Refused(n.from, `${fn}() takes ${want} argument${want === 1 ? '' : 's'}, got ${args.length}`);
    if (range && args[0]!.kind !== 'matrix')
      throw new Refused(n.from, `${fn}() takes a range vector such as metric[1m]`);
    if (!range && args.some((a) => a.kind === 'matrix'))
      throw new Refused(n.from, `${fn}() takes an instant vector, not a range`);
    return { kind: 'call', fn, args };
  }

  private aggregate(n: SyntaxNode): Expr {
    let op = '';
    let grouping: { without: boolean; labels: string[] } | undefined;
    let arg: Expr | undefined;
    for (const c of this.children(n)) {
      if (c.type.name === 'AggregateOp') op = this.src(c);
      else if (c.type.name === 'AggregateModifier') {
        const [kw, labels] = this.children(c);
        grouping = { without: this.src(kw!) === 'without', labels: this.children(labels!).map((l) => this.src(l)) };
      } else if (c.type.name === 'FunctionCallBody') {
        const args = this.children(c);
        if (args.length !== 1) throw new Refused(c.from, `${op}() takes one argument`);
        arg = this.expr(args[0]!);
      }
    }
    if (!AGGREGATES.includes(op)) this.refuse(n, `aggregation ${op}`);
    if (arg === undefined || arg.kind === 'matrix') throw new Refused(n.from, `${op}() takes an instant vector`);
    return { kind: 'aggregate', op, grouping, arg };
  }

  private binary(n: SyntaxNode): Expr {
    const parts = this.children(n);
    const lhs = this.expr(parts[0]!);
    const rhs = this.expr(parts.at(-1)!);
    const op = BINARY[parts[1]!.type.name];
    if (op === undefined) return this.refuse(parts[1]!, `operator ${this.src(parts[1]!)}`);
    let bool = false;
    let matching: { on: boolean; labels: string[] } | undefined;
    for (const m of parts.slice(2, -1)) {
      if (m.type.name === 'BoolModifier') bool = true;
      else if (m.type.name === 'MatchingModifierClause') {
        const [kw, labels, ...rest] = this.children(m);
        if (rest.length > 0) this.refuse(m, 'group_left/group_right');
        matching = { on: this.src(kw!) === 'on', labels: this.children(labels!).map((l) => this.src(l)) };
      } else this.refuse(m, this.src(m));
    }
    if (lhs.kind === 'matrix' || rhs.kind === 'matrix')
      throw new Refused(n.from, `operator ${op} takes instant vectors or numbers, not a range`);
    const scalars = lhs.kind === 'number' && rhs.kind === 'number';
    if (COMPARISONS.includes(op) && scalars && !bool)
      throw new Refused(n.from, 'comparisons between numbers need the bool modifier');
    return { kind: 'binary', op, bool, matching, lhs, rhs };
  }
}
