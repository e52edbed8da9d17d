// Pairing the simulation's and real etcd's lease events, and reading the simulation's from its trace.
import { describe, expect, it } from 'vitest';
import { pairEvents, sortDifferences } from '../../src/real-etcd/compare.js';
import { simObserved, type Observed } from '../../src/real-etcd/observed.js';
import { EXPIRY, RENEW, REQUEST } from '../../src/real-etcd/tolerances.js';
import { parseScenario } from '../../src/scenario/parse.js';
import { runScenario } from '../../src/scenario/replay/runner.js';

const ev = (
  kind: Observed['kind'],
  subject: string,
  tUs: number,
  value?: number,
  cause?: Observed['cause'],
): Observed => ({
  kind,
  subject,
  tUs,
  ...(value !== undefined ? { value } : {}),
  ...(cause !== undefined ? { cause } : {}),
});

describe('pairEvents', () => {
  it('pairs events of one kind and subject in order of occurrence, Δ = etcd − simulation', () => {
    const rows = pairEvents(
      [ev('renew', 'L1 (c1)', 1_000_000, 9), ev('renew', 'L1 (c1)', 4_500_000, 9)],
      [ev('renew', 'L1 (c1)', 1_100_000, 9), ev('renew', 'L1 (c1)', 4_000_000, 9)],
    );
    expect(rows.map((r) => [r.nth, r.deltaUs, r.within])).toEqual([
      [1, 100_000, true],
      [2, -500_000, false],
    ]);
    expect(rows[0]!.tolerance).toBe(RENEW);
  });

  it("judges expiry-driven deletions by the wider tolerance the simulation's cause calls for", () => {
    const [expiry] = pairEvents([ev('delete', '/a', 5_500_000, 3, 'expiry')], [ev('delete', '/a', 6_000_000, 3)]);
    const [request] = pairEvents([ev('delete', '/b', 5_500_000, 3, 'request')], [ev('delete', '/b', 6_050_000, 3)]);
    expect([expiry!.tolerance, expiry!.within]).toEqual([EXPIRY, true]);
    expect([request!.tolerance, request!.within]).toEqual([REQUEST, false]);
  });

  it('reports events seen on one side only, and values that differ', () => {
    const rows = pairEvents(
      [ev('put', '/k', 10, 2), ev('renew', 'L1 (c1)', 20, 9)],
      [ev('put', '/k', 30, 3), ev('grant', 'L2', 40, 5)],
    );
    const put = rows.find((r) => r.kind === 'put')!;
    expect([put.valuesAgree, put.within]).toEqual([false, false]);
    expect(rows.find((r) => r.kind === 'renew')!.real).toBeUndefined();
    expect(rows.find((r) => r.kind === 'grant')!.sim).toBeUndefined();
  });

  it('lets TimeToLive readings differ by one second (truncation of a sub-second offset)', () => {
    expect(pairEvents([ev('ttl', 'L1', 0, 4)], [ev('ttl', 'L1', 0, 3)])[0]!.valuesAgree).toBe(true);
    expect(pairEvents([ev('ttl', 'L1', 0, 4)], [ev('ttl', 'L1', 0, 2)])[0]!.valuesAgree).toBe(false);
  });
});

describe('simObserved', () => {
  it('reads grants, puts, client-side renewals, TimeToLive and expiry deletions from the trace', () => {
    const p = parseScenario(
      `name: t
profile: v3.4
steps:
  - at: 0s
    grant: { lease: L1, ttl: 6 }
  - at: 0s
    put: { key: /k, value: v, lease: L1 }
  - at: 0s
    keepalive: { lease: L1, client: c1 }
  - at: 1s
    timetolive: { lease: L1 }
  - at: 3s
    keepalive-stop: { lease: L1, client: c1 }
  - at: 10s
    expect: { key: /k, exists: false }
`,
      't.yaml',
    );
    if (!p.ok) throw new Error('parse');
    const obs = simObserved(runScenario(p.scenario, { profile: 'v3.4' }));
    const kinds = obs.map(
      (o) => `${o.kind} ${o.subject}${o.value === undefined ? '' : `=${o.value}`}${o.cause ? ` (${o.cause})` : ''}`,
    );
    expect(kinds).toEqual([
      'grant L1=6',
      'renew L1 (c1)=6',
      'put /k=2',
      'ttl L1=5',
      'renew L1 (c1)=6',
      'delete /k=3 (expiry)',
    ]);
  });

  it('reports only the first and last grant of a grant-many', () => {
    const p = parseScenario(
      `name: t\nprofile: v3.4\nsteps:\n  - at: 0s\n    grant-many: { prefix: S, count: 50, ttl: 5, spread: 1s }\n`,
      't.yaml',
    );
    if (!p.ok) throw new Error('parse');
    expect(simObserved(runScenario(p.scenario)).map((o) => `${o.kind} ${o.subject}`)).toEqual([
      'grant S1',
      'grant S50',
    ]);
  });
});

