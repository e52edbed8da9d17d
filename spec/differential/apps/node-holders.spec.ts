// The runbook's holder and a correct one on npm etcd3 1.1.2 (docs/examples/holders/node), as real Node
// programs against a real etcd 3.4.23 cluster under the seed's verification: the holder's process stalled
// 12 s (SIGSTOP) past its 9 s TTL. Same harness and verdicts as the Go and Python programs
// (holders.spec.ts): the runbook holder, which waits for the client's `lost`, hears it only after waking,
// too late (as Go Step 3); the correct one stops at its own deadline, before the lease ends.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wallTimer } from '../../../src/apps/app-steps.js';
import { sleepMs } from '../../../src/cli/differential/wall-clock.js';
import { AppRun, EXAMPLES, HAVE_ETCD } from './app-harness.js';

const SKIP = HAVE_ETCD ? '' : ' (skipped: apt-get install -y etcd-server etcd-client)';
const TTL = 9;
const STALL_MS = 12_000;
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
});
