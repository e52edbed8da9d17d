/**
 * vitest matchers over a replay: `toPassScenario` (every assertion held; a failure lists each failed one
 * with file:line, expected and got), `toHaveEvent(kind, where)` (the trace has such an event) and
 * `toNeverActAfterLoss` (no lock holder wrote with a lease that was already revoked).
 */
import type { Micros } from '../clock/time.js';
import { holderLives } from '../properties/monitors/holder-lives.js';
import { RunView } from '../properties/monitors/run-view.js';
import type { RunResult } from '../scenario/replay/runner.js';
import { fieldsOf, formatEvent, type TraceEvent, type TraceKind } from '../trace/trace.js';
import { shellQuote } from '../report/terminal-text.js';

/** What an event must show: its member, its lease (a label of the run, or an ID), its time, any of its fields. */
export interface EventWhere {
  readonly member?: string;
  readonly lease?: string | bigint;
  /** The event's virtual time in µs. */
  readonly t?: Micros;
  readonly [field: string]: unknown;
}

interface MatcherResult {
  pass: boolean;
  message: () => string;
}

const isRunResult = (x: unknown): x is RunResult =>
  typeof x === 'object' && x !== null && 'assertions' in x && 'trace' in x && 'scenario' in x;

function needRun(x: unknown, matcher: string): RunResult {
  if (!isRunResult(x))
    throw new TypeError(`${matcher}: expected the result of runScenario or runScenarioAsync, got ${typeof x}`);
  return x;
}

function toPassScenario(received: unknown): MatcherResult {
  const r = needRun(received, 'toPassScenario');
  const file = r.scenario.file;
  const problems = [
    ...(r.setupError !== undefined ? [`  setup error: ${r.setupError}`] : []),
    ...(r.stopped !== undefined
      ? [`  stopped at ${r.stopped.atUs / 1e6} s after ${r.stopped.events} events: ${r.stopped.message}`]
      : []),
    ...(r.holderErrors ?? []).map((e) => `  holder error: ${e}`),
    ...r.assertions
      .filter((a) => !a.passed)
      .map((a) => `  ${file}:${a.step.pos.line}: expected ${a.text}, got ${a.got}`),
  ];
  return {
    pass: r.passed,
    message: () =>
      r.passed
        ? `expected ${file} not to pass, but all ${r.assertions.length} assertions held`
        : `expected ${file} to pass; ${problems.length} problem(s):\n${problems.join('\n')}\n` +
          `replay: npx lessor-sim run ${shellQuote(file)}`,
  };
}

function matches(e: TraceEvent, kind: TraceKind, where: EventWhere, r: RunResult): boolean {
  if (e.kind !== kind) return false;
  for (const [k, want] of Object.entries(where)) {
    if (want === undefined) continue;
    if (k === 'member') {
      if (e.member !== want) return false;
    } else if (k === 'lease') {
      const id = typeof want === 'bigint' ? want : r.labels.id(want as string);
      if (id === undefined || e.lease !== id) return false;
    } else if (k === 't') {
      if (e.t !== want) return false;
    } else if (fieldsOf(e)[k] !== want) return false;
  }
  return true;
}

const describeWhere = (where: EventWhere): string =>
  Object.keys(where).length === 0
    ? ''
    : ` with ${Object.entries(where)
        .map(([k, v]) => `${k}=${typeof v === 'bigint' ? v.toString(16) : String(v)}`)
        .join(', ')}`;

function toHaveEvent(received: unknown, kind: TraceKind, where: EventWhere = {}): MatcherResult {
  const r = needRun(received, 'toHaveEvent');
  const hit = r.trace.events.find((e) => matches(e, kind, where, r));
  const ofKind = r.trace.events.filter((e) => e.kind === kind);
  return {
    pass: hit !== undefined,
    message: () =>
      hit !== undefined
        ? `expected no ${kind} event${describeWhere(where)}, found: ${formatEvent(hit)}`
        : `expected a ${kind} event${describeWhere(where)} in ${r.scenario.file}; ` +
          (ofKind.length === 0
            ? 'the trace has none of that kind'
            : `the trace has ${ofKind.length} of that kind, the first:\n` +
              ofKind
                .slice(0, 5)
                .map((e) => `  ${formatEvent(e)}`)
                .join('\n')),
  };
}

function toNeverActAfterLoss(received: unknown): MatcherResult {
  const r = needRun(received, 'toNeverActAfterLoss');
  const lives = holderLives(new RunView(r));
  const stale = lives.flatMap((l) => l.writes.filter((w) => w.stale).map((w) => ({ life: l, write: w })));
  return {
    pass: stale.length === 0,
    message: () =>
      stale.length === 0
        ? `expected a holder to act after losing its lease, but none of ${lives.length} acquisitions did`
        : `expected no holder to act after losing its lease; ${stale.length} write(s) with a revoked lease:\n` +
          stale
            .slice(0, 10)
            .map(
              ({ life, write }) =>
                `  holder ${life.holder} wrote at ${write.t / 1e6} s with token ${life.token} (` +
                `${write.accepted ? 'accepted' : 'rejected'}); its lease was revoked at ${life.revokedAt! / 1e6} s`,
            )
            .join('\n'),
  };
}

/** The matchers, for `expect.extend` (importing `lessor-sim/vitest` extends vitest's `expect` already). */
export const lessorMatchers = { toPassScenario, toHaveEvent, toNeverActAfterLoss };
