/** A RunView over a hand-written trace, for monitors whose violations no bug switch produces. */
import { RunView } from '../../src/properties/index.js';
import { LabelBook } from '../../src/scenario/replay/labels.js';
import { Marks } from '../../src/trace/marks.js';
import { type EventOf, type FieldsArg, Trace, type TraceEvent, type TraceKind } from '../../src/trace/trace.js';
import { scenario } from './support.js';

/**
 * `t member kind [lease] key=value…`, seconds as in the trace grammar; lease given as a decimal ID. The fields
 * are typed by the kind as an emitter's are, and required unless every field of the kind is optional.
 */
export function ev<K extends TraceKind>(
  t: number,
  member: string,
  kind: K,
  lease?: bigint,
  ...[fields]: FieldsArg<K>
): EventOf<K> {
  // For a generic K the compiler cannot resolve EventOf<K>'s choice between optional and required fields;
  // FieldsArg<K> has already checked the caller's fields against the kind (as in ClientTracer.emit).
  return {
    t: Math.round(t * 1e6),
    member,
    kind,
    ...(lease !== undefined ? { lease } : {}),
    ...(fields !== undefined ? { fields } : {}),
  } as EventOf<K>;
}

/** `head`: top-level scenario lines (a `cluster:` block) beside the 30 s duration. */
export function syntheticView(
  steps: readonly string[],
  events: readonly TraceEvent[],
  labels: readonly (readonly [string, bigint])[],
  head: readonly string[] = [],
): RunView {
  const trace = new Trace();
  for (const e of events) trace.emit(e);
  const book = new LabelBook();
  for (const [l, id] of labels) book.bind(l, id);
  return new RunView({
    scenario: scenario(['duration: 30s', ...head], steps),
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
