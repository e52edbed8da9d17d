// serve as a child process (the way the conformance suite and users run it), and etcdctl against it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../..');
const MAIN = resolve(ROOT, 'src/cli/main.ts');

export interface ServeChild {
  readonly child: ChildProcess;
  readonly stdout: string[];
  readonly stderr: string[];
  /** Member name to http://host:port. */
  readonly urls: Readonly<Record<string, string>>;
  readonly memberIds: Readonly<Record<string, string>>;
  /** Wall-clock ms (Date.now) when the ready line was read: virtual time 0 is no later than this. */
  readonly readyAt: number;
  readonly exited: Promise<number | null>;
}

/** Starts `lessor-sim serve ARGS` and resolves once it prints its ready line. */
export async function startServeChild(args: readonly string[], readyTimeoutMs = 90_000): Promise<ServeChild> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'serve', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const lines = (into: string[]) => {
    let rest = '';
    return (b: Buffer) => {
      const parts = (rest + b.toString()).split('\n');
      rest = parts.pop()!;
      into.push(...parts);
    };
  };
  child.stdout!.on('data', lines(stdout));
  child.stderr!.on('data', lines(stderr));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const deadline = Date.now() + readyTimeoutMs;
  while (!stdout.some((l) => l.startsWith('# ready'))) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`serve did not get ready:\n${stdout.join('\n')}\n${stderr.join('\n')}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  const readyAt = Date.now();
  const urls: Record<string, string> = {};
  const memberIds: Record<string, string> = {};
  for (const l of stdout) {
    const m = /^# (n\d) (http:\/\/\S+) member-id (\d+)$/.exec(l);
    if (m !== null) {
      urls[m[1]!] = m[2]!;
      memberIds[m[1]!] = m[3]!;
    }
  }
  return { child, stdout, stderr, urls, memberIds, readyAt, exited };
}

/** Runs etcdctl (asynchronously, so the test's own serve keeps running) and collects its output. */
export function etcdctl(
  args: readonly string[],
  env: Record<string, string> = {},
  /** For commands that run until stopped (lease keep-alive, watch): SIGINT after this long. */
  stopAfterMs?: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const p = spawn('etcdctl', args, { env: { ...process.env, ETCDCTL_API: '3', ...env } });
    if (stopAfterMs !== undefined) setTimeout(() => p.kill('SIGINT'), stopAfterMs);
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (b: Buffer) => {
      stdout += b.toString();
    });
    p.stderr.on('data', (b: Buffer) => {
      stderr += b.toString();
    });
    p.on('exit', (code) => done({ code, stdout, stderr }));
  });
}

/** `lessor-sim ARGS` to its end. */
export function lessorSim(args: readonly string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', MAIN, ...args], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits until `ms` of wall time have passed since the child was ready (virtual time is at least that far). */
export const untilVirtual = (c: ServeChild, ms: number): Promise<void> =>
  sleep(Math.max(0, c.readyAt + ms - Date.now()));
