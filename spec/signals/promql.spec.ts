// The PromQL subset: parsed by lezer-promql, evaluated with Prometheus 2.x semantics. Each case is a
// value a wrong evaluator gets wrong (closed range windows, extrapolation, staleness, matching).
import { describe, expect, it } from 'vitest';
import { seconds } from '../../src/clock/time.js';
import type { FamilyDef } from '../../src/signals/families.js';
import { evaluate, SeriesIndex, type Value } from '../../src/signals/promql/eval.js';
import { parsePromQL } from '../../src/signals/promql/parse.js';
import type { Sample, Scraped } from '../../src/signals/sample.js';

const counter: FamilyDef = { name: 'c_total', type: 'counter', help: 'c', labels: ['x'] };
const gauge: FamilyDef = { name: 'g', type: 'gauge', help: 'g', labels: ['x'] };

/** A series scraped every second from 0: `values[i]` at i s (`null` missing, 'stale' a marker). */
function series(family: FamilyDef, labels: Record<string, string>, values: (number | null | 'stale')[]): Scraped {
  const samples: Sample[] = values.flatMap((v, i) => (v === null ? [] : [{ t: seconds(i), v }]));
  return { name: family.name, family, labels, samples };
}

function at(expr: string, t: number, data: Scraped[]): Value {
  const p = parsePromQL(expr);
  if (!p.ok) throw new Error(p.message);
  return evaluate(p.expr, new SeriesIndex(data), seconds(t));
}

const values = (v: Value) => (v.kind === 'vector' ? v.samples.map((s) => [s.labels, s.v]) : v.v);

describe('range functions', () => {
  const c = [series(counter, { x: 'a' }, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10])];

  it('take samples in the closed window [t - range, t]', () => {
    expect(values(at('count_over_time(c_total[5s])', 10, c))).toEqual([[{ x: 'a' }, 6]]);
    expect(values(at('changes(c_total[5s])', 10, c))).toEqual([[{ x: 'a' }, 5]]);
  });

  it('increase extrapolates to the window edges as Prometheus does', () => {
    // 6 samples over 5 s cover the whole window: 5 in 5 s, no extrapolation needed.
    expect(values(at('increase(c_total[5s])', 10, c))).toEqual([[{ x: 'a' }, 5]]);
    // A window of 5.5 s: the 0.5 s gap at the start is within 1.1 × the sample spacing, so it is filled.
    expect(values(at('increase(c_total[5500ms])', 10, c))).toEqual([[{ x: 'a' }, 5.5]]);
    expect(values(at('rate(c_total[5s])', 10, c))).toEqual([[{ x: 'a' }, 1]]);
  });

  it('increase counts through a counter reset', () => {
    const reset = [series(counter, { x: 'a' }, [0, 1, 2, 3, 0, 1, 2])];
    expect(values(at('increase(c_total[6s])', 6, reset))).toEqual([[{ x: 'a' }, 5]]);
    expect(values(at('resets(c_total[6s])', 6, reset))).toEqual([[{ x: 'a' }, 1]]);
  });

  it('needs two samples for a rate, and extrapolates a young counter only back to zero', () => {
    const young = [series(counter, { x: 'a' }, [null, null, null, null, null, null, null, null, 2, 3, 4])];
    expect(values(at('rate(c_total[1s])', 8, young))).toEqual([]);
    // 2 → 4 over 2 s; extrapolating back to where it was 0 would take 2 s, past the 1.1 s threshold: half a spacing.
    expect(values(at('increase(c_total[10s])', 10, young))).toEqual([[{ x: 'a' }, 2.5]]);
  });

  it('*_over_time aggregate the window', () => {
    const g = [series(gauge, { x: 'a' }, [5, 1, 9, 3])];
    expect(values(at('max_over_time(g[3s])', 3, g))).toEqual([[{ x: 'a' }, 9]]);
    expect(values(at('min_over_time(g[2s])', 3, g))).toEqual([[{ x: 'a' }, 1]]);
    expect(values(at('avg_over_time(g[3s])', 3, g))).toEqual([[{ x: 'a' }, 4.5]]);
    expect(values(at('last_over_time(g[3s])', 3, g))).toEqual([[{ __name__: 'g', x: 'a' }, 3]]);
  });
});

