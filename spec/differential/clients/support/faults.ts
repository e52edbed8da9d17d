// Faults seen through real clients. Each case is a scenario file whose member steps (pause, resume, crash,
// restart) a real etcd 3.4.23 cluster gets at the same wall-clock instants after the client starts, and
// which `lessor-sim serve FILE` runs as it is; the client's normalised transcript must be the golden one
// on real etcd, and the same on serve but for the known gaps. A case may stop the client process itself
// (a holder stalled past its TTL), on both targets alike. (A lease revoked by another client while a
// keep-alive stream is open is in the conformance scripts: etcdctl-lease, go-clientv3-lease, npm-etcd3.)
// A case may be served only (a partitioned leader: the real-etcd driver runs members on loopback without
// network namespaces and cannot partition them); its expected transcript is then what etcd 3.4.23's source
// says the client prints, written by hand and argued in the scenario's description.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../../../src/scenario/parse.js';
import type { Scenario, Step } from '../../../../src/scenario/types.js';
import { within } from '../../../../src/real-etcd/wall-clock.js';
import { type ClientScript, missing, ROOT } from './clients.js';
import { noEtcd, prepare, serveMissing, testTimeout, transcriptOn } from './conformance.js';
import { KNOWN_GAPS } from './known-gaps.js';
import { startEtcd, startServe, type Target } from './targets.js';
import { describeHunks, diffLines, readGolden, WRITE_GOLDEN, writeGolden } from './transcripts.js';

const FAULTS = join(__dirname, '../faults');

export interface FaultCase {
  readonly file: string;
  readonly client: 'etcdctl' | 'go' | 'python' | 'node';
  readonly script: ClientScript;
  /** The client's own process group stopped (SIGSTOP) at `atMs` after its start and continued `forMs` later. */
  readonly clientPause?: { readonly atMs: number; readonly forMs: number };
  /** Why the case cannot run on real etcd; its expected transcript is then not measured but argued. */
  readonly servedOnly?: string;
}

type MemberStep = Extract<Step, { kind: 'pause' | 'resume' | 'crash' | 'restart' }>;

function scenarioOf(file: string): Scenario {
  const path = join(FAULTS, file);
  const parsed = parseScenario(readFileSync(path, 'utf8'), path);
  if (!parsed.ok) throw new Error(`${file} does not parse: ${JSON.stringify(parsed)}`);
  return parsed.scenario;
}

const durationMs = (file: string): number => scenarioOf(file).durationUs / 1000;

/** Cluster faults of any kind, a partition included (which only serve can apply). */
const faultSteps = (file: string): number =>
  scenarioOf(file).steps.filter((s) => ['pause', 'crash', 'partition'].includes(s.kind)).length;

const expectSteps = (file: string): number => scenarioOf(file).steps.filter((s) => s.kind === 'expect').length;

function memberSteps(file: string): MemberStep[] {
  return scenarioOf(file).steps.filter(
    (s): s is MemberStep =>
      ['pause', 'resume', 'crash', 'restart'].includes(s.kind) && 'member' in s && s.member !== undefined,
  );
}

/** Applies each step to the real cluster at its instant after `t0` (a pause with `for` resumes itself). */
function schedule(target: Target, steps: readonly MemberStep[]): () => void {
  const cluster = target.cluster!;
  const timers: NodeJS.Timeout[] = [];
  const at = (us: number, fn: () => unknown) => timers.push(setTimeout(() => void fn(), us / 1000));
  for (const s of steps) {
    const m = s.member!;
    if (s.kind === 'pause') {
      at(s.atUs, () => cluster.pause(m));
      if (s.forUs !== undefined) at(s.atUs + s.forUs, () => cluster.resume(m));
    } else if (s.kind === 'resume') at(s.atUs, () => cluster.resume(m));
    else if (s.kind === 'crash') at(s.atUs, () => cluster.crash(m));
    else at(s.atUs, () => cluster.restart(m));
  }
  return () => {
    for (const t of timers) clearTimeout(t);
  };
}

/** serve's own verdicts on the scenario's `expect` steps, once the scenario's duration has passed. */
async function served(target: Target, c: FaultCase): Promise<{ code: number | null; output: string }> {
  const end = await within(target.finished!, durationMs(c.file) + 60_000, `serve did not end after ${c.file}`);
  return end;
}

