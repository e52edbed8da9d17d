// A campaign on a real Slurm: the test starts munged, slurmctld and slurmd (one node, 2 CPUs) from a
// slurm.conf of its own, submits the campaign with docs/scale-out/slurm-submit.sh (a job array of 4 shards
// running slurm-shard.sh, then slurm-merge.sh once all of them succeeded), and compares what the merge job
// wrote with what one process running the whole campaign writes: the summary byte for byte, the JSON report
// byte for byte but for how long it took and on how many workers, and the counterexample files. Skipped,
// with the reason in its name, only where Slurm cannot start: not root, or Debian's slurm-wlm and munge
// missing (.ci/run installs them). Every daemon it started is stopped, and every job process ended, even
// when it fails. 25–40 s of wall time here (the shards run one at a time on the node's 2 CPUs): it runs with the
// CLI specs in npm test's first vitest run, not with the real-etcd suites of the second.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePorts } from '../../src/real-etcd/ports.js';
import { bundleCli } from '../support/cli-bundle.js';

const ROOT = resolve(__dirname, '../..');
const SCRIPTS = join(ROOT, 'docs/scale-out');
const PROGRAMS = ['munged', 'slurmctld', 'slurmd', 'sbatch', 'squeue', 'scontrol', 'scancel', 'sinfo'];

function onPath(cmd: string): boolean {
  const dirs = (process.env.PATH ?? '').split(':').concat(['/usr/sbin', '/sbin']);
  return dirs.some((d) => d !== '' && existsSync(join(d, cmd)));
}

function skipReason(): string | undefined {
  if (process.getuid?.() !== 0) return 'not root: slurmd runs jobs as their user and needs root';
  const missing = PROGRAMS.filter((d) => !onPath(d));
  if (missing.length > 0) return `no ${missing.join(', ')} (apt-get install slurm-wlm munge)`;
  return undefined;
}

const SKIP = skipReason();
const PATH = `${process.env.PATH ?? ''}:/usr/sbin:/sbin`;

// 24 runs with a bug switch on: 13 violate the property, in every quarter of the campaign.
const CAMPAIGN = ['--seed', '9', '--runs', '24', '--bugs', 'register-expiry-on-followers'];
const PROPERTY = ['--property', 'resource-invariants'];

/** The daemons of one Slurm cluster, started by this test; `stop` ends them and every job they ran. */
interface Slurm {
  readonly env: NodeJS.ProcessEnv;
  readonly conf: string;
  readonly logs: string;
  stop(): Promise<void>;
}

const exited = (p: ChildProcess): boolean => p.exitCode !== null || p.signalCode !== null;

async function waitFor<T>(what: string, ms: number, probe: () => T | undefined): Promise<T> {
  const deadline = performance.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (performance.now() > deadline) throw new Error(`timed out after ${ms / 1000} s waiting for ${what}`);
    await sleep(250);
  }
}

async function endProcess(p: ChildProcess): Promise<void> {
  if (exited(p)) return;
  const gone = new Promise<void>((done) => p.once('exit', () => done()));
  p.kill('SIGTERM');
  const timer = setTimeout(() => p.kill('SIGKILL'), 10_000);
  await gone;
  clearTimeout(timer);
}