describe('instant selectors', () => {
  it('look back 5 minutes, and not past a staleness marker', () => {
    const old = [series(gauge, { x: 'a' }, [7])];
    expect(values(at('g', 300, old))).toEqual([[{ __name__: 'g', x: 'a' }, 7]]);
    expect(values(at('g', 301, old))).toEqual([]);
    const stale = [series(gauge, { x: 'a' }, [7, 'stale'])];
    expect(values(at('g', 1, stale))).toEqual([]);
    expect(values(at('g', 0, stale))).toEqual([[{ __name__: 'g', x: 'a' }, 7]]);
  });

  it('honour matchers and offset', () => {
    const data = [series(gauge, { x: 'a' }, [1, 2, 3]), series(gauge, { x: 'b' }, [4, 5, 6])];
    expect(values(at('g{x="b"}', 2, data))).toEqual([[{ __name__: 'g', x: 'b' }, 6]]);
    expect(values(at('g{x=~"a|b"} offset 2s', 2, data))).toEqual([
      [{ __name__: 'g', x: 'a' }, 1],
      [{ __name__: 'g', x: 'b' }, 4],
    ]);
    expect(values(at('g{x!="a"}', 2, data))).toHaveLength(1);
  });
});

describe('operators', () => {
  const data = [
    series(gauge, { x: 'a' }, [1]),
    series(gauge, { x: 'b' }, [5]),
    series(counter, { x: 'b' }, [2]),
    series(counter, { x: 'c' }, [3]),
  ];

  it('filter on comparison, or answer 0/1 with bool', () => {
    expect(values(at('g > 2', 0, data))).toEqual([[{ __name__: 'g', x: 'b' }, 5]]);
    expect(values(at('g > bool 2', 0, data))).toEqual([
      [{ x: 'a' }, 0],
      [{ x: 'b' }, 1],
    ]);
    expect(values(at('2 < g', 0, data))).toEqual([[{ __name__: 'g', x: 'b' }, 5]]);
  });

  it('match vectors one-to-one on labels without the name', () => {
    expect(values(at('g - c_total', 0, data))).toEqual([[{ x: 'b' }, 3]]);
  });

  it('and / or / unless are set operations on label sets', () => {
    expect(values(at('g and c_total', 0, data))).toEqual([[{ __name__: 'g', x: 'b' }, 5]]);
    expect(values(at('g unless c_total', 0, data))).toEqual([[{ __name__: 'g', x: 'a' }, 1]]);
    expect(values(at('g or c_total', 0, data))).toHaveLength(3);
    expect(values(at('g and on() c_total', 0, data))).toHaveLength(2);
  });

  it('aggregate by and without labels', () => {
    expect(values(at('sum(g)', 0, data))).toEqual([[{}, 6]]);
    expect(values(at('max by (x) (g)', 0, data))).toHaveLength(2);
    expect(values(at('count without (x) (g or c_total)', 0, data))).toEqual([[{}, 3]]);
  });
});

describe('parsing', () => {
  it('reports lezer-promql syntax errors with the character they are at', () => {
    const p = parsePromQL('rate(c_total[1m]) >');
    expect(p).toMatchObject({ ok: false, at: 19 });
    expect(!p.ok && p.message).toMatch(/^lezer-promql: syntax error at character 20: unexpected end of expression/);
  });

  it('refuses constructs outside the evaluated subset by name', () => {
    const p = parsePromQL('histogram_quantile(0.9, rate(c_total[1m]))');
    expect(!p.ok && p.message).toMatch(/function histogram_quantile\(\) is not in the PromQL subset/);
    expect(parsePromQL('rate(c_total)')).toMatchObject({ ok: false });
    expect(parsePromQL('1 > 2')).toMatchObject({ ok: false });
  });
});
