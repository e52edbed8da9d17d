/**
 * The programs under test of `serve FILE -- CMD` / `--app NAME=CMD`, beside the served cluster: each
 * program gets a relay of its own in front of every member (so a `cut` step can black-hole exactly its
 * connections), the fenced resource and belief board (AppSession), its output lines, start, exit and
 * signals as trace events at the virtual instant they happen, the truth of when its lease ended
 * (AppTruth), and the scenario's steps on programs (app-hook.ts) performed on the real processes.
 */
import { AppSession } from '../apps/app-session.js';
import type { AppExit, AppLine } from '../apps/app-runner.js';
import { type AppJudgement, judgeApps } from '../apps/judge.js';
import type { Fence } from '../apps/resource-server.js';
import type { Micros } from '../clock/time.js';
import { shellCommand } from '../report/terminal-text.js';
import type { AppAction } from '../scenario/replay/app-hook.js';
import type { Trace, TraceEvent } from '../trace/trace.js';
import { type MemberWire, Relay } from './relay.js';

/** One program to run: its name in the trace, and the command (executed directly, no shell). */
export interface AppCommand {
  readonly name: string;
  readonly command: string;
  readonly args?: readonly string[];
  /** The fenced resource it writes to (RESOURCE_URL); default `shared`, one resource for every program. */
  readonly resource?: string;
  /** Extra environment, over the harness's (LOCK_KEY, LEASE_TTL …). */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** The resource every program writes to unless told otherwise: the programs of a run contend for one lock. */
export const SHARED_RESOURCE = 'shared';

export interface ServedAppsOptions {
  /** Where the programs' events go (serve forwards them into the run's trace, and to --record). */
  readonly trace: Trace;
  /** The virtual instant now (serve's pace(): the simulation is first run up to the wall clock). */
  readonly now: () => Micros;
  readonly fence?: Fence;
  readonly host: string;
  /** Each member's name and the port of its gRPC server (behind the relays). */
  readonly members: readonly { readonly name: string; readonly upstreamPort: number }[];
  /** Told of every output line (serve prints them). */
  readonly onLine?: (line: AppLine) => void;
  /** A relay could not listen again after a member's restart. */
  readonly onWireError: (message: string) => void;
}

export class ServedApps {
  readonly session: AppSession;
  private readonly relays = new Map<string, Relay[]>();
  private readonly cuts = new Map<string, Set<string>>();
  private wires: readonly MemberWire[] = [];
  private readonly started: string[] = [];
  /** Each program's command line, shell-quoted, as the trace and serve print it. */
  readonly commands = new Map<string, string>();

  constructor(private readonly o: ServedAppsOptions) {
    const clock = { now: o.now };
    this.session = new AppSession({
      trace: o.trace,
      clock,
      members: [],
      ...(o.fence !== undefined ? { fence: o.fence } : {}),
      onLine: (l) => {
        o.trace.emit({ t: l.t, member: l.app, kind: 'app-output', fields: { stream: l.stream, text: l.text } });
        o.onLine?.(l);
      },
      onExit: (e) => this.exited(e),
    });
  }

  /** Names of the programs, in the order given. */
  get names(): readonly string[] {
    return this.started;
  }

  /** Starts the resource server, then each program with its own relays (AppStartError: cannot be executed). */
  async start(apps: readonly AppCommand[]): Promise<void> {
    await this.session.start();
    for (const a of apps) {
      const relays: Relay[] = [];
      this.relays.set(a.name, relays);
      for (const m of this.o.members) {
        const r = new Relay(this.o.host, 0, m.upstreamPort, (e) =>
          this.o.onWireError(`${a.name}'s relay to ${m.name}: cannot listen again after its restart (${e.code})`),
        );
        relays.push(r);
        await r.listen();
      }
      this.wire();
      const endpoints = this.o.members.map((m, i) => ({ name: m.name, url: `http://${this.host}:${relays[i]!.port}` }));
      await this.session.launch({
        name: a.name,
        command: a.command,
        ...(a.args !== undefined ? { args: a.args } : {}),
        resource: a.resource ?? SHARED_RESOURCE,
        endpoints,
        env: { ...a.env },
        ...(a.cwd !== undefined ? { cwd: a.cwd } : {}),
      });
      this.started.push(a.name);
      this.commands.set(a.name, shellCommand([a.command, ...(a.args ?? [])]));
      this.traceStart(a.name);
    }
  }

