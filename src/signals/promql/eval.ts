/**
 * Evaluates the PromQL subset with Prometheus 2.x semantics over scraped series: instant selectors look
 * back 5 minutes and honour staleness markers; range selectors take samples in [t - range, t]; rate and
 * increase extrapolate as Prometheus' extrapolatedRate does; vector matching is one-to-one on all labels
 * but __name__ (or on/ignoring); comparisons filter unless `bool`.
 */
import { MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import type { Sample, Scraped } from '../sample.js';
import { labelRegexMatches } from './label-regex.js';
import { COMPARISONS, SET_OPS, type BinaryOp, type Expr, type Matcher, type Matching, type Selector } from './ast.js';

export const LOOKBACK_US: Micros = 5 * 60 * MICROS_PER_SECOND;

export type Labels = Readonly<Record<string, string>>;
export interface VSample {
  readonly labels: Labels;
  readonly v: number;
}
export type Value =
  | { readonly kind: 'scalar'; readonly v: number }
  | { readonly kind: 'vector'; readonly samples: readonly VSample[] };

export class PromqlEvalError extends Error {}

interface Indexed {
  readonly labels: Labels;
  readonly samples: readonly Sample[];
}

/** Scraped series indexed by name, with `__name__` among their labels as PromQL sees them. */
export class SeriesIndex {
  private readonly byName = new Map<string, Indexed[]>();

  constructor(scraped: readonly Scraped[]) {
    for (const s of scraped) {
      let list = this.byName.get(s.name);
      if (list === undefined) this.byName.set(s.name, (list = []));
      list.push({ labels: { __name__: s.name, ...s.labels }, samples: s.samples });
    }
  }

  select(sel: Selector): readonly Indexed[] {
    return (this.byName.get(sel.name!) ?? []).filter((s) =>
      sel.matchers.every((m) => matches(m, s.labels[m.label] ?? '')),
    );
  }
}

function matches(m: Matcher, v: string): boolean {
  switch (m.op) {
    case '=':
      return v === m.value;
    case '!=':
      return v !== m.value;
    case '=~':
      return labelRegexMatches(m.value, v);
    case '!~':
      return !labelRegexMatches(m.value, v);
  }
}

/** Samples with timestamps in [from, to]: the first index at or after `from` by binary search. */
function window(samples: readonly Sample[], from: Micros, to: Micros): Sample[] {
  let lo = 0;
  let hi = samples.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (samples[mid]!.t < from) lo = mid + 1;
    else hi = mid;
  }
  const out: Sample[] = [];
  for (let i = lo; i < samples.length && samples[i]!.t <= to; i++) out.push(samples[i]!);
  return out;
}

const dropName = (l: Labels): Labels => {
  const { __name__: _, ...rest } = l;
  return rest;
};

const key = (l: Labels): string =>
  Object.keys(l)
    .sort()
    .map((k) => `${k}\u0000${l[k]}`)
    .join('\u0001');

function signature(l: Labels, m: Matching | undefined): string {
  if (m === undefined) return key(dropName(l));
  const keep = Object.fromEntries(Object.entries(l).filter(([k]) => k !== '__name__' && m.labels.includes(k) === m.on));
  return key(keep);
}

export function evaluate(e: Expr, idx: SeriesIndex, t: Micros): Value {
  switch (e.kind) {
    case 'number':
      return { kind: 'scalar', v: e.value };
    case 'selector':
      return { kind: 'vector', samples: instant(e, idx, t) };
    case 'matrix':
      throw new PromqlEvalError('a range vector cannot be the result of an expression');
    case 'negate': {
      const v = evaluate(e.arg, idx, t);
      return v.kind === 'scalar'
        ? { kind: 'scalar', v: -v.v }
        : { kind: 'vector', samples: v.samples.map((s) => ({ labels: dropName(s.labels), v: -s.v })) };
    }
    case 'call':
      return call(e.fn, e.args, idx, t);
    case 'aggregate':
      return { kind: 'vector', samples: aggregate(e.op, e.grouping, vector(evaluate(e.arg, idx, t))) };
    case 'binary':
      return binary(e.op, e.bool, e.matching, evaluate(e.lhs, idx, t), evaluate(e.rhs, idx, t));
  }
}

function vector(v: Value): readonly VSample[] {
  if (v.kind !== 'vector') throw new PromqlEvalError('expected an instant vector, got a number');
  return v.samples;
}

function instant(sel: Selector, idx: SeriesIndex, t: Micros): VSample[] {
  const at = t - sel.offsetUs;
  const out: VSample[] = [];
  for (const s of idx.select(sel)) {
    const w = window(s.samples, at - LOOKBACK_US, at);
    const last = w.at(-1);
    if (last !== undefined && last.v !== 'stale') out.push({ labels: s.labels, v: last.v });
  }
  return out;
}

