/** A RunView over a hand-written trace, for monitors whose violations no bug switch produces. */
import { RunView } from '../../src/properties/index.js';
import { LabelBook } from '../../src/scenario/replay/labels.js';
import { Marks } from '../../src/trace/marks.js';
import { Trace, type TraceEvent } from '../../src/trace/trace.js';
import { scenario } from './support.js';

/** `t member kind [lease] key=value…`, seconds as in the trace grammar; lease given as a decimal ID. */
export function ev(
  t: number,
  member: string,
  kind: TraceEvent['kind'],
  lease?: bigint,
  fields?: Readonly<Record<string, unknown>>,
): TraceEvent {
  // Hand-written: the fields are trusted to match the kind, as an emitter's are.
  return {
    t: Math.round(t * 1e6),
    member,
    kind,
    ...(lease !== undefined ? { lease } : {}),
    ...(fields !== undefined ? { fields } : {}),
  } as TraceEvent;
}

export function syntheticView(
  steps: readonly string[],
  events: readonly TraceEvent[],
  labels: readonly (readonly [string, bigint])[],
): RunView {
  const trace = new Trace();
  for (const e of events) trace.emit(e);
  const book = new LabelBook();
  for (const [l, id] of labels) book.bind(l, id);
  return new RunView({
    scenario: scenario(['duration: 30s'], steps),
    seed: 1,
    profile: 'v3.5',
    assertions: [],
    setupError: undefined,
    trace,
    marks: new Marks(),
    labels: book,
    cluster: undefined,
    passed: true,
  });
}
