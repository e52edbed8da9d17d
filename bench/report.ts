/** A bound a ratio or a figure must stay within for its target to be met. */
export interface Bound {
  readonly atLeast?: number;
  readonly atMost?: number;
}

/** A further target on an absolute figure (e.g. peak RSS), checked beside the ratio's. */
export interface Check extends Bound {
  readonly name: string;
  readonly value: number;
}

/**
 * A figure set against a limit measured in the same process: what the benchmark did, what a bare
 * implementation of the same work does (a loop micro-benchmark, a heap floor), their ratio, and the
 * target the ratio must meet. `details` are the benchmark's other figures, printed on a second line.
 */
export interface Versus {
  readonly figure: number;
  readonly unit: string;
  readonly limit: number;
  /** What the limit is, in a few words ("bare event loop", "heap floor"). */
  readonly limitName: string;
  /** Defaults to figure / limit. */
  readonly ratio?: number;
  /** The bound on the ratio. */
  readonly target: Bound;
  readonly checks?: readonly Check[];
  readonly details?: Readonly<Record<string, string | number>>;
}

export interface Verdict {
  readonly ratio: number;
  readonly met: boolean;
}

export interface BenchResult {
  readonly name: string;
  readonly figures: Readonly<Record<string, string | number>>;
  /** Present for benchmarks measured against a limit. */
  readonly verdict?: Verdict;
}

const within = (v: number, b: Bound): boolean =>
  (b.atLeast === undefined || v >= b.atLeast) && (b.atMost === undefined || v <= b.atMost);

const showBound = (b: Bound): string =>
  [b.atLeast === undefined ? '' : `≥ ${fmt(b.atLeast)}`, b.atMost === undefined ? '' : `≤ ${fmt(b.atMost)}`]
    .filter((s) => s !== '')
    .join(' and ');

/** Three significant digits, so millions and milliseconds read alike. */
export function fmt(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a >= 1e5) return `${(v / 1e6).toPrecision(3)} M`;
  if (a >= 1000) return Math.round(v).toString();
  return Number(v.toPrecision(3)).toString();
}

/**
 * Prints one benchmark line and returns it for the summary. With plain figures: `name  k: v  k: v`.
 * Against a limit: `name  figure … limit … ratio … target … met|missed`, then the details indented.
 */
export function report(name: string, figures: Record<string, string | number> | Versus): BenchResult {
  if (!isVersus(figures)) {
    const parts = Object.entries(figures).map(([k, v]) => `${k}: ${v}`);
    console.log(`${name.padEnd(24)} ${parts.join('  ')}`);
    return { name, figures };
  }
  const v = figures;
  const ratio = v.ratio ?? v.figure / v.limit;
  const checks = v.checks ?? [];
  const met = within(ratio, v.target) && checks.every((c) => within(c.value, c));
  const checkText = checks.map((c) => `  ${c.name} ${fmt(c.value)} (${showBound(c)})`).join('');
  console.log(
    `${name.padEnd(24)} figure ${fmt(v.figure)} ${v.unit}  limit ${fmt(v.limit)} ${v.unit} (${v.limitName})  ` +
      `ratio ${ratio.toFixed(2)}  target ${showBound(v.target)}${checkText}  ${met ? 'met' : 'missed'}`,
  );
  const details = Object.entries(v.details ?? {}).map(([k, x]) => `${k}: ${x}`);
  if (details.length > 0) console.log(`${''.padEnd(24)}   ${details.join('  ')}`);
  return {
    name,
    figures: { figure: v.figure, limit: v.limit, ratio, ...v.details },
    verdict: { ratio, met },
  };
}

function isVersus(x: Record<string, string | number> | Versus): x is Versus {
  // Plain figures are strings and numbers only; a target is an object.
  return typeof (x as Versus).target === 'object';
}

/** CPU time of this process (user + system, every thread) since `from`, in seconds. */
export function cpuSeconds(from: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1e6;
}
