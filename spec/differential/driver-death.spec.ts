// The real-etcd driver's processes die with it and its report cannot be fooled: SIGKILL or SIGQUIT of
// `diff` (no handler runs) still ends every etcd and keep-alive process and removes the data dirs, through
// the reaper watching the driver's pipe; a member someone else kills mid-run makes the file DISAGREE with
// the exit named, never AGREE. Skipped where /usr/bin/etcd is missing.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FileDiff } from '../../src/real-etcd/diff-file.js';
import { runDiff } from '../../src/real-etcd/index.js';
import { SUITE_FILES } from './suite-files.js';

const noEtcd = !existsSync('/usr/bin/etcd');
const SKIP = noEtcd ? ' (skipped: /usr/bin/etcd is missing)' : '';
const FILE = SUITE_FILES.find((f) => f.endsWith('follower-renewal.yaml'))!;

interface Proc {
  readonly pid: number;
  readonly cmd: string;
}

function childrenOf(ppid: number): Proc[] {
  try {
    return execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(ppid)], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => ({ pid: Number(l.trim().split(/\s+/)[0]), cmd: l.trim().replace(/^\d+\s+/, '') }));
  } catch {
    return [];
  }
}

/** Gone, or a zombie: not running. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `ok()` or about `ms` have passed. */
async function until(ok: () => boolean, ms: number): Promise<void> {
  for (let waited = 0; waited < ms && !ok(); waited += 100) await sleep(100);
}

describe(`real-etcd driver death${SKIP}`, () => {
  it.skipIf(noEtcd).each(['SIGKILL', 'SIGQUIT'] as const)(
    '%s of the driver mid-run leaves no etcd, keep-alive process or data dir behind',
    async (signal) => {
      const cli = spawn(process.execPath, ['--import', 'tsx', resolve(__dirname, 'diff-cli.ts'), FILE], {
        stdio: ['ignore', 'ignore', 'ignore'],
      });
      const exited = new Promise<void>((r) => cli.once('exit', () => r()));
      let seen: Proc[] = [];
      await until(() => (seen = childrenOf(cli.pid!)).some((c) => c.cmd.includes('keep-alive')), 30_000);
      const members = seen.filter((c) => c.cmd.includes('--data-dir='));
      expect(members).toHaveLength(3);
      const dataRoot = dirname(/--data-dir=(\S+)/.exec(members[0]!.cmd)![1]!);
      cli.kill(signal);
      await exited;
      await until(() => !seen.some((c) => running(c.pid)) && !existsSync(dataRoot), 10_000);
      expect(seen.filter((c) => running(c.pid)).map((c) => c.cmd)).toEqual([]);
      expect(existsSync(dataRoot)).toBe(false);
    },
    90_000,
  );

  it.skipIf(noEtcd)(
    'a member SIGKILLed by someone else mid-run is reported, and the file does not AGREE',
    async () => {
      const out: string[] = [];
      const files: FileDiff[] = [];
      const killer = (async () => {
        let n1: Proc | undefined;
        await until(() => {
          const all = childrenOf(process.pid);
          n1 = all.find((c) => c.cmd.includes('--name=n1 '));
          return n1 !== undefined && all.some((c) => c.cmd.includes('keep-alive'));
        }, 30_000);
        await sleep(1_000);
        if (n1 !== undefined) process.kill(n1.pid, 'SIGKILL');
        return n1;
      })();
      const code = await runDiff([FILE], { out: (l) => out.push(l), err: () => {}, onFile: (d) => files.push(d) });
      expect(await killer).toBeDefined();
      expect(code).toBe(1);
      expect(files[0]!.agree).toBe(false);
      expect(files[0]!.realNotes[0]).toMatch(/^unplanned exit of etcd n1 \(pid \d+\) killed by SIGKILL/);
      expect(out.join('\n')).toMatch(/result: DISAGREE/);
    },
    120_000,
  );
});
