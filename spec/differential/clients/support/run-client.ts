// Runs one client script against a target's endpoints: its own process group (the etcdctl scripts start
// background etcdctl processes), a hard time limit after which the whole group is killed, and every line it
// prints to stdout kept as the transcript (stderr is kept apart, for the failure message).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ClientRun {
  /** Exit code, or null when killed (by the time limit or a signal). */
  readonly code: number | null;
  readonly timedOut: boolean;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly endpoints: readonly string[];
  readonly timeoutMs: number;
  readonly cwd: string;
  /** Called once the process runs, with its PID (also its process group's ID). */
  readonly onStart?: (pid: number) => void;
}

/** The environment every client reads its endpoints from: etcdctl's and the scripts' own variable. */
export function clientEnv(endpoints: readonly string[]): NodeJS.ProcessEnv {
  const list = endpoints.join(',');
  return { ...process.env, ETCDCTL_API: '3', ETCDCTL_ENDPOINTS: list, ETCD_ENDPOINTS: list };
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group has ended already
  }
}

export function runClient(cmd: string, args: readonly string[], opts: RunOptions): Promise<ClientRun> {
  return new Promise((resolve, reject) => {
    const proc = spawn(cmd, args, {
      env: clientEnv(opts.endpoints),
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: opts.cwd,
      detached: true,
    });
    const out: string[] = [];
    let err = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (proc.pid !== undefined) killGroup(proc.pid);
    }, opts.timeoutMs);
    createInterface({ input: proc.stdout }).on('line', (line) => {
      out.push(line);
    });
    proc.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
    });
    proc.once('spawn', () => {
      if (proc.pid !== undefined) opts.onStart?.(proc.pid);
    });
    proc.once('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`cannot start ${cmd}: ${e.message}`));
    });
    proc.once('close', (code) => {
      clearTimeout(timer);
      // Whatever the script left running in the background ends with it.
      if (proc.pid !== undefined) killGroup(proc.pid);
      resolve({ code, timedOut, stdout: out.map((l) => `${l}\n`).join(''), stderr: err });
    });
  });
}
