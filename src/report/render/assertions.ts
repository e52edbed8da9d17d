import type { AssertionResult } from '../../scenario/replay/runner.js';
import type { AssertionMark, GlobalMarker } from './model.js';
import { formatSecondsShort } from '../../clock/time.js';
import type { TraceView } from './trace-view.js';

/** PASS/FAIL marks at each assertion's instant, each with the expect-pass / expect-fail line of the trace. */
export function extractAssertions(view: TraceView, results: readonly AssertionResult[]): AssertionMark[] {
  return results.map((a) => {
    const i = view.events.findIndex(
      (e, j) =>
        !view.claimed(j) &&
        e.member === 'sim' &&
        e.t === a.atUs &&
        (e.kind === 'expect-pass' || e.kind === 'expect-fail') &&
        e.fields.line === a.step.pos.line,
    );
    if (i >= 0) view.claim(i);
    return {
      t: a.atUs,
      pass: a.passed,
      text: a.text,
      got: a.got,
      line: a.step.pos.line,
      traceLine: i >= 0 ? view.lines[i] : undefined,
    };
  });
}

/** A red line across every lane where an assertion failed. */
export function failMarkers(assertions: readonly AssertionMark[]): GlobalMarker[] {
  return assertions
    .filter((a) => !a.pass)
    .map((a) => ({
      t: a.t,
      kind: 'fail' as const,
      label: `FAIL line ${a.line}`,
      lines: [
        `FAIL at ${formatSecondsShort(a.t)} s (line ${a.line}): ${a.text}; got ${a.got}`,
        ...(a.traceLine === undefined ? [] : [a.traceLine]),
      ],
    }));
}
