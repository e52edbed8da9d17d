// Lock holders: the library's runbook faults replay as described, the holder monitors tell the runbook's
// code from the fixed code, bad holder input gets positioned errors, and user-written holders run
// deterministically, a throwing one failing its run with where it threw.
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { UserHolderFn } from '../../src/holder/index.js';
import { MONITORS, RunView, holderReport } from '../../src/properties/index.js';
import { parseScenario } from '../../src/scenario/parse.js';
import { runScenario, runScenarioAsync } from '../../src/scenario/replay/runner.js';
import type { Scenario } from '../../src/scenario/types.js';
import { explain } from '../../src/report/explain.js';
import { extractTimeline } from '../../src/report/render/extract.js';
import { onlyError, parsed, withSteps } from '../scenario/support.js';

const ROOT = resolve(__dirname, '../..');
const DIR = 'scenarios/holders';
const FILES = readdirSync(join(ROOT, DIR))
  .filter((f) => f.endsWith('.yaml'))
  .sort();
const load = (f: string): Scenario => {
  const p = parseScenario(readFileSync(join(ROOT, DIR, f), 'utf8'), `${DIR}/${f}`);
  if (!p.ok) throw new Error(`${f}: ${JSON.stringify(p.errors)}`);
  return p.scenario;
};
const HOLDER_PROPERTIES = ['holder-stops-before-revoke', 'no-overlap', 'no-stale-write-accepted'] as const;
const broken = (s: Scenario): string[] => {
  const view = new RunView(runScenario(s));
  return HOLDER_PROPERTIES.filter((p) => MONITORS[p].check(view) !== undefined);
};

describe('holder library (scenarios/holders)', () => {
  it('holds a runbook file and a fixed file for each of the four faults', () => {
    for (const n of [1, 2, 3, 4]) {
      expect(
        FILES.some((f) => f.startsWith(`fault${n}-`) && f.endsWith('.runbook.yaml')),
        `fault ${n}`,
      ).toBe(true);
      expect(
        FILES.some((f) => f.startsWith(`fault${n}-`) && f.endsWith('.fixed.yaml')),
        `fault ${n}`,
      ).toBe(true);
    }
  });

  it.each(FILES)('%s replays with every assertion passing', (f) => {
    const r = runScenario(load(f));
    expect(r.setupError).toBeUndefined();
    const failing = r.assertions.filter((a) => !a.pass);
    expect(failing.map((a) => `line ${a.step.pos.line}: ${a.text} — got ${a.got}`)).toEqual([]);
    expect(r.assertions.length).toBeGreaterThan(0);
  });

  it('the monitors find the runbook holders of faults 1, 2 and 4 unsafe, and the fixed holders safe', () => {
    expect(broken(load('fault1-step5-confirm.runbook.yaml'))).toEqual(['holder-stops-before-revoke', 'no-overlap']);
    expect(broken(load('fault2-python-refresh.runbook.yaml'))).toEqual(['holder-stops-before-revoke', 'no-overlap']);
    expect(broken(load('fault4-paused-client.runbook.yaml'))).toEqual(['holder-stops-before-revoke', 'no-overlap']);
    expect(broken(load('fault4-paused-client.fixed.yaml'))).toEqual([]);
    expect(broken(load('fault4-frozen-leader.fixed.yaml'))).toEqual([]);
    expect(broken(load('deadline-clock-jump-within-margin.yaml'))).toEqual([]);
  });

  it('a clock jump beyond the margin lets the resource accept stale writes', () => {
    const s = load('deadline-clock-jump-beyond-margin.yaml');
    expect(broken(s)).toEqual([...HOLDER_PROPERTIES]);
    const a = holderReport(new RunView(runScenario(s))).holders.find((h) => h.holder === 'a')!;
    expect(a.staleAccepted).toBe(2);
    expect(a.staleOffered).toBeGreaterThan(a.staleAccepted);
    expect(a.actingAfterRevokeUs).toBeGreaterThan(1_800_000);
  });

  it('the strict SQL fence rejects the holder its own second write', () => {
    const figures = (f: string) => holderReport(new RunView(runScenario(load(f)))).holders[0]!;
    expect(figures('fault3-strict-fence.runbook.yaml')).toMatchObject({
      writesAccepted: 1,
      writesRejected: 9,
      staleOffered: 0,
    });
    expect(figures('fault3-strict-fence.fixed.yaml')).toMatchObject({ writesAccepted: 10, writesRejected: 0 });
  });

  it("explain tells each holder's story, belief beside truth", () => {
    const story = (f: string) => explain(runScenario(load(f))).filter((l) => l.startsWith('holder a,'));
    expect(story('fault1-step5-confirm.runbook.yaml')).toEqual([
      expect.stringMatching(
        new RegExp(
          String.raw`acquired \/locks\/payment-42 at 0\.\d+ s \(token 2\) → lease revoked at 12\.\d+ ` +
            's .* while it still believed it held the lock → noticed ' +
            String.raw`keepalive-closed:deadline at 17\.\d+ s: still-held → still believed it held the ` +
            'lock when the run ended, although its lease was gone$',
        ),
      ),
    ]);
    expect(story('fault4-paused-client.fixed.yaml')[0]).toMatch(
      new RegExp(
        String.raw`stopped acting at 11\.\d+ s \(deadline, noticed at 17\.000 s\) → lease revoked ` +
          String.raw`at 12\.\d+ s \(applied first on n1\)$`,
      ),
    );
  });

  it('render gives each holder a lane: believed and really held, believed after the revoke, writes', () => {
    const t = extractTimeline(runScenario(load('fault1-step5-confirm.runbook.yaml')));
    const a = t.clients.find((c) => c.name === 'a')!;
    expect(a.locks.map((l) => l.name)).toEqual(['/locks/payment-42']);
    expect(a.locks[0]!.spans.map((sp) => sp.state)).toEqual(['held', 'held-lease-gone']);
    expect(a.locks[0]!.spans[1]!.startUs).toBe(a.locks[0]!.spans[0]!.endUs);
    expect(a.writes.some((w) => w.variant === 'rejected') && a.writes.some((w) => w.variant === 'accepted')).toBe(true);
    const b = t.clients.find((c) => c.name === 'b')!;
    expect(b.locks[0]!.spans.map((sp) => sp.state)).toEqual(['held']);
  });

  it('replays a holder file to the same trace hash twice', () => {
    const s = load('fault1-step5-confirm.runbook.yaml');
    expect(runScenario(s).trace.hash()).toBe(runScenario(s).trace.hash());
  });
});

