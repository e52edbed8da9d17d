/**
 * The trace panel's sentences: the run narrated as `lessor-sim run` prints it (report/narrate.ts), each
 * line with its instant, so the page shows the ones up to the cursor. Lines without a time of their own
 * (continuations) take their predecessor's.
 */
import type { Micros } from '../clock/time.js';
import { narrate } from '../report/narrate.js';
import type { RunResult } from '../scenario/replay/runner.js';

export interface NarratedLine {
  readonly atUs: Micros;
  readonly text: string;
}

export function narratedLines(result: RunResult): NarratedLine[] {
  const out: NarratedLine[] = [];
  let last = Number.NEGATIVE_INFINITY;
  for (const line of narrate(result)) {
    const m = /^\s*(-?\d+(?:\.\d+)?) s\s/.exec(line);
    if (m !== null) last = Math.round(Number(m[1]) * 1_000_000);
    out.push({ atUs: last, text: line.trim() });
  }
  return out;
}

/** The last `n` lines at or before `t` (lines ascending by time). */
export function narratedUpTo(lines: readonly NarratedLine[], t: Micros, n: number): NarratedLine[] {
  let lo = 0;
  let hi = lines.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (lines[mid]!.atUs <= t) lo = mid + 1;
    else hi = mid;
  }
  return lines.slice(Math.max(0, lo - n), lo);
}

/**
 * A scenario description with the YAML's hard line breaks taken out: blank lines still part paragraphs,
 * and indented lines (a small table, a list of instants) keep their own lines.
 */
export function reflow(text: string): string[] {
  return text
    .split(/\n[ \t]*\n/)
    .map((p) => {
      let out = '';
      let after = false;
      for (const line of p.split('\n')) {
        const indented = /^\s+\S/.test(line);
        if (out === '') out = indented ? line : line.trim();
        else out += indented || after ? `\n${indented ? line : line.trim()}` : ` ${line.trim()}`;
        after = indented;
      }
      return out.trimEnd();
    })
    .filter((p) => p.trim() !== '');
}