function call(fn: string, args: readonly Expr[], idx: SeriesIndex, t: Micros): Value {
  if (fn === 'time') return { kind: 'scalar', v: t / MICROS_PER_SECOND };
  const arg = args[0]!;
  if (arg.kind === 'matrix') {
    const at = t - arg.selector.offsetUs;
    const out: VSample[] = [];
    for (const s of idx.select(arg.selector)) {
      const points = window(s.samples, at - arg.rangeUs, at).filter(
        (p): p is { t: Micros; v: number } => p.v !== 'stale',
      );
      const v = overRange(fn, points, at - arg.rangeUs, at, arg.rangeUs);
      if (v !== undefined) out.push({ labels: fn === 'last_over_time' ? s.labels : dropName(s.labels), v });
    }
    return { kind: 'vector', samples: out };
  }
  const v = evaluate(arg, idx, t);
  if (fn === 'vector') {
    if (v.kind !== 'scalar') throw new PromqlEvalError('vector() takes a number');
    return { kind: 'vector', samples: [{ labels: {}, v: v.v }] };
  }
  const samples = vector(v);
  if (fn === 'abs')
    return { kind: 'vector', samples: samples.map((s) => ({ labels: dropName(s.labels), v: Math.abs(s.v) })) };
  // absent(): 1 with the selector's equality labels when nothing matches.
  if (samples.length > 0) return { kind: 'vector', samples: [] };
  const labels =
    arg.kind === 'selector'
      ? Object.fromEntries(arg.matchers.filter((m) => m.op === '=').map((m) => [m.label, m.value]))
      : {};
  return { kind: 'vector', samples: [{ labels, v: 1 }] };
}

function overRange(
  fn: string,
  p: readonly { t: Micros; v: number }[],
  start: Micros,
  end: Micros,
  rangeUs: Micros,
): number | undefined {
  if (p.length === 0) return undefined;
  const vals = p.map((x) => x.v);
  switch (fn) {
    case 'rate':
    case 'increase':
    case 'delta':
      return extrapolatedRate(p, start, end, rangeUs, fn !== 'delta', fn === 'rate');
    case 'changes':
    case 'resets': {
      let n = 0;
      for (let i = 1; i < vals.length; i++) {
        const [a, b] = [vals[i - 1]!, vals[i]!];
        if (fn === 'changes' ? a !== b && !(Number.isNaN(a) && Number.isNaN(b)) : b < a) n++;
      }
      return n;
    }
    case 'avg_over_time':
      return vals.reduce((a, b) => a + b, 0) / vals.length;
    case 'min_over_time':
      return Math.min(...vals);
    case 'max_over_time':
      return Math.max(...vals);
    case 'sum_over_time':
      return vals.reduce((a, b) => a + b, 0);
    case 'count_over_time':
      return vals.length;
    case 'last_over_time':
      return vals.at(-1)!;
    case 'present_over_time':
      return 1;
  }
  throw new PromqlEvalError(`unknown function ${fn}`);
}

/** Prometheus 2.x extrapolatedRate (promql/functions.go), in seconds. */
function extrapolatedRate(
  p: readonly { t: Micros; v: number }[],
  rangeStart: Micros,
  rangeEnd: Micros,
  rangeUs: Micros,
  isCounter: boolean,
  isRate: boolean,
): number | undefined {
  if (p.length < 2) return undefined;
  const first = p[0]!;
  const last = p.at(-1)!;
  let result = last.v - first.v;
  if (isCounter) {
    let prev = 0;
    for (const s of p) {
      if (s.v < prev) result += prev;
      prev = s.v;
    }
  }
  let durationToStart = (first.t - rangeStart) / MICROS_PER_SECOND;
  const durationToEnd = (rangeEnd - last.t) / MICROS_PER_SECOND;
  const sampled = (last.t - first.t) / MICROS_PER_SECOND;
  const averageBetween = sampled / (p.length - 1);
  if (isCounter && result > 0 && first.v >= 0) {
    const durationToZero = sampled * (first.v / result);
    if (durationToZero < durationToStart) durationToStart = durationToZero;
  }
  const threshold = averageBetween * 1.1;
  let extrapolateTo = sampled;
  extrapolateTo += durationToStart < threshold ? durationToStart : averageBetween / 2;
  extrapolateTo += durationToEnd < threshold ? durationToEnd : averageBetween / 2;
  result *= extrapolateTo / sampled;
  return isRate ? result / (rangeUs / MICROS_PER_SECOND) : result;
}

