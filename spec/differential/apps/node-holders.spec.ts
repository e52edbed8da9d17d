// The runbook's holder and a correct one on npm etcd3 1.1.2 (docs/examples/holders/node), as real Node
// programs against a real etcd 3.4.23 cluster under the seed's verification (the holder's process stalled
// 12 s past its 9 s TTL) and under a frozen leader (n1 SIGSTOPped 17 s while both talk to n1 alone). Same
// harness and verdicts as the Go and Python programs (holders.spec.ts): the runbook holder, which waits for
// the client's `lost`, hears it only after its lease ended; the correct one stops at its own deadline.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wallTimer } from '../../../src/apps/app-steps.js';
import { sleepMs } from '../../../src/real-etcd/wall-clock.js';
import { AppRun, EXAMPLES, HAVE_ETCD } from './app-harness.js';

const SKIP = HAVE_ETCD ? '' : ' (skipped: apt-get install -y etcd-server etcd-client)';
const TTL = 9;
const STALL_MS = 12_000;
const FREEZE_MS = 17_000;
const RUN_MS = 35_000;
const NODE = process.execPath;

describe(`lease holders on npm etcd3 1.1.2 against etcd 3.4.23${SKIP}`, () => {
  it.skipIf(SKIP !== '')(
    'the seed verification: each holder stalled 12 s past its 9 s TTL; the runbook holder hears `lost` ' +
      'only on waking, the correct one stopped at its own deadline',
    async () => {
      const run = new AppRun({ ttl: TTL, runMs: RUN_MS });
      try {
        await run.start();
        for (const [name, file] of [
          ['node-runbook', 'runbook_holder.mjs'],
          ['node-correct', 'correct_holder.mjs'],
        ] as const)
          await run.launch(name, { name, command: NODE, args: [join(EXAMPLES, 'node', file)] });
        await run.acquired(30_000);
        await sleepMs(3_000);
        const faultAt = run.clock.now();
        // The scenario step `pause: { app: NAME, for: 12s }` for both programs, on the wall clock.
        await Promise.all(
          [...run.apps.keys()].map(
            (app) =>
              new Promise<void>((resolve, reject) => {
                const timer = { after: (us: number, fn: () => void) => wallTimer.after(us, () => resolve(fn())) };
                void run.session.step({ kind: 'pause', app, forUs: STALL_MS * 1000 }, timer).then((why) => {
                  if (why !== undefined) reject(new Error(why));
                });
              }),
          ),
        );
        const faultEnd = run.clock.now();
        const outcomes = await run.finish(RUN_MS + 15_000);
        const judged = run.judge();
        const out = run.allOutput();
        const violated = (app: string): string[] =>
          (judged.find((j) => j.key === `/locks/${app}`)?.violations ?? []).map((v) => v.property).sort();

        for (const o of outcomes.values()) {
          expect(o.revokedAt, `${o.name}\n${out}`).toBeGreaterThan(faultAt);
          expect(o.revokedAt!).toBeLessThan(faultEnd);
          expect(o.rivalWroteAt!, out).toBeLessThan(faultEnd);
          expect(o.writes.filter((w) => w.t > faultAt + 500_000 && w.t < faultEnd)).toEqual([]);
          expect(o.exit, out).toEqual({ code: 0, signal: null, byHarness: false });
        }

        // The runbook holder: the client emits `lost` once, after waking (its stream answered TTL 0, or
        // its own TTL-long debounce fired first and the new stream got TTL 0), after the lease ended.
        const rb = outcomes.get('node-runbook')!;
        expect(rb.lines.filter((l) => l.startsWith('lost: EtcdLeaseInvalidError')).length, out).toBe(1);
        expect(rb.stopSaidAt!, out).toBeGreaterThanOrEqual(faultEnd);
        expect(rb.stopSaidAt!).toBeLessThan(faultEnd + 3_000_000);
        expect(rb.writes.filter((w) => w.t > rb.rivalWroteAt! && w.accepted)).toEqual([]);
        expect(violated('node-runbook'), out).toEqual(expect.arrayContaining(['holder-stops-before-revoke']));

        // The correct holder: its deadline passed during the stall, before the lease ended.
        const c = outcomes.get('node-correct')!;
        expect(c.stoppedAt, out).toBeDefined();
        expect(c.stoppedAt!).toBeLessThan(c.revokedAt!);
        expect(c.stopSaidAt!).toBeGreaterThanOrEqual(faultEnd);
        expect(c.writes.filter((w) => w.t >= c.revokedAt!)).toEqual([]);
        expect(c.lines.filter((l) => l.startsWith('stopped: ')).length, out).toBe(1);
        expect(violated('node-correct'), out).toEqual([]);
      } finally {
        await run.close();
      }
    },
    180_000,
  );

  it.skipIf(SKIP !== '')(
    'a frozen leader: n1 SIGSTOPped for 17 s while both talk to n1 alone; the runbook holder writes on, ' +
      'the correct one stops before the new leader expires its lease',
    async () => {
      const run = new AppRun({ ttl: TTL, runMs: RUN_MS + 5_000, members: ['n1'], rivalVia: 'n2' });
      try {
        await run.start();
        for (const [name, file] of [
          ['node-runbook', 'runbook_holder.mjs'],
          ['node-correct', 'correct_holder.mjs'],
        ] as const)
          await run.launch(name, { name, command: NODE, args: [join(EXAMPLES, 'node', file)] });
        await run.acquired(30_000);
        await sleepMs(3_000);
        const faultAt = run.clock.now();
        run.cluster.member('n1').pause(run.registry);
        await sleepMs(FREEZE_MS);
        run.cluster.member('n1').resume(run.registry);
        const faultEnd = run.clock.now();
        const outcomes = await run.finish(RUN_MS + 20_000);
        const judged = run.judge();
        const out = run.allOutput();
        const violated = (app: string): string[] =>
          (judged.find((j) => j.key === `/locks/${app}`)?.violations ?? []).map((v) => v.property).sort();
        for (const o of outcomes.values()) {
          // A new leader expired each lease during the freeze (after promoting it with a fresh TTL).
          expect(o.revokedAt, `${o.name}\n${out}`).toBeGreaterThan(faultAt + TTL * 1e6 - 3_000_000);
          expect(o.revokedAt!).toBeLessThan(faultEnd);
          expect(o.exit, out).toEqual({ code: 0, signal: null, byHarness: false });
        }
        // The runbook holder: no answer for 2 x TTL is what makes the client give up, longer than the lease
        // lives; it hears `lost` only once n1 resumes, and writes on until then, fenced off after the rival.
        const rb = outcomes.get('node-runbook')!;
        expect(rb.stopSaidAt!, out).toBeGreaterThan(rb.revokedAt!);
        expect(rb.writes.some((w) => w.t > rb.revokedAt!)).toBe(true);
        expect(rb.writes.filter((w) => rb.rivalWroteAt !== undefined && w.t > rb.rivalWroteAt && w.accepted)).toEqual(
          [],
        );
        expect(violated('node-runbook'), out).toEqual(expect.arrayContaining(['holder-stops-before-revoke']));
        // The correct holder: each renewal hits its deadline; its own deadline passes before the lease ends.
        const c = outcomes.get('node-correct')!;
        expect(
          c.lines.some((l) => l.startsWith('renewal failed')),
          out,
        ).toBe(true);
        expect(c.stoppedAt!, out).toBeLessThan(c.revokedAt!);
        expect(c.writes.filter((w) => w.t >= c.revokedAt!)).toEqual([]);
        expect(violated('node-correct'), out).toEqual([]);
      } finally {
        await run.close();
      }
    },
    180_000,
  );
});