describe('sortDifferences', () => {
  const rows = pairEvents(
    [
      ev('renew', 'L1 (c1)', 1_000_000, 9),
      ev('renew', 'L1 (c1)', 4_500_000, 9),
      ev('delete', '/a', 9_000_000, 3, 'expiry'),
    ],
    [
      ev('renew', 'L1 (c1)', 1_900_000, 9),
      ev('renew', 'L1 (c1)', 4_000_000, 9),
      ev('delete', '/a', 10_000_000, 3),
      ev('grant', 'L2', 40, 5),
    ],
  );
  const outside = rows.filter((r) => !r.within);
  const decl = (kind: 'renew' | 'delete' | 'grant', subject: string, line: number, nth?: number) => ({
    kind,
    subject,
    reason: `why ${line}`,
    line,
    ...(nth !== undefined ? { nth } : {}),
  });

  it(
    'an undeclared difference is unexpected; ' +
      'a declaration without nth covers ' +
      'every event of its kind and subject',
    () => {
      expect(outside.map((r) => `${r.kind} ${r.subject} #${r.nth}`)).toEqual([
        'grant L2 #1',
        'renew L1 (c1) #1',
        'renew L1 (c1) #2',
        'delete /a #1',
      ]);
      const none = sortDifferences(outside, []);
      expect([none.expected.length, none.unexpected.length]).toEqual([0, 4]);
      const all = sortDifferences(outside, [
        decl('renew', 'L1 (c1)', 7),
        decl('delete', '/a', 8),
        decl('grant', 'L2', 9),
      ]);
      expect(all.unexpected).toEqual([]);
      expect(all.expected.map((x) => x.difference.line)).toEqual([9, 7, 7, 8]);
    },
  );

  it('nth narrows a declaration to one event; one that matches nothing is listed as unmatched', () => {
    const r = sortDifferences(outside, [decl('renew', 'L1 (c1)', 7, 2), decl('renew', 'L9 (c1)', 8)]);
    expect(r.expected.map((x) => `${x.event.subject} #${x.event.nth}`)).toEqual(['L1 (c1) #2']);
    expect(r.unexpected.map((e) => `${e.kind} ${e.subject} #${e.nth}`)).toEqual([
      'grant L2 #1',
      'renew L1 (c1) #1',
      'delete /a #1',
    ]);
    expect(r.unmatched.map((d) => d.line)).toEqual([8]);
  });
});

describe('expected-differences in a scenario file', () => {
  it(
    "parses with each declaration's line, and rejects an " + 'unknown kind and a missing reason where they are written',
    () => {
      const good = parseScenario(
        'name: x\nexpected-differences:\n  - kind: renew\n    subject: L1 (c1)\n    nth: 2\n ' +
          '   reason: send-loop phase\nsteps:\n  - at: 0s\n    grant: { lease: L1, ttl: 9 }\n',
        'x.yaml',
      );
      expect(good.ok && good.scenario.expectedDifferences).toEqual([
        { kind: 'renew', subject: 'L1 (c1)', nth: 2, reason: 'send-loop phase', line: 3 },
      ]);
      const bad = parseScenario(
        'name: x\nexpected-differences:\n  - { kind: rename, subject: ' +
          'L1 }\nsteps:\n  - at: 0s\n    grant: { lease: L1, ttl: 9 }\n',
        'x.yaml',
      );
      expect(!bad.ok && bad.errors.map((e) => `${e.line}: ${e.message}`)).toEqual([
        '3: missing required key "reason" in expected difference: ' +
          'Why the model and etcd 3.4.23 differ here; `diff` prints it.',
        '3: expected one of grant, revoke, put, renew, ttl, leases, delete, error, found string "rename"',
      ]);
    },
  );
});
