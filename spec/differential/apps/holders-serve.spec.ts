// The same five lease holders as holders.spec.ts (Go on clientv3 3.4.23: runbook Step 3, Step 5 and a correct
// holder; Python on python-etcd3 0.12: the runbook loop and a correct holder), now against `serve` through
// serveApps, under the same two faults written as scenario steps at virtual instants: every holder's process
// stalled 12 s past its 9 s TTL (`pause: { app, for: 12s }`, the seed's verification), and the leader frozen
// 17 s while every holder talks to n1 alone. Each holder has its own lock key and resource; its rival is the
// correct Go holder started 2 s later on the same key, which takes the lock once the key is free and writes
// with the newer token. The verdicts must be those real etcd gives (holders.spec.ts, docs/apps.md). The
// instants of the faults are virtual, so they are exact here; each run takes about its RUN_MS of wall time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Micros } from '../../../src/clock/time.js';
import { parseScenario } from '../../../src/scenario/parse.js';
import { type AppCommand, type ServeAppsResult, serveApps } from '../../../src/serve/serve-apps.js';
import { fieldsOf } from '../../../src/trace/trace.js';
import { buildGoHolder, EXAMPLES, HAVE_GO, HAVE_PYTHON_ETCD3, PYTHON } from './app-harness.js';

const missing = [
  HAVE_GO ? undefined : 'golang-go golang-etcd-server-dev',
  HAVE_PYTHON_ETCD3 ? undefined : 'python3-etcd3',
].filter((x) => x !== undefined);
const SKIP = missing.length > 0 ? ` (skipped: apt-get install -y ${missing.join(' ')})` : '';

const HOLDERS = ['go-step3', 'go-step5', 'go-correct', 'py-runbook', 'py-correct'] as const;
type HolderName = (typeof HOLDERS)[number];
const FAULT_AT: Micros = 4_000_000;
const STALL: Micros = 12_000_000;
const FREEZE: Micros = 17_000_000;

let buildDir = '';
let goHolder = '';
beforeAll(async () => {
  if (SKIP !== '') return;
  buildDir = mkdtempSync(join(tmpdir(), 'lessor-sim-go-holder-'));
  goHolder = await buildGoHolder(buildDir);
}, 300_000);
afterAll(() => {
  if (buildDir !== '') rmSync(buildDir, { recursive: true, force: true });
});

/** A command run by /bin/sh with its endpoints narrowed to one member (`via`), or as given. */
function program(name: string, argv: readonly string[], env: Record<string, string>, via?: string): AppCommand {
  const narrow = via === undefined ? '' : `ETCDCTL_ENDPOINTS=$ETCD_ENDPOINT_${via.toUpperCase()} `;
  const delay = name.startsWith('rival-') ? 'sleep 2; ' : '';
  return { name, command: '/bin/sh', args: ['-c', `${delay}${narrow}exec "$@"`, 'sh', ...argv], env };
}

function programs(runMs: number, holdersVia?: string, rivalsVia?: string): AppCommand[] {
  const argv: Record<HolderName, string[]> = {
    'go-step3': [goHolder, 'step3'],
    'go-step5': [goHolder, 'step5'],
    'go-correct': [goHolder, 'correct'],
    'py-runbook': [PYTHON, join(EXAMPLES, 'python/runbook_loop.py')],
    'py-correct': [PYTHON, join(EXAMPLES, 'python/correct_holder.py')],
  };
  const env = (h: HolderName, run: number) => ({
    LOCK_KEY: `/locks/${h}`,
    LEASE_TTL: '9',
    RUN_MS: String(run),
    PYTHONDONTWRITEBYTECODE: '1',
  });
  return HOLDERS.flatMap((h) => [
    { ...program(h, argv[h], env(h, runMs), holdersVia), resource: h },
    { ...program(`rival-${h}`, [goHolder, 'correct'], env(h, runMs - 2000), rivalsVia), resource: h },
  ]);
}

const scenario = (name: string, fault: string[]) => {
  const p = parseScenario(
    [`name: ${name}`, 'profile: v3.4', 'duration: 45s', 'steps:', ...fault].join('\n'),
    `${name}.yaml`,
  );
  if (!p.ok) throw new Error(p.errors.map((e) => e.message).join('\n'));
  return p.scenario;
};