/** Processes whose environment names this cluster's slurm.conf: the jobs' shells, their node processes, slurmstepd. */
function processesOf(conf: string): number[] {
  const mark = `SLURM_CONF=${conf}\0`;
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d) && Number(d) !== process.pid)
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/environ`, 'latin1').includes(mark);
      } catch {
        return false; // gone meanwhile, or not ours to read
      }
    })
    .map(Number);
}

async function startSlurm(dir: string): Promise<Slurm> {
  // munged wants its socket's folder open to all and its key readable by it alone.
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, 'key'), { mode: 0o700 });
  const key = join(dir, 'key', 'munge.key');
  writeFileSync(key, randomBytes(1024), { mode: 0o600 });
  const logs = join(dir, 'logs');
  for (const d of ['state', 'spool', 'logs']) mkdirSync(join(dir, d));
  const socket = join(dir, 'munge.socket');
  const conf = join(dir, 'slurm.conf');
  const [ctldPort, slurmdPort] = await freePorts(2);
  const host = hostname();
  writeFileSync(
    conf,
    [
      'ClusterName=lessorsim',
      `SlurmctldHost=${host}(127.0.0.1)`,
      `SlurmctldPort=${ctldPort}`,
      `SlurmdPort=${slurmdPort}`,
      'AuthType=auth/munge',
      'CredType=cred/munge',
      `AuthInfo=socket=${socket}`,
      'SlurmUser=root',
      'SlurmdUser=root',
      `StateSaveLocation=${join(dir, 'state')}`,
      `SlurmdSpoolDir=${join(dir, 'spool')}`,
      `SlurmctldPidFile=${join(dir, 'slurmctld.pid')}`,
      `SlurmdPidFile=${join(dir, 'slurmd.pid')}`,
      // No cgroups: linuxproc tracks a job's processes by parentage, which any container allows.
      'ProctrackType=proctrack/linuxproc',
      'TaskPlugin=task/none',
      'JobAcctGatherType=jobacct_gather/none',
      'AccountingStorageType=accounting_storage/none',
      'JobCompType=jobcomp/none',
      'MpiDefault=none',
      'SwitchType=switch/none',
      'MailProg=/bin/true',
      'SchedulerType=sched/builtin',
      'SelectType=select/cons_tres',
      'SelectTypeParameters=CR_CPU',
      'ReturnToService=2',
      `NodeName=lessorsim NodeHostname=${host} NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN`,
      'PartitionName=campaign Nodes=lessorsim Default=YES MaxTime=INFINITE State=UP',
      '',
    ].join('\n'),
  );
  const env = { ...process.env, PATH, SLURM_CONF: conf };
  const daemons: ChildProcess[] = [];
  const daemon = (cmd: string, args: readonly string[]): ChildProcess => {
    const log = openSync(join(logs, `${cmd}.log`), 'a');
    const p = spawn(cmd, args, { env, stdio: ['ignore', log, log] });
    p.on('error', () => {}); // seen as an exit; its log says why
    daemons.push(p);
    return p;
  };
  const stop = async (): Promise<void> => {
    // Jobs first, while the controller can still end them; then the daemons, newest first.
    try {
      execFileSync('scancel', ['--full', '--user', 'root'], { env, stdio: 'ignore', timeout: 10_000 });
      await waitFor('the jobs to end', 15_000, () => (squeue(env) === '' ? true : undefined));
    } catch {
      // the controller is gone or slow: the jobs' processes are ended below all the same
    }
    for (const p of [...daemons].reverse()) await endProcess(p);
    for (const pid of processesOf(conf)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  try {
    const munged = daemon('munged', [
      '--foreground',
      `--key-file=${key}`,
      `--socket=${socket}`,
      `--pid-file=${join(dir, 'munged.pid')}`,
      `--seed-file=${join(dir, 'munged.seed')}`,
    ]);
    await waitFor('munged', 10_000, () => {
      if (exited(munged)) throw new Error(`munged exited: ${logTail(logs, 'munged')}`);
      return existsSync(socket) ? true : undefined;
    });
    const ctld = daemon('slurmctld', ['-D', '-f', conf]);
    const slurmd = daemon('slurmd', ['-D', '-f', conf, '-N', 'lessorsim']);
    await waitFor('the node to come up idle', 60_000, () => {
      for (const [name, p] of [
        ['slurmctld', ctld],
        ['slurmd', slurmd],
      ] as const)
        if (exited(p)) throw new Error(`${name} exited: ${logTail(logs, name)}`);
      return sinfo(env) === 'idle' ? true : undefined;
    });
  } catch (e) {
    await stop();
    throw e;
  }
  return { env, conf, logs, stop };
}

function logTail(logs: string, name: string): string {
  const f = join(logs, `${name}.log`);
  return existsSync(f) ? readFileSync(f, 'utf8').trim().split('\n').slice(-8).join('\n') : '(no log)';
}

function slurmQuery(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  try {
    return execFileSync(cmd, args, { env, encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined; // the controller not answering yet
  }
}

const sinfo = (env: NodeJS.ProcessEnv): string | undefined => slurmQuery('sinfo', ['-h', '-o', '%T'], env)?.trim();
const squeue = (env: NodeJS.ProcessEnv): string | undefined =>
  slurmQuery('squeue', ['-h', '-o', '%i %T %r'], env)?.trim();

/** A finished job's state and exit code, as the controller keeps it for a while after the job ends. */
function jobEnd(id: string, env: NodeJS.ProcessEnv): { state: string; exit: string } {
  const text = slurmQuery('scontrol', ['show', 'job', id], env) ?? '';
  return { state: /JobState=(\S+)/.exec(text)?.[1] ?? '?', exit: /\bExitCode=(\S+)/.exec(text)?.[1] ?? '?' };
}

interface Ran {
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
}

function run(cmd: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, out, err }));
  });
}

/** A report's text with how it ran (seconds, workers) blanked: the rest is what the campaign found. */
const whatItFound = (report: string): string =>
  report.replace(/^( *"seconds": )[0-9.e+-]+/m, '$1_').replace(/^( *"workers": )\d+/m, '$1_');

const filesIn = (d: string): Record<string, string> =>
  Object.fromEntries(readdirSync(d).map((f) => [f, readFileSync(join(d, f), 'utf8')]));

describe.skipIf(SKIP !== undefined)(`a campaign on Slurm${SKIP === undefined ? '' : ` (skipped: ${SKIP})`}`, () => {
  // In the checkout (.scratch* is ignored by git), so the bundle finds node_modules and package.json.
  let work = '';
  let state = '';
  let slurm: Slurm | undefined;

  beforeAll(async () => {
    work = mkdtempSync(join(ROOT, '.scratch-slurm-'));
    const bin = join(work, 'bin');
    await bundleCli(bin);
    chmodSync(join(bin, 'lessor-sim.js'), 0o755);
    // The campaign's folder is a project with lessor-sim installed, so the scripts' `npx lessor-sim` runs it.
    for (const d of ['campaign', 'single']) {
      mkdirSync(join(work, d, 'node_modules', '.bin'), { recursive: true });
      writeFileSync(join(work, d, 'package.json'), '{ "name": "campaign", "private": true }\n');
      symlinkSync(join(bin, 'lessor-sim.js'), join(work, d, 'node_modules', '.bin', 'lessor-sim'));
    }
    state = mkdtempSync('/tmp/lessor-sim-slurm-');
    slurm = await startSlurm(state);
  }, 120_000);

  afterAll(async () => {
    await slurm?.stop();
    if (state !== '') rmSync(state, { recursive: true, force: true });
    if (work !== '') rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('runs the docs scripts: 4 shards as a job array, merged after, equal to one process', async () => {
    const { env, logs } = slurm!;
    // npx never reaches for the registry: lessor-sim is in the folder's node_modules.
    const jobEnv = { ...env, npm_config_offline: 'true', npm_config_update_notifier: 'false' };
    const campaign = join(work, 'campaign');
    const single = join(work, 'single');
    // The single process runs while Slurm runs the shards: the same flags as the shard and merge scripts give.
    const one = run(
      'npx',
      [
        'lessor-sim',
        'check',
        ...CAMPAIGN,
        ...PROPERTY,
        '--workers',
        '1',
        '--allow-known',
        '--out',
        'counterexamples',
        '--reporter',
        'json',
        '--output',
        'campaign.json',
      ],
      single,
      jobEnv,
    );
    const submitted = await run(
      'bash',
      [join(SCRIPTS, 'slurm-submit.sh'), '4', ...CAMPAIGN, ...PROPERTY],
      campaign,
      jobEnv,
    );
    expect(submitted.code, submitted.err).toBe(0);
    const [array, merge] = [...submitted.out.matchAll(/job (\d+)/g)].map((m) => m[1]!);
    expect(merge, submitted.out).toBeDefined();
    const queued = await waitFor('the shards and the merge to finish', 240_000, () =>
      squeue(env) === '' ? true : undefined,
    ).catch((e: Error) => `${e.message}; queue: ${squeue(env)}; slurmd: ${logTail(logs, 'slurmd')}`);
    expect(queued, 'queue drained').toBe(true);
    const shardLog = (i: number): string => {
      const f = join(campaign, 'reports', `shard-${i}.log`);
      return existsSync(f) ? readFileSync(f, 'utf8') : '(no log)';
    };
    for (let i = 0; i < 4; i++)
      expect(jobEnd(`${array}_${i}`, env), `shard ${i}: ${shardLog(i)}`).toEqual({ state: 'COMPLETED', exit: '0:0' });
    // The merge job's exit code is the campaign's verdict: the single process's.
    const o = await one;
    expect(o.code, o.err).toBe(1); // --allow-known, and a violation no finding class explains
    const mergeErr = join(campaign, 'campaign.err');
    expect(jobEnd(merge!, env), existsSync(mergeErr) ? readFileSync(mergeErr, 'utf8') : '(no campaign.err)').toEqual({
      state: 'FAILED',
      exit: '1:0',
    });
    const summary = readFileSync(join(campaign, 'campaign.txt'), 'utf8');
    expect(summary).toMatch(/^24 runs \(indices 0\.\.23\), 13 with a violation$/m);
    expect(summary).toBe(o.out);
    const merged = readFileSync(join(campaign, 'campaign.json'), 'utf8');
    expect(merged).toMatch(/"workers": 4,/); // 4 shards of 1 worker each
    expect(whatItFound(merged)).toBe(whatItFound(readFileSync(join(single, 'campaign.json'), 'utf8')));
    const cx = filesIn(join(single, 'counterexamples'));
    expect(Object.keys(cx)).toHaveLength(13);
    expect(filesIn(join(campaign, 'counterexamples'))).toEqual(cx);
    // Each task ran its own shard, as the array index says.
    for (let i = 0; i < 4; i++) {
      const report = JSON.parse(readFileSync(join(campaign, 'reports', `shard-${i}.json`), 'utf8')) as {
        shard: unknown;
        ran: unknown;
      };
      expect(report.shard).toEqual({ index: i, count: 4 });
      expect(report.ran).toEqual([[6 * i, 6 * i + 5]]);
    }
  }, 300_000);
});
