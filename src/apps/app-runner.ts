/**
 * One program under test as a child process: started with the cluster's endpoints in its environment,
 * its stdout and stderr relayed line by line with the instant each line arrived, and the client-side
 * faults of the runbook applied to the real process: suspend/resume (SIGSTOP/SIGCONT, a GC pause),
 * kill (SIGKILL) and restart (the same command again). The program runs in a process group of its own,
 * so a shell wrapper and everything it started are stopped, resumed and killed together.
 *
 * Instants come from `clock` (the wall clock against real etcd; serve's paced virtual clock under
 * serve). Nothing here waits on a clock: a pause's end is scheduled by the caller (app-steps.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Micros } from '../clock/time.js';
import { escapeControls } from '../report/terminal-text.js';

export interface AppSpec {
  /** The app's name (its HOLDER_NAME, and the name its lines carry). */
  readonly name: string;
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to this process's environment (the endpoints; see appEnv). */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

export interface AppLine {
  readonly app: string;
  readonly stream: 'stdout' | 'stderr';
  readonly t: Micros;
  /** The line with control characters escaped (escapeControls()). */
  readonly text: string;
}

export interface AppExit {
  readonly app: string;
  readonly t: Micros;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Ended by kill(), restart() or close(), not on its own. */
  readonly byHarness: boolean;
}

/** The command could not be started (not found, not executable): the user's situation, exit 2. */
export class AppStartError extends Error {}

export interface AppRunnerOptions {
  readonly clock: { now(): Micros };
  readonly onLine?: (line: AppLine) => void;
  readonly onExit?: (exit: AppExit) => void;
}

const live = new Set<AppRunner>();
let hooked = false;
/**
 * A runner's groups must not outlive this process: they are killed when it exits. A process ended by a
 * signal runs no exit hook, so a front end that handles SIGINT/SIGTERM calls kill() (AppSession.close).
 */
function killAllSync(): void {
  for (const r of live) r.killSync();
}

export class AppRunner {
  private child: ChildProcess | undefined;
  private exitPromise: Promise<AppExit> | undefined;
  private harnessEnds = false;
  private suspended = false;
  private restarts = 0;
  readonly exits: AppExit[] = [];

  constructor(
    readonly spec: AppSpec,
    private readonly opts: AppRunnerOptions,
  ) {}

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Resolves when the current run of the program has exited. */
  get exited(): Promise<AppExit> {
    if (this.exitPromise === undefined) throw new Error(`${this.spec.name} was never started`);
    return this.exitPromise;
  }

  /** Starts the program; rejects with AppStartError if it cannot be executed. */
  async start(): Promise<void> {
    if (this.running) throw new Error(`${this.spec.name} is already running`);
    const proc = spawn(this.spec.command, [...(this.spec.args ?? [])], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...this.spec.env },
      ...(this.spec.cwd !== undefined ? { cwd: this.spec.cwd } : {}),
      detached: true,
    });
    await new Promise<void>((resolve, reject) => {
      proc.once('spawn', resolve);
      proc.once('error', (e: NodeJS.ErrnoException) =>
        reject(new AppStartError(`cannot start ${this.spec.name} (${this.spec.command}): ${e.code ?? e.message}`)),
      );
    });
    this.child = proc;
    this.harnessEnds = false;
    this.suspended = false;
    if (!hooked) {
      process.on('exit', killAllSync);
      hooked = true;
    }
    live.add(this);
    const ended: Promise<void>[] = [];
    for (const [stream, input] of [
      ['stdout', proc.stdout],
      ['stderr', proc.stderr],
    ] as const) {
      if (input === null) continue;
      const rl = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
      rl.on('line', (text) =>
        this.opts.onLine?.({ app: this.spec.name, stream, t: this.opts.clock.now(), text: escapeControls(text) }),
      );
      ended.push(new Promise((resolve) => rl.once('close', resolve)));
    }
    this.exitPromise = new Promise((resolve) => {
      proc.once('exit', (code, signal) => {
        const t = this.opts.clock.now();
        live.delete(this);
        // Its last lines first; a grandchild still holding the pipes does not keep the exit waiting.
        const drained = Promise.race([Promise.all(ended), new Promise((r) => setTimeout(r, 200))]);
        void drained.then(() => {
          const exit: AppExit = { app: this.spec.name, t, code, signal, byHarness: this.harnessEnds };
          this.exits.push(exit);
          this.opts.onExit?.(exit);
          resolve(exit);
        });
      });
    });
  }

  /** SIGSTOP to the program's process group; false if it is not running. */
  suspend(): boolean {
    if (!this.signal('SIGSTOP')) return false;
    this.suspended = true;
    return true;
  }

  /** SIGCONT to the program's process group; false if it is not running. */
  resume(): boolean {
    if (!this.signal('SIGCONT')) return false;
    this.suspended = false;
    return true;
  }

  get paused(): boolean {
    return this.suspended && this.running;
  }

  /** SIGKILL to the group (a stopped program dies too); resolves with its exit. */
  async kill(): Promise<AppExit | undefined> {
    if (!this.running) return this.exitPromise === undefined ? undefined : await this.exitPromise;
    this.harnessEnds = true;
    this.signal('SIGKILL');
    return await this.exitPromise;
  }

  /** Kills the program if it runs, then starts the same command again. */
  async restart(): Promise<void> {
    this.restarts++;
    try {
      await this.kill();
      await this.start();
    } finally {
      this.restarts--;
    }
  }

  /** Between a restart's kill and its new start: not running, yet not ended either. */
  get restarting(): boolean {
    return this.restarts > 0;
  }

  /** Synchronous SIGKILL, for exit handlers. */
  killSync(): void {
    if (!this.running) return;
    this.harnessEnds = true;
    this.signal('SIGKILL');
  }

  private signal(sig: NodeJS.Signals): boolean {
    const pid = this.child?.pid;
    if (pid === undefined || !this.running) return false;
    try {
      process.kill(-pid, sig);
      return true;
    } catch {
      return false;
    }
  }
}
