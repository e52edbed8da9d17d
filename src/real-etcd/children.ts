/**
 * Every process and directory the real-etcd driver creates, so that each one is ended (by PID, with
 * SIGKILL: etcd's graceful SIGTERM shutdown can stall for seconds trying to hand leadership to peers that
 * are already gone) and removed on success, on failure and on SIGINT/SIGTERM/SIGHUP of this process.
 * Each child runs in its own process group, which the reaper (reaper.ts) kills if the driver dies
 * without cleaning up (SIGKILL, SIGQUIT …). A watched child (an etcd member) that exits without the
 * driver ending it is recorded: the real run was then not the scenario's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DriverError } from './errors.js';
import { dirGone, groupGone, reapDir, reapGroup } from './reaper.js';
import { within } from './wall-clock.js';

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A child process the registry owns. */
export class Child {
  private readonly tail: string[] = [];
  private readonly lineListeners: Array<(line: string) => void> = [];
  exitInfo: Exit | undefined;
  readonly exited: Promise<Exit>;
  /** Set when the driver sends a signal that ends it: its exit is then part of the plan. */
  endedByDriver = false;

  constructor(
    readonly name: string,
    readonly pid: number,
    readonly proc: ChildProcess,
  ) {
    this.exited = new Promise((resolve) => {
      proc.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        resolve(this.exitInfo);
      });
    });
    for (const stream of [proc.stdout, proc.stderr]) {
      if (stream === null) continue;
      createInterface({ input: stream }).on('line', (line) => {
        this.tail.push(line);
        if (this.tail.length > 40) this.tail.shift();
        for (const l of this.lineListeners) l(line);
      });
    }
  }

  get running(): boolean {
    return this.exitInfo === undefined;
  }

  /** Each line the child prints (stdout and stderr), as it arrives. */
  onLine(fn: (line: string) => void): void {
    this.lineListeners.push(fn);
  }

  /** The last lines the child printed, for error messages. */
  lastLines(n = 5): string[] {
    return this.tail.slice(-n);
  }

  describeExit(): string {
    const e = this.exitInfo;
    if (e === undefined) return 'still running';
    return e.signal !== null ? `killed by ${e.signal}` : `exited with code ${e.code}`;
  }
}

const live = new Set<ChildRegistry>();
const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/** Kills every tracked child and waits (briefly) until each is reaped, so none lingers as a zombie;
 * removes the directories; then exits as the signal would have. */
function onSignal(sig: NodeJS.Signals): void {
  const code = SIGNAL_EXIT[sig] ?? 1;
  const all = Promise.allSettled([...live].map((r) => r.close()));
  void within(all, 5_000, 'children not reaped')
    .catch(() => {
      for (const r of live) r.closeSync();
    })
    .finally(() => process.exit(code));
}
const onExit = (): void => {
  for (const r of live) r.closeSync();
};

function watchProcess(r: ChildRegistry): void {
  if (live.size === 0) {
    for (const s of SIGNALS) process.on(s, onSignal);
    process.on('exit', onExit);
  }
  live.add(r);
}

function unwatchProcess(r: ChildRegistry): void {
  if (!live.delete(r) || live.size > 0) return;
  for (const s of SIGNALS) process.off(s, onSignal);
  process.off('exit', onExit);
}

export class ChildRegistry {
  private readonly children = new Map<number, Child>();
  private readonly dirs = new Set<string>();
  /** Every PID ever started, for tests that check nothing survived. */
  readonly startedPids: number[] = [];
  readonly createdDirs: string[] = [];

  constructor() {
    watchProcess(this);
  }

  /** Watched children that exited without the driver ending them, each described once. */
  private readonly unplanned: string[] = [];

  /** A fresh directory under os.tmpdir(), removed by close(). */
  tempDir(prefix: string): string {
    const d = mkdtempSync(join(tmpdir(), prefix));
    reapDir(d);
    this.dirs.add(d);
    this.createdDirs.push(d);
    return d;
  }

  /**
   * Starts a tracked child in its own process group; a binary that cannot be executed is a DriverError
   * naming it. With `watch`, an exit the driver did not cause is recorded (unplannedExits).
   */
  async spawn(
    name: string,
    cmd: string,
    args: readonly string[],
    env?: NodeJS.ProcessEnv,
    watch = false,
  ): Promise<Child> {
    const proc = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: env ?? process.env, detached: true });
    await new Promise<void>((resolve, reject) => {
      proc.once('spawn', resolve);
      proc.once('error', (e: NodeJS.ErrnoException) =>
        reject(new DriverError(`cannot start ${name} (${cmd}): ${e.code ?? e.message}`)),
      );
    });
    const pid = proc.pid!;
    reapGroup(pid);
    const child = new Child(name, pid, proc);
    this.children.set(pid, child);
    this.startedPids.push(pid);
    void child.exited.then(() => {
      this.children.delete(pid);
      groupGone(pid);
      if (watch && !child.endedByDriver) this.unplanned.push(`${name} (pid ${pid}) ${child.describeExit()}`);
    });
    return child;
  }

  /** Watched children that exited though the driver did not end them (another process killed them). */
  unplannedExits(): readonly string[] {
    return [...this.unplanned];
  }

  /** Sends a signal by PID; false if the child has already exited. */
  signal(child: Child, sig: NodeJS.Signals): boolean {
    if (!child.running) return false;
    if (sig === 'SIGKILL' || sig === 'SIGTERM') child.endedByDriver = true;
    try {
      process.kill(child.pid, sig);
      return true;
    } catch {
      return false;
    }
  }

  /** SIGKILL by PID (also ends a SIGSTOPped child) and waits until it is reaped. */
  async kill(child: Child): Promise<void> {
    if (!this.signal(child, 'SIGKILL')) return;
    await within(child.exited, 10_000, `${child.name} (pid ${child.pid}) did not exit after SIGKILL`);
  }

  /** Ends every child still running and removes every directory made. Safe to call twice. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.children.values()].map((c) => this.kill(c)));
    this.removeDirs();
    unwatchProcess(this);
  }

  /** The same, synchronously, for signal and exit handlers (no waiting for reaping). */
  closeSync(): void {
    for (const c of this.children.values()) {
      c.endedByDriver = true;
      try {
        process.kill(c.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    this.removeDirs();
  }

  private removeDirs(): void {
    for (const d of this.dirs) {
      rmSync(d, { recursive: true, force: true, maxRetries: 3 });
      this.dirs.delete(d);
      dirGone(d);
    }
  }
}