function aggregate(
  op: string,
  grouping: { without: boolean; labels: readonly string[] } | undefined,
  samples: readonly VSample[],
): VSample[] {
  const groups = new Map<string, { labels: Labels; vals: number[] }>();
  for (const s of samples) {
    const labels = Object.fromEntries(
      Object.entries(s.labels).filter(
        ([k]) =>
          k !== '__name__' && (grouping === undefined ? false : grouping.labels.includes(k) !== grouping.without),
      ),
    );
    const k = key(labels);
    let g = groups.get(k);
    if (g === undefined) groups.set(k, (g = { labels, vals: [] }));
    g.vals.push(s.v);
  }
  return [...groups.values()].map(({ labels, vals }) => {
    const sum = vals.reduce((a, b) => a + b, 0);
    const v =
      op === 'sum'
        ? sum
        : op === 'avg'
          ? sum / vals.length
          : op === 'count'
            ? vals.length
            : op === 'min'
              ? Math.min(...vals)
              : Math.max(...vals);
    return { labels, v };
  });
}

function arith(op: BinaryOp, a: number, b: number): number {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return a / b;
    case '%':
      return a % b;
    case '^':
      return a ** b;
    case '==':
      return a === b ? 1 : 0;
    case '!=':
      return a !== b ? 1 : 0;
    case '>':
      return a > b ? 1 : 0;
    case '<':
      return a < b ? 1 : 0;
    case '>=':
      return a >= b ? 1 : 0;
    case '<=':
      return a <= b ? 1 : 0;
    default:
      throw new PromqlEvalError(`${op} needs vectors on both sides`);
  }
}

function binary(op: BinaryOp, bool: boolean, matching: Matching | undefined, l: Value, r: Value): Value {
  const comparison = COMPARISONS.includes(op);
  if (l.kind === 'scalar' && r.kind === 'scalar') return { kind: 'scalar', v: arith(op, l.v, r.v) };
  if (SET_OPS.includes(op)) {
    if (l.kind !== 'vector' || r.kind !== 'vector')
      throw new PromqlEvalError(`${op} needs instant vectors on both sides`);
    return { kind: 'vector', samples: setOp(op, matching, l.samples, r.samples) };
  }
  // Filtering keeps the vector side's value; arithmetic and bool drop the metric name.
  const keepName = comparison && !bool;
  const combine = (labels: Labels, a: number, b: number, vectorValue: number): VSample[] => {
    const v = arith(op, a, b);
    if (comparison && !bool) return v === 1 ? [{ labels, v: vectorValue }] : [];
    return [{ labels: keepName ? labels : dropName(labels), v }];
  };
  if (l.kind === 'vector' && r.kind === 'scalar')
    return { kind: 'vector', samples: l.samples.flatMap((s) => combine(s.labels, s.v, r.v, s.v)) };
  if (l.kind === 'scalar' && r.kind === 'vector')
    return { kind: 'vector', samples: r.samples.flatMap((s) => combine(s.labels, l.v, s.v, s.v)) };
  const lv = (l as { samples: readonly VSample[] }).samples;
  const rv = (r as { samples: readonly VSample[] }).samples;
  const right = new Map<string, VSample>();
  for (const s of rv) {
    const sig = signature(s.labels, matching);
    if (right.has(sig))
      throw new PromqlEvalError(
        'found duplicate series for the match group on the right-hand ' +
          'side of the operation; many-to-many matching is not allowed',
      );
    right.set(sig, s);
  }
  const seen = new Set<string>();
  const out: VSample[] = [];
  for (const s of lv) {
    const sig = signature(s.labels, matching);
    const o = right.get(sig);
    if (o === undefined) continue;
    if (seen.has(sig))
      throw new PromqlEvalError(
        'multiple matches for labels: many-to-one matching must be explicit (group_left/group_right)',
      );
    seen.add(sig);
    // One-to-one results keep only the matched labels under on(), and lose the ignored ones.
    const labels =
      matching === undefined
        ? s.labels
        : Object.fromEntries(
            Object.entries(s.labels).filter(([k]) =>
              matching.on ? matching.labels.includes(k) : k === '__name__' ? keepName : !matching.labels.includes(k),
            ),
          );
    out.push(...combine(labels, s.v, o.v, s.v));
  }
  return { kind: 'vector', samples: out };
}

function setOp(op: BinaryOp, matching: Matching | undefined, l: readonly VSample[], r: readonly VSample[]): VSample[] {
  const rs = new Set(r.map((s) => signature(s.labels, matching)));
  if (op === 'and') return l.filter((s) => rs.has(signature(s.labels, matching)));
  if (op === 'unless') return l.filter((s) => !rs.has(signature(s.labels, matching)));
  const ls = new Set(l.map((s) => signature(s.labels, matching)));
  return [...l, ...r.filter((s) => !ls.has(signature(s.labels, matching)))];
}
