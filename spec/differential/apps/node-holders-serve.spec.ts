// The Node holders (docs/examples/holders/node, npm etcd3 1.1.2) under `serve` with the seed's
// verification as scenario steps: `pause: { app: NAME, for: 12s }` past the 9 s TTL. Same verdicts as on
// real etcd (node-holders.spec.ts), with the simulated lessor's truth of when each lease ended: the runbook
// holder stops only once the client emits `lost` after waking, the correct one at its own deadline.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../../src/scenario/parse.js';
import { serveApps } from '../../../src/serve/serve-apps.js';
import { fieldsOf } from '../../../src/trace/trace.js';
import { EXAMPLES } from './app-harness.js';

const SCENARIO = `name: node-holders-stalled
profile: v3.4
duration: 30s
steps:
  - at: 5s
    pause: { app: node-runbook, for: 12s }
  - at: 5s
    pause: { app: node-correct, for: 12s }
`;

describe('the Node holders under serve', () => {
  it('the seed verification: the runbook holder stops after its lease ended, the correct one before', async () => {
    const parsed = parseScenario(SCENARIO, 'node-holders-stalled');
    if (!parsed.ok) throw new Error(parsed.errors[0]?.message);
    const lines: string[] = [];
    const app = (name: string, file: string) => ({
      name,
      command: process.execPath,
      args: [join(EXAMPLES, 'node', file)],
      resource: name,
      env: { LOCK_KEY: `/locks/${name}`, LEASE_TTL: '9', RUN_MS: '26000' },
    });
    const r = await serveApps(
      parsed.scenario,
      [app('node-runbook', 'runbook_holder.mjs'), app('node-correct', 'correct_holder.mjs')],
      { onAppLine: (l) => lines.push(`${(l.t / 1e6).toFixed(3)} ${l.app} ${l.text}`) },
    );
    const out = lines.join('\n');
    const of = (name: string, kind: string) => r.trace.events.filter((e) => e.member === name && e.kind === kind);
    const violated = (name: string): string[] =>
      (r.findings.find((j) => j.key === `/locks/${name}`)?.violations ?? []).map((v) => v.property);

    for (const name of ['node-runbook', 'node-correct']) {
      const revoked = of(name, 'holder-revoked');
      expect(revoked.length, `${name}\n${out}`).toBe(1);
      // The lease expired during the stall (5 s to 17 s).
      expect(revoked[0]!.t).toBeGreaterThan(5_000_000);
      expect(revoked[0]!.t).toBeLessThan(17_000_000);
    }
    const rbStop = of('node-runbook', 'holder-stop')[0]!;
    expect(rbStop.t, out).toBeGreaterThanOrEqual(17_000_000);
    expect(lines.filter((l) => / node-runbook lost: EtcdLeaseInvalidError/.test(l)).length, out).toBe(1);
    expect(violated('node-runbook'), out).toContain('holder-stops-before-revoke');

    const cStop = of('node-correct', 'holder-stop')[0]!;
    expect(cStop.t - Number(fieldsOf(cStop).lateUs ?? 0), out).toBeLessThan(of('node-correct', 'holder-revoked')[0]!.t);
    expect(violated('node-correct'), out).toEqual([]);
    expect(
      r.exits.filter((e) => e.code !== 0 && !e.byHarness),
      out,
    ).toEqual([]);
  }, 90_000);
});
