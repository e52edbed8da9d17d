import { escapeHtml } from './escape.js';
import type { Mark } from './model.js';
import type { TimeScale } from './scale.js';

/** SVG as strings: small builders that escape every attribute and text, and print numbers one way. */

export type Attrs = Readonly<Record<string, string | number | undefined>>;

/** A coordinate with at most one decimal, never `-0`: the same input always prints the same bytes. */
export function num(v: number): string {
  const r = Math.round(v * 10) / 10;
  return Object.is(r, -0) ? '0' : String(r);
}

function attrs(a: Attrs): string {
  let out = '';
  for (const k of Object.keys(a)) {
    const v = a[k];
    if (v === undefined) continue;
    out += ` ${k}="${typeof v === 'number' ? num(v) : escapeHtml(v)}"`;
  }
  return out;
}

/** `<tag a="…">children</tag>`; children are already-built markup. */
export function el(tag: string, a: Attrs, ...children: string[]): string {
  return children.length === 0 ? `<${tag}${attrs(a)}/>` : `<${tag}${attrs(a)}>${children.join('')}</${tag}>`;
}

export function svgText(a: Attrs, content: string): string {
  return `<text${attrs(a)}>${escapeHtml(content)}</text>`;
}

/** The hover text of a mark: a summary, then the trace lines it came from (at most `max`). */
export function tip(summary: string | undefined, lines: readonly string[], max = 16): string {
  const shown = lines.length > max ? [...lines.slice(0, max), `… and ${lines.length - max} more`] : lines;
  const all = summary === undefined ? shown : [summary, ...shown];
  return `<title>${escapeHtml(all.join('\n'))}</title>`;
}

/** Marks close enough to share a pixel column, drawn and hovered as one. */
export interface MarkGroup {
  readonly x: number;
  readonly marks: readonly Mark[];
}

/**
 * Groups marks (in time order) whose x lies within `gapPx` of the group's first mark and whose
 * `keyOf` agrees, so a burst of events is one hoverable mark listing all their lines.
 */
export function groupMarks(
  marks: readonly Mark[],
  scale: TimeScale,
  gapPx = 3,
  keyOf: (m: Mark) => string = (m) => m.kind,
): MarkGroup[] {
  const open = new Map<string, { x: number; marks: Mark[] }>();
  const out: { x: number; marks: Mark[] }[] = [];
  const sorted = [...marks].sort((a, b) => a.t - b.t);
  for (const m of sorted) {
    const x = scale.xc(m.t);
    const key = keyOf(m);
    const g = open.get(key);
    if (g !== undefined && x - g.x <= gapPx) {
      g.marks.push(m);
      continue;
    }
    const ng = { x, marks: [m] };
    open.set(key, ng);
    out.push(ng);
  }
  return out;
}

/** The distinct kinds of a group, in first-seen order, for `data-kind`. */
export function kindsOf(g: MarkGroup): string {
  return [...new Set(g.marks.map((m) => m.kind))].join(' ');
}

/** A CSS class fragment for an event kind: its subsystem prefix (`raft`, `kv`, `client` …), or `error`. */
export function kindClass(kind: string): string {
  if (/error|fail|refused|dropped/.test(kind)) return 'error';
  const prefix = /^[a-z]+/.exec(kind)?.[0] ?? 'other';
  return ['raft', 'kv', 'lease', 'lessor', 'client', 'server', 'member', 'net', 'ctl', 'step', 'expect'].includes(
    prefix,
  )
    ? prefix
    : 'other';
}

/** Path data through `points` (`M x,y L x,y …`, closed with `Z` unless `open`), numbers printed by `num`. */
export function pathD(points: readonly (readonly [number, number])[], open = false): string {
  const d = points.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${num(x)},${num(y)}`).join(' ');
  return open ? d : `${d} Z`;
}