describe('holder step input', () => {
  const holder = (fields: string) => `- { at: 0s, holder: { name: a, key: /locks/x, ttl: 9, client: c1, ${fields} } }`;

  it('names the unknown strategy, where it is, and the nearest built-in one', () => {
    const e = onlyError(withSteps(holder('strategy: runbook-go-step6')));
    expect(e).toMatchObject({ line: 3 });
    expect(e.message).toMatch(
      new RegExp(
        'unknown holder strategy "runbook-go-step6"; expected one of .*deadline, or ' +
          String.raw`user:<name> \(did you mean "runbook-go-step[35]"\?\)`,
      ),
    );
  });

  it('refuses a margin that is not below the TTL, at the margin', () => {
    const text = withSteps(holder('strategy: deadline, margin: 9s'));
    const e = onlyError(text);
    expect(e.message).toMatch(/margin must be below the TTL \(9 s\)/);
    expect(e.col).toBe(text.split('\n')[2]!.indexOf('9s') + 1);
  });

  it('refuses a second holder of the same name and an expect on a holder never started', () => {
    expect(
      onlyError(
        withSteps(
          holder('strategy: deadline'),
          `- { at: 1s, holder: { name: a, strategy: deadline, key: /locks/x, ttl: 9, client: c2 } }`,
        ),
      ).message,
    ).toMatch(/holder "a" is already started/);
    expect(
      onlyError(withSteps(holder('strategy: deadline'), '- { at: 1s, expect: { holder: z, acting: true } }')).message,
    ).toMatch(/holder "z" is not started/);
  });

  it('takes user:<name> strategies, which the synchronous replay refuses by position', () => {
    const s = parsed(withSteps(holder('strategy: user:mine')));
    expect(runScenario(s).setupError).toMatch(
      /^scenarios\/test\.yaml:3:\d+: holder a uses strategy user:mine, but no holder named mine/,
    );
    expect(runScenario(s, { userHolders: { mine: async () => undefined } }).setupError).toMatch(
      /replay it with runScenarioAsync/,
    );
  });
});

describe('user-written holders', () => {
  const text = withSteps(
    '- { at: 0s, holder: { name: a, strategy: user:mine, key: /locks/x, ttl: 5, client: c1 } }',
    '- { at: 3s, expect: { holder: a, acting: true } }',
    '- { at: 3s, expect: { resource: resource, accepted: 3 } }',
  );
  /** Acquires with a put-if-absent, then writes once a second, renewing with KeepAliveOnce. */
  const mine: UserHolderFn = async (api) => {
    const g = await api.grant(5);
    const t = await api.txn({
      compare: [{ key: '/locks/x', target: 'CREATE', result: 'EQUAL', createRevision: 0 }],
      success: [{ op: 'Put', key: '/locks/x', value: 'a', lease: g.id }],
      failure: [],
    });
    api.acquired(g.id, '/locks/x', t.header.revision);
    for (;;) {
      api.write(t.header.revision);
      await api.sleep(1_000_000);
      await api.keepAliveOnce(g.id);
    }
  };

  it('run on virtual time with await, to the same trace hash every time', async () => {
    const s = parsed(text);
    const one = await runScenarioAsync(s, { userHolders: { mine } });
    const two = await runScenarioAsync(s, { userHolders: { mine } });
    expect(one.assertions.map((a) => [a.pass, a.got])).toEqual([
      [true, 'believes it holds the lock'],
      [true, '3 accepted'],
    ]);
    expect(one.trace.hash()).toBe(two.trace.hash());
    expect(one.trace.lines().filter((l) => / a holder-acquired /.test(l))).toHaveLength(1);
  });

  it('a holder that throws fails the run, saying where it threw', async () => {
    const thrower: UserHolderFn = async (api) => {
      await api.sleep(500_000);
      throw new Error('lost my token');
    };
    const r = await runScenarioAsync(parsed(text), { userHolders: { mine: thrower } });
    expect(r.passed).toBe(false);
    expect(r.holderErrors).toHaveLength(1);
    expect(r.holderErrors![0]).toMatch(/^holder a threw at .*spec\/holder\/holder\.spec\.ts:\d+:\d+: lost my token$/);
    expect(r.trace.lines().some((l) => / a holder-failed - error="lost my token" at=/.test(l))).toBe(true);
  });
});
