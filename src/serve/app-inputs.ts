/**
 * Programs under test in a served record: their events (`app` inputs) and the outcomes of the steps on them
 * (`app-step` inputs), written by serve --record and fed back by `run FILE --input LOG`, so a served run
 * with programs replays to the same trace without them.
 */
import type { AppActor } from '../scenario/replay/app-hook.js';
import type { EventOf, TraceEvent, TraceKind } from '../trace/trace.js';
import type { Input } from './inputs.js';

/** What a step on a program meets before any program has started (a step at or before 0 s). */
export const NOT_YET = 'no program has started yet';

export function appInput(e: TraceEvent): Input {
  return {
    t: e.t,
    kind: 'app',
    event: {
      member: e.member,
      kind: e.kind,
      ...(e.lease !== undefined ? { lease: e.lease.toString() } : {}),
      ...(e.fields !== undefined ? { fields: e.fields as Readonly<Record<string, unknown>> } : {}),
    },
  };
}

/** The traced event an `app` input holds. */
export function appEvent(input: Extract<Input, { kind: 'app' }>): TraceEvent {
  const e = input.event;
  return {
    t: input.t,
    member: e.member,
    kind: e.kind as TraceKind,
    ...(e.lease !== undefined ? { lease: BigInt(e.lease) } : {}),
    ...(e.fields !== undefined ? { fields: e.fields } : {}),
  } as EventOf<TraceKind> as TraceEvent;
}

/** The actor of a replay: each step on a program meets what it met when served, in order. */
export function recordedActor(inputs: readonly Input[], now: () => number): AppActor {
  const outcomes = inputs.filter((i): i is Extract<Input, { kind: 'app-step' }> => i.kind === 'app-step');
  let next = 0;
  return (a) => {
    if (now() <= 0) return NOT_YET;
    const o = outcomes[next++];
    if (o === undefined || o.app !== a.app) return 'the record holds no outcome for this step';
    return o.why;
  };
}
