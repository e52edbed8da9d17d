/**
 * What the emitters record: each series as a step function on virtual time (the value after every
 * change), log records and spans. A series can also be absent for a while (its process crashed or is
 * stopped, so a scrape would fail); samplers turn that into Prometheus staleness.
 */
import type { Micros } from '../clock/time.js';
import type { FamilyDef } from './families.js';

export type Labels = Readonly<Record<string, string>>;

/** One change of a series: its value from `t` on, or `null` while it cannot be scraped. */
export interface Point {
  readonly t: Micros;
  readonly v: number | null;
}

export interface Series {
  /** The exposed name (a histogram's _bucket/_sum/_count). */
  readonly name: string;
  readonly family: FamilyDef;
  readonly labels: Labels;
  readonly points: Point[];
}

/** A structured log record, one JSON object per line when exported. */
export interface LogRecord {
  readonly t: Micros;
  readonly event: string;
  readonly fields: Readonly<Record<string, string | number>>;
}

export type SpanAttribute = string | number | boolean;

export interface Span {
  readonly name: string;
  /** Who ran it (a client or holder); the span's resource. */
  readonly process: string;
  readonly startUs: Micros;
  endUs: Micros | undefined;
  readonly attributes: Record<string, SpanAttribute>;
  /** Set when the span ended in failure (the lease was lost). */
  error: string | undefined;
}

/** Labels in a stable order: the family's own label names first, then `le`. */
export function seriesKey(name: string, labels: Labels): string {
  const parts = Object.keys(labels)
    .sort()
    .map((k) => `${k}=${JSON.stringify(labels[k])}`);
  return `${name}{${parts.join(',')}}`;
}

export class SignalStore {
  private readonly byKey = new Map<string, Series>();
  readonly logs: LogRecord[] = [];
  readonly spans: Span[] = [];

  constructor(readonly families: readonly FamilyDef[]) {
    const names = families.map((f) => f.name);
    const twice = names.find((n, i) => names.indexOf(n) !== i);
    if (twice !== undefined) throw new Error(`signals: two emitters declare the family ${twice}`);
  }

  get series(): Series[] {
    return [...this.byKey.values()];
  }

  family(name: string): FamilyDef {
    const f = this.families.find((x) => x.name === name);
    if (f === undefined) throw new Error(`signals: no family ${name} is declared`);
    return f;
  }

  private get(family: FamilyDef, name: string, labels: Labels, t: Micros): Series {
    const key = seriesKey(name, labels);
    let s = this.byKey.get(key);
    if (s === undefined) {
      s = { name, family, labels, points: [{ t, v: 0 }] };
      this.byKey.set(key, s);
    }
    return s;
  }

  private set(s: Series, t: Micros, v: number | null): void {
    const last = s.points.at(-1)!;
    if (last.t === t) s.points[s.points.length - 1] = { t, v };
    else if (last.v !== v) s.points.push({ t, v });
  }

  /** The last scraped value: a counter keeps counting from it. */
  private current(s: Series): number {
    for (let i = s.points.length - 1; i >= 0; i--) if (s.points[i]!.v !== null) return s.points[i]!.v!;
    return 0;
  }

  /** Makes a series exist at 0 (a counter a client library registers up front). */
  touch(familyName: string, labels: Labels, t: Micros): void {
    const f = this.family(familyName);
    if (f.type === 'histogram') {
      for (const le of [...(f.buckets ?? []).map(String), '+Inf'])
        this.get(f, `${f.name}_bucket`, { ...labels, le }, t);
      this.get(f, `${f.name}_sum`, labels, t);
      this.get(f, `${f.name}_count`, labels, t);
    } else this.get(f, f.name, labels, t);
  }

  inc(familyName: string, labels: Labels, t: Micros, by = 1): void {
    const s = this.get(this.family(familyName), familyName, labels, t);
    this.set(s, t, this.current(s) + by);
  }

  gauge(familyName: string, labels: Labels, t: Micros, v: number): void {
    this.set(this.get(this.family(familyName), familyName, labels, t), t, v);
  }

  observe(familyName: string, labels: Labels, t: Micros, v: number): void {
    const f = this.family(familyName);
    this.touch(familyName, labels, t);
    for (const b of f.buckets ?? []) if (v <= b) this.bump(f, `${f.name}_bucket`, { ...labels, le: String(b) }, t, 1);
    this.bump(f, `${f.name}_bucket`, { ...labels, le: '+Inf' }, t, 1);
    this.bump(f, `${f.name}_sum`, labels, t, v);
    this.bump(f, `${f.name}_count`, labels, t, 1);
  }

  private bump(f: FamilyDef, name: string, labels: Labels, t: Micros, by: number): void {
    const s = this.get(f, name, labels, t);
    this.set(s, t, this.current(s) + by);
  }

  /** One series stops being exposed (its owner unregistered it); it stays absent until set again. */
  unset(familyName: string, labels: Labels, t: Micros): void {
    const s = this.byKey.get(seriesKey(familyName, labels));
    if (s !== undefined) this.set(s, t, null);
  }

  /** Every series whose labels include `match` stops being scrapeable (its process crashed or stopped). */
  setDown(match: Labels, t: Micros): void {
    for (const s of this.matching(match)) this.set(s, t, null);
  }

  /** A restarted process exposes every series from 0 again, as a new process does. */
  restart(match: Labels, t: Micros): void {
    for (const s of this.matching(match)) this.set(s, t, 0);
  }

  /** Back up after a pause: the same values as before it. */
  resume(match: Labels, t: Micros): void {
    for (const s of this.matching(match)) this.set(s, t, this.current(s));
  }

  private matching(match: Labels): Series[] {
    return this.series.filter((s) => Object.entries(match).every(([k, v]) => s.labels[k] === v));
  }

  log(t: Micros, event: string, fields: Record<string, string | number>): void {
    this.logs.push({ t, event, fields });
  }

  startSpan(name: string, process: string, t: Micros, attributes: Record<string, SpanAttribute>): Span {
    const s: Span = { name, process, startUs: t, endUs: undefined, attributes, error: undefined };
    this.spans.push(s);
    return s;
  }
}
