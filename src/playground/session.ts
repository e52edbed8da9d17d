/**
 * One scenario text in the playground and a replay of it parked at the cursor. Moving the cursor forward
 * plays on; moving it back replays from the start (fast enough; `npm run bench` measures it). An action
 * or a setting yields a new Session over the edited text, replayed to where the learner stands, so the
 * run forks from that instant and stays exactly what `lessor-sim run` would replay from the file.
 */
import type { Micros } from '../clock/time.js';
import { BUG_NAMES } from '../lessor/bugs.js';
import { formatError, parseScenario } from '../scenario/parse.js';
import { runScenario, startScenario, type RunResult, type ScenarioRun } from '../scenario/replay/runner.js';
import type { Scenario } from '../scenario/types.js';
import { Trace } from '../trace/trace.js';
import { stepOf, type Action } from './actions.js';
import { DeadlineBook } from './deadlines.js';
import { insertStep, setSetting, type SettingPath } from './edit.js';
import { snapshot, type Snapshot } from './snapshot.js';
import type { TraceEvent } from './trace-adapter.js';

export type Opened = { readonly ok: true; readonly session: Session } | { readonly ok: false; readonly messages: readonly string[] };

/** Actions land on whole milliseconds, so the exported steps read like hand-written ones. */
const ACTION_GRAIN_US = 1_000;

export class Session {
  private run!: ScenarioRun;
  private deadlines!: DeadlineBook;
  private folded = 0;
  private full: RunResult | undefined;
  private cursorUs = 0;

  private constructor(
    readonly text: string,
    readonly file: string,
    readonly scenario: Scenario,
  ) {
    this.restart();
  }

  static open(text: string, file: string): Opened {
    const p = parseScenario(text, file, { knownBugs: BUG_NAMES });
    return p.ok ? { ok: true, session: new Session(text, file, p.scenario) } : { ok: false, messages: p.errors.map(formatError) };
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

  /** Moves the cursor to `t` (clamped to the run), playing on or replaying from the start. */
  seek(t: Micros): void {
    const to = Math.max(0, Math.min(this.endUs, Math.round(t)));
    if (to < this.run.now) this.restart();
    this.run.advanceTo(to);
    this.cursorUs = to;
    this.fold();
  }

  /** Plays on to the next instant at which something is traced; returns false at the end. */
  stepToNextEvent(): boolean {
    const before = this.run.trace.length;
    const sched = this.run.cluster?.sched;
    for (let guard = 0; guard < 100_000 && this.cursorUs < this.endUs; guard++) {
      const next = Math.min(sched?.peekTime() ?? this.endUs, this.nextStepAt() ?? this.endUs, this.endUs);
      this.seek(Math.max(next, this.cursorUs + 1));
      if (this.run.trace.length > before) return true;
    }
    return false;
  }

  /** Every event traced up to the cursor. */
  get events(): readonly TraceEvent[] {
    return this.run.trace.events;
  }

  snapshot(): Snapshot | undefined {
    const c = this.run.cluster;
    if (c === undefined) return undefined;
    return snapshot(this.cursorUs, c, this.run.result().labels, this.deadlines, this.run.clients());
  }

  /** The whole run to its end, hashed as the CLI hashes it (computed once per text). */
  fullResult(): RunResult {
    return (this.full ??= runScenario(this.scenario));
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

  private restart(): void {
    // The cursor's replay keeps events for the views but skips hashing; fullResult() hashes.
    this.run = startScenario(this.scenario, { trace: new Trace(true, true, false) });
    this.deadlines = new DeadlineBook();
    this.folded = 0;
  }

  private fold(): void {
    const ev = this.run.trace.events;
    for (; this.folded < ev.length; this.folded++) this.deadlines.fold(ev[this.folded]!);
  }

  private nextStepAt(): Micros | undefined {
    return this.scenario.steps.find((s) => s.atUs > this.cursorUs)?.atUs;
  }
}