  private traceStart(app: string): void {
    this.o.trace.emit({
      t: this.o.now(),
      member: app,
      kind: 'app-start',
      fields: { command: this.commands.get(app)! },
    });
  }

  private get host(): string {
    return this.o.host.includes(':') ? `[${this.o.host}]` : this.o.host;
  }

  /** The members' wire states (serve's pace()), shown on each program's relays with its own cuts. */
  setWires(wires: readonly MemberWire[]): void {
    this.wires = wires;
    this.wire();
  }

  private wire(): void {
    for (const [app, relays] of this.relays) {
      const cut = this.cuts.get(app);
      relays.forEach((r, i) => {
        const member = this.wires[i] ?? 'up';
        r.set(member === 'up' && cut?.has(this.o.members[i]!.name) === true ? 'frozen' : member);
      });
    }
  }

  /**
   * A scenario step on a program, at its virtual instant (inside the simulation's run: nothing here may
   * read the clock). Signals act at once; a kill's or restart's exit and start are traced when they happen.
   */
  act(a: AppAction): string | undefined {
    const app = this.session.apps.get(a.app);
    if (app === undefined) {
      const known = this.started.length === 0 ? 'no program has started yet' : `programs: ${this.started.join(', ')}`;
      return `no program named ${a.app} (${known})`;
    }
    switch (a.kind) {
      case 'pause':
        return app.suspend() ? undefined : 'it is not running';
      case 'resume':
        return app.resume() ? undefined : 'it is not running';
      case 'kill':
        if (!app.running) return 'it is not running';
        void app.kill();
        return undefined;
      case 'restart':
        void app.restart().then(
          () => this.traceStart(a.app),
          (e: Error) => this.o.onWireError(`${a.app} could not start again: ${e.message}`),
        );
        return undefined;
      case 'cut': {
        const cut = this.cuts.get(a.app) ?? new Set<string>();
        for (const m of a.from) cut.add(m);
        this.cuts.set(a.app, cut);
        this.wire();
        return undefined;
      }
      case 'heal':
        this.cuts.delete(a.app);
        this.wire();
        return undefined;
    }
  }

  /** Whether every program has ended on its own (or by a step) and none is being restarted. */
  get allExited(): boolean {
    return this.started.length > 0 && this.session.allExited;
  }

  private exited(e: AppExit): void {
    const t = this.o.now();
    // A program that ends stops acting, whatever it last said.
    if (this.session.server.beliefs.holding(e.app))
      this.session.server.beliefs.report(e.app, { holding: false, reason: 'its process ended' });
    this.o.trace.emit({
      t,
      member: e.app,
      kind: 'app-exit',
      fields: {
        ...(e.code !== null ? { code: e.code } : {}),
        ...(e.signal !== null ? { signal: e.signal } : {}),
        by: e.byHarness ? 'harness' : 'itself',
      },
    });
  }

  /** Ends every program still running; each program's last exit. */
  finish(): Promise<AppExit[]> {
    return this.session.finish();
  }

  /** The holder monitors over the programs' writes, beliefs and lease ends, up to `endUs`. */
  judge(events: readonly TraceEvent[], endUs: Micros): AppJudgement[] {
    const mine = new Set(this.started);
    return judgeApps(
      events.filter((e) => mine.has(e.member)),
      endUs,
    );
  }

  async close(): Promise<void> {
    await this.session.close();
    for (const rs of this.relays.values()) for (const r of rs) r.close();
  }
}