interface Outcome {
  readonly lines: readonly string[];
  readonly writes: readonly { readonly t: Micros; readonly accepted: boolean }[];
  readonly revokedAt: Micros | undefined;
  readonly rivalWroteAt: Micros | undefined;
  readonly stopSaidAt: Micros | undefined;
  readonly stoppedAt: Micros | undefined;
  readonly violated: readonly string[];
  readonly exit: { readonly code: number | null; readonly signal: string | null; readonly byHarness: boolean };
}

function outcomeOf(r: ServeAppsResult, h: HolderName): Outcome {
  const mine = r.trace.events.filter((e) => e.member === h);
  const stop = mine.find((e) => e.kind === 'holder-stop');
  const rival = r.trace.events.find(
    (e) => e.member === `rival-${h}` && e.kind === 'client-fenced-write' && fieldsOf(e).accepted === true,
  );
  const exit = r.exits.find((e) => e.app === h)!;
  return {
    lines: mine.filter((e) => e.kind === 'app-output').map((e) => String(fieldsOf(e).text)),
    writes: mine
      .filter((e) => e.kind === 'client-fenced-write')
      .map((e) => ({ t: e.t, accepted: fieldsOf(e).accepted === true })),
    revokedAt: mine.find((e) => e.kind === 'holder-revoked')?.t,
    rivalWroteAt: rival?.t,
    stopSaidAt: stop?.t,
    stoppedAt: stop === undefined ? undefined : stop.t - Number(fieldsOf(stop).lateUs ?? 0),
    violated: (r.findings.find((f) => f.key === `/locks/${h}`)?.violations ?? []).map((v) => v.property).sort(),
    exit: { code: exit.code, signal: exit.signal, byHarness: exit.byHarness },
  };
}

/** Every program's output, for a failing assertion's message. */
const output = (r: ServeAppsResult): string =>
  r.trace.events
    .filter((e) => e.kind === 'app-output' || e.kind === 'holder-revoked' || e.kind === 'client-fenced-write')
    .map((e) => `${(e.t / 1e6).toFixed(3)} ${e.member} ${e.kind} ${JSON.stringify(fieldsOf(e))}`)
    .join('\n');

const count = (o: Outcome, re: RegExp): number => o.lines.filter((l) => re.test(l)).length;

function writesAfterRival(o: Outcome): { accepted: number; rejected: number } {
  const after = o.writes.filter((w) => o.rivalWroteAt !== undefined && w.t > o.rivalWroteAt);
  return { accepted: after.filter((w) => w.accepted).length, rejected: after.filter((w) => !w.accepted).length };
}

function expectStoppedInTime(r: ServeAppsResult, h: HolderName): void {
  const o = outcomeOf(r, h);
  expect(o.revokedAt, `${h}'s lease never ended\n${output(r)}`).toBeDefined();
  expect(o.stoppedAt, `${h} never stopped\n${output(r)}`).toBeDefined();
  expect(o.stoppedAt!).toBeLessThan(o.revokedAt!);
  expect(o.writes.filter((w) => w.t >= o.revokedAt!)).toEqual([]);
  expect(o.violated, output(r)).toEqual([]);
  expect(o.exit).toEqual({ code: 0, signal: null, byHarness: false });
}

function expectNeverNoticed(r: ServeAppsResult, h: HolderName, faultEnd: Micros): void {
  const o = outcomeOf(r, h);
  expect(o.revokedAt, `${h}'s lease never ended\n${output(r)}`).toBeDefined();
  expect(o.rivalWroteAt, `the rival never wrote to ${h}'s resource\n${output(r)}`).toBeDefined();
  expect(
    o.lines.filter((l) => l.startsWith('lost:')),
    output(r),
  ).toEqual([]);
  const after = writesAfterRival(o);
  expect(after.accepted, output(r)).toBe(0);
  expect(after.rejected, output(r)).toBeGreaterThanOrEqual(4);
  expect(o.stopSaidAt!).toBeGreaterThan(faultEnd + 4_000_000);
  expect(o.violated, output(r)).toEqual(expect.arrayContaining(['holder-stops-before-revoke', 'no-overlap']));
  expect(o.exit).toEqual({ code: 0, signal: null, byHarness: false });
}

