/**
 * One scenario text in the playground: a replay parked at the furthest instant reached (the frontier)
 * and the state at the cursor, folded from the replay's trace. Moving the cursor past the frontier plays
 * the replay on; anywhere before it, the state is re-folded from recorded events, with no simulation
 * (`npm run bench` measures both). The page asks for the whole run at once (for the hash and the
 * timeline), so there every move is a fold. An action or a setting yields a new Session over the edited text,
 * replayed to where the learner stands, so the run forks from that instant and stays exactly what
 * `lessor-sim run` replays from the file.
 */
import type { Micros } from '../clock/time.js';
import { BUG_NAMES } from '../switches/bugs.js';
import { formatError, parseScenario } from '../scenario/parse.js';
import { missingUserHolder, startScenario, type RunResult, type ScenarioRun } from '../scenario/replay/runner.js';
import type { Scenario } from '../scenario/types.js';
import { Trace } from '../trace/trace.js';
import { stepOf, type Action } from './actions.js';
import { DeadlineBook } from './deadlines.js';
import { insertStep, setSetting, type SettingPath } from './edit.js';
import type { Snapshot } from './snapshot.js';
import { clientNamesOf, StateFold, type RenewalInFlight } from './state-fold.js';
import { eventTime, type TraceEvent } from './trace-adapter.js';
import { WireLog } from './wire-log.js';

export type Opened =
  | { readonly ok: true; readonly session: Session }
  | { readonly ok: false; readonly messages: readonly string[] };

/** Actions land on whole milliseconds, so the exported steps read like hand-written ones. */
const ACTION_GRAIN_US = 1_000;

export class Session {
  private readonly run: ScenarioRun;
  /** Messages and run-loop passes as the replay goes (the picture's side channel; the trace is unchanged). */
  readonly wire = new WireLog();
  private state!: StateFold;
  private deadlines!: DeadlineBook;
  private cursorUs = 0;

  private constructor(
    readonly text: string,
    readonly file: string,
    readonly scenario: Scenario,
  ) {
    this.run = startScenario(scenario, { trace: new Trace(), observer: this.wire });
    this.refold();
    this.seek(0);
  }

  static open(text: string, file: string): Opened {
    const p = parseScenario(text, file, { knownBugs: BUG_NAMES });
    if (!p.ok) return { ok: false, messages: p.errors.map(formatError) };
    // A holder written in TypeScript needs the user's code, which a page does not have.
    const missing = missingUserHolder(p.scenario, undefined, false);
    return missing === undefined
      ? { ok: true, session: new Session(text, file, p.scenario) }
      : { ok: false, messages: [missing] };
  }

  get cursor(): Micros {
    return this.cursorUs;
  }

  get endUs(): Micros {
    return this.scenario.durationUs;
  }

  /** A problem that kept the scenario from running (bad cluster settings), as the CLI reports it. */
  get setupError(): string | undefined {
    return this.run.cluster === undefined || this.run.done ? this.run.result().setupError : undefined;
  }

  /** Moves the cursor to `t` (clamped to the run): plays the replay on past the frontier, re-folds before it. */
  seek(t: Micros): void {
    const to = Math.max(0, Math.min(this.endUs, Math.round(t)));
    if (to > this.run.now) this.run.advanceTo(to);
    if (to < this.cursorUs) this.refold();
    this.cursorUs = to;
    const ev = this.run.trace.events;
    for (let i = this.state.count; i < ev.length && eventTime(ev[i]!) <= to; i++) {
      this.state.fold(ev[i]!);
      this.deadlines.fold(ev[i]!);
    }
  }

  /** Moves to the next instant at which something is traced; returns false at the end. */
  stepToNextEvent(): boolean {
    const ev = this.run.trace.events;
    const recorded = ev[this.state.count];
    if (recorded !== undefined) {
      this.seek(eventTime(recorded));
      return true;
    }
    const before = ev.length;
    const sched = this.run.cluster?.sched;
    for (let guard = 0; guard < 100_000 && this.cursorUs < this.endUs; guard++) {
      const next = Math.min(sched?.peekTime() ?? this.endUs, this.nextStepAt() ?? this.endUs, this.endUs);
      this.seek(Math.max(next, this.cursorUs + 1));
      if (ev.length > before) return true;
    }
    return false;
  }

  /** Every event traced up to the cursor (a copy: prefer `recent` in a frame loop). */
  get events(): readonly TraceEvent[] {
    return this.run.trace.events.slice(0, this.state.count);
  }

  /** The last `n` events up to the cursor that pass `keep`, oldest first. */
  recent(n: number, keep: (e: TraceEvent) => boolean = () => true): TraceEvent[] {
    const ev = this.run.trace.events;
    const out: TraceEvent[] = [];
    for (let i = this.state.count - 1; i >= 0 && out.length < n; i--) if (keep(ev[i]!)) out.push(ev[i]!);
    return out.reverse();
  }

  /** Keep-alive renewals on their way at the cursor. */
  inFlight(): RenewalInFlight[] {
    return this.state.inFlight();
  }

  snapshot(): Snapshot | undefined {
    if (this.run.cluster === undefined) return undefined;
    return this.state.view(this.cursorUs, this.deadlines);
  }

  /** The share of its TTL each lease has left at `snap` (taken at the cursor); see StateFold.leaseFills. */
  leaseFills(snap: Snapshot): Float32Array {
    return this.state.leaseFills(snap);
  }

  /**
   * The whole run to its end, hashed as the CLI hashes it: the replay plays on to the end once, and from
   * then on every cursor move is a fold of recorded events.
   */
  fullResult(): RunResult {
    return this.run.finish();
  }

  hash(): string {
    return this.fullResult().trace.hash();
  }

  /** The run forked at the cursor with `action` as a new step there. */
  act(action: Action): Opened {
    const at = Math.min(this.endUs, Math.round(this.cursorUs / ACTION_GRAIN_US) * ACTION_GRAIN_US);
    let text: string;
    try {
      text = insertStep(this.text, this.scenario, at, stepOf(action, at));
    } catch (e) {
      return { ok: false, messages: [`${this.file}: ${e instanceof Error ? e.message : String(e)}`] };
    }
    return this.reopen(text, at);
  }

  /** The same scenario with one setting changed, restarted from time 0. */
  withSetting(path: SettingPath, value: unknown): Opened {
    return this.reopen(setSetting(this.text, path, value), 0);
  }

  private reopen(text: string, at: Micros): Opened {
    const o = Session.open(text, this.file);
    if (o.ok) o.session.seek(at);
    return o;
  }

  private refold(): void {
    this.state = new StateFold(this.run.cluster?.names ?? [], clientNamesOf(this.scenario.steps));
    this.deadlines = new DeadlineBook();
  }

  private nextStepAt(): Micros | undefined {
    return this.scenario.steps.find((s) => s.atUs > this.cursorUs)?.atUs;
  }
}
