// A program under test as a child process: its lines relayed with their instants, SIGSTOP/SIGCONT on its
// whole process group, kill, restart, exit capture, and the environment it is given.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { appEnv, memberVariable } from '../../src/apps/app-env.js';
import { type AppLine, AppRunner, AppStartError } from '../../src/apps/app-runner.js';
import { performAppStep } from '../../src/apps/app-steps.js';

const runners: AppRunner[] = [];
afterEach(async () => {
  for (const r of runners.splice(0)) await r.kill();
});

function runner(script: string, env: Record<string, string> = {}) {
  const lines: AppLine[] = [];
  let t = 0;
  const r = new AppRunner(
    { name: 'app', command: '/bin/sh', args: ['-c', script], env },
    { clock: { now: () => ++t }, onLine: (l) => lines.push(l) },
  );
  runners.push(r);
  return { r, lines };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(20);
  }
}

/** Stopped (T), or gone, per /proc. */
function state(pid: number): string {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return s.slice(s.lastIndexOf(')') + 2)[0]!;
  } catch {
    return 'gone';
  }
}

describe('AppRunner', () => {
  it('relays stdout and stderr line by line, control characters escaped, and captures the exit code', async () => {
    const { r, lines } = runner('echo one; echo two >&2; printf "a\\033[2Jb\\n"; exit 3');
    await r.start();
    const exit = await r.exited;
    expect(exit).toMatchObject({ app: 'app', code: 3, signal: null, byHarness: false });
    expect(lines.map((l) => [l.stream, l.text]).sort()).toEqual([
      ['stderr', 'two'],
      ['stdout', 'a\\u001b[2Jb'],
      ['stdout', 'one'],
    ]);
    expect(lines.every((l) => l.t > 0 && l.app === 'app')).toBe(true);
  });

  it('passes the endpoints, one variable per member, and the resource URLs', async () => {
    const env = appEnv('holder-1', {
      members: [
        { name: 'n1', url: 'http://127.0.0.1:1' },
        { name: 'n2', url: 'http://127.0.0.1:2' },
      ],
      resourceUrl: 'http://127.0.0.1:9/resources/r',
      beliefsUrl: 'http://127.0.0.1:9/beliefs',
    });
    const { r, lines } = runner(
      'echo "$ETCDCTL_ENDPOINTS|$ETCD_ENDPOINTS|$ETCD_ENDPOINT_N2|$RESOURCE_URL|$BELIEFS_URL|$HOLDER_NAME"',
      env,
    );
    await r.start();
    await r.exited;
    expect(lines.map((l) => l.text)).toEqual([
      'http://127.0.0.1:1,http://127.0.0.1:2|http://127.0.0.1:1,http://127.0.0.1:2|http://127.0.0.1:2|' +
        'http://127.0.0.1:9/resources/r|http://127.0.0.1:9/beliefs|holder-1',
    ]);
    expect(memberVariable('node-3')).toBe('ETCD_ENDPOINT_NODE_3');
  });

  it('suspends and resumes the whole process group (a child of the shell too), then kills it', async () => {
    const { r, lines } = runner('sleep 300 & echo "child $!"; while :; do echo tick; sleep 0.05; done');
    await r.start();
    await until(() => lines.some((l) => l.text.startsWith('child ')));
    const child = Number(lines.find((l) => l.text.startsWith('child '))!.text.split(' ')[1]);
    expect(r.suspend()).toBe(true);
    await until(() => state(r.pid!) === 'T' && state(child) === 'T');
    const frozen = lines.length;
    await sleep(300);
    expect(lines.length).toBe(frozen);
    expect(r.paused).toBe(true);
    expect(r.resume()).toBe(true);
    await until(() => lines.length > frozen + 2);
    const exit = await r.kill();
    expect(exit).toMatchObject({ code: null, signal: 'SIGKILL', byHarness: true });
    await until(() => state(child) === 'gone' || state(child) === 'Z');
  });

  it('a pause step resumes on the timer it is given; kill and restart steps; unknown apps refused', async () => {
    const { r, lines } = runner('echo start; while :; do sleep 0.05; done');
    await r.start();
    await until(() => lines.length === 1);
    const pid = r.pid!;
    const apps = new Map([['app', r]]);
    const later: Array<[number, () => void]> = [];
    const timer = { after: (us: number, fn: () => void) => later.push([us, fn]) };
    expect(await performAppStep(apps, { kind: 'pause', app: 'app', forUs: 12_000_000 }, timer)).toBeUndefined();
    await until(() => state(pid) === 'T');
    expect(later.map(([us]) => us)).toEqual([12_000_000]);
    later[0]![1]();
    await until(() => state(pid) !== 'T');
    expect(await performAppStep(apps, { kind: 'restart', app: 'app' }, timer)).toBeUndefined();
    expect(r.pid).not.toBe(pid);
    await until(() => lines.length === 2);
    expect(await performAppStep(apps, { kind: 'kill', app: 'app' }, timer)).toBeUndefined();
    expect(r.exits.map((e) => [e.signal, e.byHarness])).toEqual([
      ['SIGKILL', true],
      ['SIGKILL', true],
    ]);
    expect(await performAppStep(apps, { kind: 'kill', app: 'app' }, timer)).toBe('app is not running');
    expect(await performAppStep(apps, { kind: 'pause', app: 'other', forUs: 1 }, timer)).toBe('no app named other');
  });

  it("is restarting, not ended, between a restart's kill and its new start", async () => {
    const { r } = runner('while :; do sleep 0.05; done');
    await r.start();
    const old = r.exited;
    const restarted = r.restart();
    expect(r.restarting).toBe(true);
    await old; // the old process's exit is in; the new one is being spawned
    expect([r.running, r.restarting]).toEqual([false, true]);
    await restarted;
    expect([r.running, r.restarting]).toEqual([true, false]);
  });

  it('refuses a command that cannot be started with AppStartError naming it', async () => {
    const r = new AppRunner({ name: 'x', command: '/nonexistent/holder' }, { clock: { now: () => 0 } });
    await expect(r.start()).rejects.toThrow(AppStartError);
    await expect(r.start()).rejects.toThrow(/cannot start x \(\/nonexistent\/holder\): ENOENT/);
    expect(r.suspend()).toBe(false);
  });
});