async function transcript(
  target: Target,
  c: FaultCase,
  steps: readonly MemberStep[],
): Promise<{ transcript: string; serve?: { code: number | null; output: string } }> {
  const cancel = target.kind === 'etcd' ? schedule(target, steps) : () => {};
  const timers: NodeJS.Timeout[] = [];
  const pauseClient = (pid: number): void => {
    const p = c.clientPause;
    if (p === undefined) return;
    const signal = (sig: NodeJS.Signals) => () => {
      try {
        process.kill(-pid, sig);
      } catch {
        // the client has ended
      }
    };
    timers.push(setTimeout(signal('SIGSTOP'), p.atMs), setTimeout(signal('SIGCONT'), p.atMs + p.forMs));
  };
  try {
    const t = await transcriptOn(target, c.script, pauseClient);
    return target.kind === 'serve' ? { transcript: t, serve: await served(target, c) } : { transcript: t };
  } finally {
    for (const t of timers) clearTimeout(t);
    cancel();
    // A paused member does not stay stopped: stop() kills every member.
    await target.stop();
  }
}

/** The trace hash of `run FILE --input RECORD`: the served run replayed in-process. */
function replayedHash(file: string, record: string): string | undefined {
  const args = ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'run', file, '--input', record, '-q'];
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
  return /^trace sha256 \S+$/m.exec(r.stdout)?.[0];
}

/** The fault tests of `cases`: each scenario parses, then the client on real etcd and on serve. */
export function faultSuite(cases: readonly FaultCase[]): void {
  describe('fault cases: the scenario files parse, name a fault (or the client has one) and judge the outcome', () => {
    for (const c of cases) {
      it(c.file, () => {
        expect(faultSteps(c.file) + (c.clientPause ? 1 : 0)).toBeGreaterThan(0);
        expect(expectSteps(c.file)).toBeGreaterThan(0);
      });
    }
  });

  for (const c of cases) {
    prepare([c.script], missing(c.client));
    const skip = missing(c.client) ?? c.servedOnly ?? noEtcd;
    describe(`${c.file} through ${c.client} on real etcd 3.4.23${skip ? ` (skipped: ${skip})` : ''}`, () => {
      it.skipIf(skip !== undefined)(
        `${c.script.name}: the transcript is the golden one`,
        async () => {
          const { transcript: got } = await transcript(await startEtcd(), c, memberSteps(c.file));
          if (WRITE_GOLDEN) writeGolden(c.script.name, got);
          expect(got).toBe(readGolden(c.script.name));
        },
        testTimeout(c.script),
      );
    });
    const serveSkip = missing(c.client) ?? serveMissing;
    describe(`${c.file} through ${c.client} on lessor-sim serve${serveSkip ? ` (skipped: ${serveSkip})` : ''}`, () => {
      it.skipIf(serveSkip !== undefined)(
        `${c.script.name}: the golden transcript but for its known gaps, and serve's expects hold` +
          (c.servedOnly ? '; the record replays to the served trace hash' : ''),
        async () => {
          const golden = readGolden(c.script.name);
          expect(golden).toBeDefined();
          // A served-only case has no real-etcd run beside it: its served run is recorded and replayed too.
          const record = c.servedOnly ? join(mkdtempSync(join(tmpdir(), 'fault-record-')), 'served.jsonl') : undefined;
          const file = join(FAULTS, c.file);
          const target = await startServe(file, record ? ['--record', record] : []);
          const { transcript: got, serve } = await transcript(target, c, []);
          const hunks = diffLines(golden!, got);
          if (hunks.length > 0)
            console.log(`${c.script.name}: serve differs from etcd 3.4.23\n${describeHunks(hunks)}`);
          expect(describeHunks(hunks)).toBe(describeHunks(KNOWN_GAPS[c.script.name] ?? []));
          // The simulation's own trace agrees with what the client saw: every expect step holds.
          expect(serve!.output).toContain(`${expectSteps(c.file)} passed, 0 failed`);
          expect(serve!.code, serve!.output).toBe(0);
          if (record !== undefined) {
            const served = /^trace sha256 \S+$/m.exec(serve!.output)?.[0];
            expect(served, serve!.output).toBeDefined();
            expect(replayedHash(file, record)).toBe(served);
          }
        },
        testTimeout(c.script) + durationMs(c.file),
      );
    });
  }
}
