// The playground's session: scrubbing lands on the state of a straight replay, clicked actions become
// steps the CLI's runner replays to the page's hash, and a Promote after a paused leader shows up.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/parse.js';
import { runScenario, startScenario } from '../../src/scenario/replay/runner.js';
import { Session } from '../../src/playground/session.js';
import { formatEvent } from '../../src/trace/trace.js';

const RUNBOOK = resolve(__dirname, '../../scenarios/seed-runbook.yaml');
const open = (file = RUNBOOK): Session => {
  const o = Session.open(readFileSync(file, 'utf8'), file);
  if (!o.ok) throw new Error(o.messages.join('\n'));
  return o.session;
};
const lines = (s: Session): string[] => s.events.map(formatEvent);

describe('startScenario', () => {
  it('stopping at many instants on the way gives the trace hash of one straight run', () => {
    const scenario = (
      parseScenario(readFileSync(RUNBOOK, 'utf8'), RUNBOOK) as {
        ok: true;
        scenario: import('../../src/scenario/types.js').Scenario;
      }
    ).scenario;
    const run = startScenario(scenario);
    for (let t = 0; t < scenario.durationUs; t += 777_777) run.advanceTo(t);
    expect(run.finish().trace.hash()).toBe(runScenario(scenario).trace.hash());
  });
});

describe('Session', () => {
  it('shows the key, then the lease expired and the key deleted, as the runbook says', () => {
    const s = open();
    s.seek(5_000_000);
    const at5 = s.snapshot()!;
    expect(at5.keys.map((k) => k.key)).toEqual(['/locks/payment-42']);
    expect(at5.leases[0]!.label).toBe('L1');
    expect(at5.leases[0]!.remainingUs).toBeGreaterThan(4_000_000);
    expect(at5.members.find((m) => m.name === 'n1')).toMatchObject({
      role: 'leader',
      primary: true,
      status: 'running',
    });
    s.seek(19_000_000);
    expect(s.snapshot()!.keys).toEqual([]);
    expect(s.snapshot()!.leases).toEqual([]);
  });

  it('scrubbing back and forth leaves the state of playing straight there', () => {
    const straight = open();
    straight.seek(12_345_000);
    const scrubbed = open();
    for (const t of [20_000_000, 3_000_000, 15_000_000, 1_000, 12_345_000]) scrubbed.seek(t);
    expect(lines(scrubbed)).toEqual(lines(straight));
    expect(scrubbed.snapshot()).toEqual(straight.snapshot());
  });

  it(
    'a clicked pause of the leader becomes a step; the new ' +
      'leader promotes; the CLI replays the text to the same hash',
    () => {
      const s = open();
      s.seek(4_000_400);
      const o = s.act({ kind: 'pause', member: 'n1' });
      if (!o.ok) throw new Error(o.messages.join('\n'));
      const forked = o.session;
      expect(forked.cursor).toBe(4_000_000);
      expect(forked.text).toMatch(/- \{ at: 4s, pause: \{ member: n1 \} \}/);
      forked.seek(10_000_000);
      const promote = lines(forked).find((l) => /^\S+ n[23] lessor-promote /.test(l));
      expect(promote).toBeDefined();
      expect(forked.snapshot()!.members.find((m) => m.name === 'n1')!.status).toBe('paused');
      const p = parseScenario(forked.text, 'exported.yaml');
      if (!p.ok) throw new Error('exported text does not parse');
      expect(runScenario(p.scenario).trace.hash()).toBe(forked.hash());
      expect(forked.hash()).not.toBe(s.hash());
    },
  );

  it('forks from the cursor: an action after scrubbing back keeps the past and drops the old future', () => {
    const s = open();
    s.seek(20_000_000);
    s.seek(2_000_000);
    const o = s.act({ kind: 'keepalive-stop', lease: 'L1', client: 'c1' });
    if (!o.ok) throw new Error(o.messages.join('\n'));
    o.session.seek(15_000_000);
    // Without renewals from 2 s, L1 (TTL 9 s, last renewed at 0.005 s) expires long before the runbook's 16 s.
    const revoke = lines(o.session).find((l) => / n1 lease-revoke /.test(l));
    expect(Number(revoke?.split(' ')[0])).toBeLessThan(15);
  });

  it('changing a setting restarts the run from 0 with the setting in the text', () => {
    const s = open();
    s.seek(9_000_000);
    const o = s.withSetting(['profile'], 'v3.4');
    if (!o.ok) throw new Error(o.messages.join('\n'));
    expect(o.session.cursor).toBe(0);
    expect(o.session.scenario.profile).toBe('v3.4');
  });

  it('shows a renewal in flight between its send and its answer, through the follower the client uses', () => {
    const s = open(resolve(__dirname, '../../scenarios/renew-forwarding.yaml'));
    s.seek(3_012_000);
    expect(s.inFlight()).toMatchObject([{ client: 'c1', endpoint: 'n3', sentUs: 3_010_200 }]);
    s.seek(3_015_000);
    expect(s.inFlight()).toEqual([]);
  });
});

describe('Session.open of a file with a holder written in TypeScript', () => {
  it('refuses it with the holder and its position: a page has no user code to run it', () => {
    const text =
      'name: u\ncluster: { members: 1 }\nsteps:\n' +
      '  - { at: 0s, holder: { name: a, strategy: user:mine, key: /locks/x, ttl: 5, client: c1 } }\n';
    const o = Session.open(text, 'u.yaml');
    expect(o.ok).toBe(false);
    if (o.ok) return;
    expect(o.messages).toEqual([
      'u.yaml:4:5: holder a uses strategy user:mine, but no holder named mine was given to the replay',
    ]);
  });
});
