/**
 * Programs under test in a served record: their events (`app` inputs) and the outcomes of the steps on them
 * (`app-step` inputs), written by serve --record and fed back by `run FILE --input LOG`, so a served run
 * with programs replays to the same trace without them.
 */
import type { AppActor } from '../scenario/replay/app-hook.js';
import type { TraceEvent, TraceFields } from '../trace/trace.js';
import type { AppEventJson, Input } from './inputs.js';

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

type Check = (v: unknown) => boolean;
const str: Check = (v) => typeof v === 'string';
const int: Check = (v) => Number.isSafeInteger(v);
const bool: Check = (v) => typeof v === 'boolean';
const opt =
  (c: Check): Check =>
  (v) =>
    v === undefined || c(v);
const oneOf =
  (...xs: readonly string[]): Check =>
  (v) =>
    typeof v === 'string' && xs.includes(v);

/**
 * The kinds a program's side of a served run traces (ServedApps, the resource server, the belief board),
 * each with a check per field: the compiler refuses a list that misses a field of the kind or names another.
 */
const APP_EVENT_FIELDS: { readonly [K in AppEventKind]: { readonly [F in keyof TraceFields[K]]-?: Check } } = {
  'app-start': { command: str },
  'app-output': { stream: oneOf('stdout', 'stderr'), text: str },
  'app-exit': { code: opt(int), signal: opt(str), by: oneOf('itself', 'harness') },
  'client-fenced-write': { resource: str, token: int, accepted: bool },
  'holder-acquired': { key: str, token: int, ttl: opt(int) },
  'holder-deadline': { untilUs: int },
  'holder-stop': { reason: str, lateUs: opt(int) },
};
type AppEventKind =
  | 'app-start'
  | 'app-output'
  | 'app-exit'
  | 'client-fenced-write'
  | 'holder-acquired'
  | 'holder-deadline'
  | 'holder-stop';

const isAppEventKind = (k: string): k is AppEventKind => Object.hasOwn(APP_EVENT_FIELDS, k);

/**
 * A record's program event as a typed trace event, or what is wrong with it: a kind a program's side never
 * traces, a field missing, of the wrong type, or not the kind's. Records are user input; this is where they
 * become typed, so readers of the replayed trace never meet a field that is not there.
 */
export function readAppEvent(t: number, e: AppEventJson): TraceEvent | string {
  if (!isAppEventKind(e.kind)) return `a program's event of kind ${JSON.stringify(e.kind)}, which no program traces`;
  const checks: Readonly<Record<string, Check>> = APP_EVENT_FIELDS[e.kind];
  const fields = e.fields ?? {};
  for (const name of Object.keys(fields))
    if (!Object.hasOwn(checks, name)) return `${e.kind} has no field ${JSON.stringify(name)}`;
  for (const [name, ok] of Object.entries(checks))
    if (!ok(fields[name]))
      return `${e.kind}'s field ${JSON.stringify(name)} is ${fields[name] === undefined ? 'missing' : 'not valid'}`;
  return {
    t,
    member: e.member,
    kind: e.kind,
    ...(e.lease !== undefined ? { lease: BigInt(e.lease) } : {}),
    // Every field checked against the kind's above.
    fields: fields as TraceFields[AppEventKind],
  } as TraceEvent;
}

/** The traced event an `app` input holds (parseRecord has checked it with readAppEvent). */
export function appEvent(input: Extract<Input, { kind: 'app' }>): TraceEvent {
  const e = readAppEvent(input.t, input.event);
  if (typeof e === 'string') throw new Error(`internal: an unchecked app input reached replay: ${e}`);
  return e;
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