describe(`lease holders as real programs under serve${SKIP}`, () => {
  it.skipIf(SKIP !== '')(
    'the seed verification: each holder stalled 12 s (pause: { app, for: 12s }) past its 9 s TTL',
    async () => {
      const steps = HOLDERS.flatMap((h) => ['  - at: 4s', `    pause: { app: ${h}, for: 12s }`]);
      const r = await serveApps(scenario('stall', steps), programs(24_000));
      const faultEnd = FAULT_AT + STALL;
      for (const h of HOLDERS) {
        const o = outcomeOf(r, h);
        // Each lease ended during the stall, and the rival wrote before the holder woke.
        expect(o.revokedAt, `${h}\n${output(r)}`).toBeGreaterThan(FAULT_AT);
        expect(o.revokedAt!).toBeLessThan(faultEnd);
        expect(o.rivalWroteAt!, `${h}\n${output(r)}`).toBeLessThan(faultEnd);
        // Nothing reached the resource while it was stopped.
        expect(o.writes.filter((w) => w.t > FAULT_AT + 500_000 && w.t < faultEnd)).toEqual([]);
      }
      // Holder properties were violated: serve's exit code is 1.
      expect(r.verdict.code).toBe(1);

      const s3 = outcomeOf(r, 'go-step3');
      expect(count(s3, /^lost: keepalive channel closed$/), output(r)).toBe(1);
      expect(s3.stopSaidAt!).toBeGreaterThanOrEqual(faultEnd);
      expect(s3.stopSaidAt!).toBeLessThan(faultEnd + 3_000_000);
      expect(writesAfterRival(s3).accepted).toBe(0);
      expect(s3.violated).toEqual(expect.arrayContaining(['holder-stops-before-revoke']));

      const s5 = outcomeOf(r, 'go-step5');
      expect(count(s5, /^timetolive ttl=-1 err=<nil>: still held$/), output(r)).toBe(1);
      expectNeverNoticed(r, 'go-step5', faultEnd);

      const py = outcomeOf(r, 'py-runbook');
      expect(count(py, /^refresh ttl=\[0\]$/), output(r)).toBeGreaterThanOrEqual(2);
      const firstZero = py.lines.indexOf('refresh ttl=[0]');
      expect(
        py.lines.slice(firstZero).filter((l) => /^refresh ttl=\[[1-9]/.test(l)),
        output(r),
      ).toEqual([]);
      expectNeverNoticed(r, 'py-runbook', faultEnd);

      for (const h of ['go-correct', 'py-correct'] as const) {
        expectStoppedInTime(r, h);
        const o = outcomeOf(r, h);
        expect(o.stopSaidAt!, output(r)).toBeGreaterThanOrEqual(faultEnd);
        expect(o.lines.filter((l) => l.startsWith('stopped: ')).length, output(r)).toBe(1);
      }
    },
    180_000,
  );

  it.skipIf(SKIP !== '')(
    'a frozen leader: n1 paused 17 s while every holder talks to n1 alone (rivals through n2)',
    async () => {
      const r = await serveApps(
        scenario('frozen-leader', ['  - at: 4s', '    pause: { member: n1, for: 17s }']),
        programs(30_000, 'n1', 'n2'),
      );
      const faultEnd = FAULT_AT + FREEZE;
      for (const h of HOLDERS) {
        // A new leader expired each lease during the freeze (after promoting it with a fresh TTL).
        const o = outcomeOf(r, h);
        expect(o.revokedAt, `${h}\n${output(r)}`).toBeGreaterThan(FAULT_AT + 9_000_000 - 3_000_000);
        expect(o.revokedAt!).toBeLessThan(faultEnd);
      }
      expect(r.verdict.code).toBe(1);

      const s3 = outcomeOf(r, 'go-step3');
      expect(count(s3, /^lost: keepalive channel closed$/), output(r)).toBe(1);
      expect(s3.stoppedAt!).toBeLessThan(s3.revokedAt!);
      expect(s3.violated, output(r)).toEqual([]);

      const s5 = outcomeOf(r, 'go-step5');
      expect(count(s5, /^timetolive ttl=-\d+ err=<nil>: still held$/), output(r)).toBe(1);
      expectNeverNoticed(r, 'go-step5', faultEnd);

      const py = outcomeOf(r, 'py-runbook');
      expect(count(py, /^refresh ttl=\[0\]$/), output(r)).toBeGreaterThanOrEqual(2);
      expectNeverNoticed(r, 'py-runbook', faultEnd);

      for (const h of ['go-correct', 'py-correct'] as const) {
        expectStoppedInTime(r, h);
        expect(
          outcomeOf(r, h).lines.some((l) => l.startsWith('renewal failed')),
          output(r),
        ).toBe(true);
      }
    },
    180_000,
  );
});
