// The step tables: every kind has one complete entry in the scenario layer's table and in the real-etcd
// driver's, and each entry's parts work: the parser reads the kind, the property draft prints it back,
// the narration words it, the simulation performs it, and the driver performs or refuses it.
import { describe, expect, it } from 'vitest';
import { REAL_STEPS } from '../../src/real-etcd/real-steps.js';
import { refusals } from '../../src/real-etcd/refusals.js';
import { formatStep } from '../../src/properties/draft/format-step.js';
import { actOnApps, type AppAction } from '../../src/scenario/replay/app-hook.js';
import { runScenario } from '../../src/scenario/replay/runner.js';
import { STEP_KINDS, describeStep, stepEndUs } from '../../src/scenario/step-kinds.js';
import { STEP_KIND_NAMES } from '../../src/scenario/steps.js';
import type { Step, StepKind } from '../../src/scenario/types.js';
import { FILE, lines, parsed } from './support.js';

interface Sample {
  /** The step as a scenario file writes it. */
  readonly yaml: string;
  /** Its narration. */
  readonly says: string;
  /** A trace event kind that performing it sets off before the next step. */
  readonly sets: string;
  /** A step the sample needs just before it (at the same time), such as the call it names. */
  readonly after?: string;
}

/** Every kind, in file order: a scenario that runs them all without a step error. */
const EVERY_KIND: { readonly [K in StepKind]: Sample } = {
  grant: {
    yaml: '{ at: 0s, grant: { lease: L1, ttl: 30, id: 7 } }',
    says: 'grant lease L1 with TTL 30 s (ID 7)',
    sets: 'lease-grant',
  },
  'grant-many': {
    yaml: '{ at: 100ms, grant-many: { prefix: M, count: 2, ttl: 30, spread: 100ms } }',
    says: 'grant 2 leases M1..M2 with TTL 30 s over 100ms',
    sets: 'lease-grant',
  },
  put: {
    yaml: '{ at: 300ms, put: { key: /a, value: x, lease: L1 } }',
    says: 'put /a="x" with lease L1',
    sets: 'lease-attach',
  },
  delete: { yaml: '{ at: 400ms, delete: { key: /a } }', says: 'delete /a', sets: 'lease-detach' },
  txn: {
    yaml:
      "{ at: 450ms, txn: { compare: [{ key: /a, version: 0 }, { key: /t, lease: L1, result: '!=' }], " +
      'success: [{ put: { key: /t, value: v, lease: L1 } }, { txn: { success: [{ get: { key: /t } }] } }], ' +
      'failure: [{ delete: { key: /t, range-end: /u } }], as: T1 } }',
    says: 'txn (2 compares, 2/1 ops)',
    sets: 'lease-attach',
  },
  compact: {
    yaml: '{ at: 470ms, compact: { revision: 2, via: n2, as: C1 } }',
    says: 'compact at revision 2 via n2',
    sets: 'ctl-ok',
  },
  keepalive: {
    yaml: '{ at: 500ms, keepalive: { lease: L1, client: c1 } }',
    says: 'c1 starts keep-alive for L1',
    sets: 'client-keepalive-start',
  },
  'keepalive-once': {
    yaml: '{ at: 600ms, keepalive-once: { lease: L1, via: n2 } }',
    says: 'keep-alive once for L1 via n2',
    sets: 'lease-renew',
  },
  timetolive: {
    yaml: '{ at: 700ms, timetolive: { lease: L1, keys: true } }',
    says: 'TimeToLive L1 --keys',
    sets: 'ctl-ok',
  },
  leases: { yaml: '{ at: 800ms, leases: { via: n3 } }', says: 'list leases via n3', sets: 'ctl-ok' },
  'keepalive-stop': {
    yaml: '{ at: 900ms, keepalive-stop: { lease: L1, client: c1 } }',
    says: 'c1 stops keep-alive for L1',
    sets: 'client-keepalive-closed',
  },
  'keepalive-cancel': {
    after: '{ at: 950ms, keepalive: { lease: L1, client: c4, as: K1, require-leader: true } }',
    yaml: '{ at: 950ms, keepalive-cancel: { channel: K1 } }',
    says: 'cancel keep-alive K1',
    sets: 'client-keepalive-closed',
  },
  'client-close': {
    yaml: '{ at: 960ms, client-close: { client: c4 } }',
    says: 'close client c4',
    sets: 'client-close',
  },
  revoke: { yaml: '{ at: 1s, revoke: { lease: M1 } }', says: 'revoke lease M1', sets: 'lease-revoke' },
  lock: {
    yaml: '{ at: 1100ms, lock: { name: /locks/a, client: c2, ttl: 10 } }',
    says: 'c2 locks /locks/a (session TTL 10 s)',
    sets: 'client-lock-acquired',
  },
  'fenced-write': {
    yaml: '{ at: 1500ms, fenced-write: { client: c2, resource: db, lock: /locks/a } }',
    says: 'c2 writes to db with the fencing token of /locks/a',
    sets: 'client-fenced-write',
  },
  unlock: {
    yaml: '{ at: 1600ms, unlock: { name: /locks/a, client: c2 } }',
    says: 'c2 unlocks /locks/a',
    sets: 'client-unlock',
  },
  session: {
    yaml: '{ at: 1700ms, session: { name: s1, client: c3, ttl: 20, via: n2 } }',
    says: 'c3 opens session s1 (TTL 20 s) via n2',
    sets: 'client-session-start',
  },
  trylock: {
    yaml: '{ at: 1750ms, trylock: { name: /locks/b, client: c3, session: s1 } }',
    says: 'c3 tries to lock /locks/b on session s1',
    sets: 'client-lock-acquired',
  },
  campaign: {
    yaml: '{ at: 1762ms, campaign: { election: /e, session: s1, value: v1 } }',
    says: 'session s1 campaigns in /e as "v1"',
    sets: 'client-elected',
  },
  observe: {
    yaml: '{ at: 1780ms, observe: { election: /e, session: s1 } }',
    says: 'session s1 observes /e',
    sets: 'client-observed',
  },
  resign: {
    yaml: '{ at: 1790ms, resign: { election: /e, session: s1 } }',
    says: 'session s1 resigns from /e',
    sets: 'kv-delete',
  },
  'session-orphan': {
    yaml: '{ at: 1800ms, session-orphan: { session: s1 } }',
    says: 'orphan session s1 (stop renewing it)',
    sets: 'client-session-done',
  },
  'session-close': {
    yaml: '{ at: 1850ms, session-close: { session: s1 } }',
    says: 'close session s1 (revoke its lease)',
    sets: 'lease-revoke',
  },
  pause: {
    yaml: '{ at: 2s, pause: { member: n3, for: 200ms } }',
    says: 'pause n3 for 200ms (SIGSTOP)',
    sets: 'member-pause',
  },
  resume: { yaml: '{ at: 2300ms, resume: { client: c1 } }', says: 'resume c1 (SIGCONT)', sets: 'client-resume' },
  stall: {
    yaml: '{ at: 2500ms, stall: { member: n3, loop: apply } }',
    says: "n3's apply loop stalls",
    sets: 'member-stall',
  },
  unstall: {
    yaml: '{ at: 2600ms, unstall: { member: n3, loop: apply } }',
    says: "n3's apply loop runs again",
    sets: 'member-unstall',
  },
  clock: {
    yaml: '{ at: 3s, clock: { member: n2, jump: -30s } }',
    says: "n2's wall clock jumps -30s",
    sets: 'member-clock-jump',
  },
  partition: {
    yaml: '{ at: 3100ms, partition: { groups: [[n1, n2], [n3]] } }',
    says: 'partition {n1,n2} {n3}',
    sets: 'net-partition',
  },
  heal: { yaml: '{ at: 3200ms, heal: {} }', says: 'heal the network', sets: 'net-heal' },
  crash: { yaml: '{ at: 3300ms, crash: { member: n3 } }', says: 'crash n3', sets: 'member-crash' },
  restart: { yaml: '{ at: 3400ms, restart: { member: n3 } }', says: 'restart n3', sets: 'member-restart' },
  // Steps on a program under test: performed by the actor serve registers (a stand-in here).
  kill: { yaml: '{ at: 3420ms, kill: { app: holder-1 } }', says: 'kill holder-1 (SIGKILL)', sets: 'app-signal' },
  cut: {
    yaml: '{ at: 3440ms, cut: { app: holder-1, from: [n1, n2] } }',
    says: 'cut holder-1 off from n1, n2',
    sets: 'app-cut',
  },
  'transfer-leader': {
    yaml: '{ at: 3500ms, transfer-leader: { to: n2 } }',
    says: 'move leadership to n2',
    sets: 'lessor-promote',
  },
  holder: {
    yaml: '{ at: 4s, holder: { name: h1, strategy: deadline, key: /locks/h, ttl: 5, client: c3, margin: 1s } }',
    says: 'holder h1 (deadline) on c3 takes /locks/h with TTL 5 s, margin 1s',
    sets: 'holder-acquired',
  },
  expect: { yaml: '{ at: 5s, expect: { lease: L1, exists: true } }', says: 'expect', sets: 'expect-pass' },
};

const KINDS = Object.keys(EVERY_KIND) as StepKind[];
const yamls = KINDS.flatMap((k) => [
  ...(EVERY_KIND[k].after !== undefined ? [EVERY_KIND[k].after] : []),
  EVERY_KIND[k].yaml,
]);
const text = lines('name: every-kind', 'steps:', ...yamls.map((y) => `  - ${y}`));
const scenario = parsed(text);
/** Where the sample of each kind is in the file above. */
const indexOf = (k: StepKind): number => yamls.indexOf(EVERY_KIND[k].yaml);
/** The step of each kind in the file above. */
const stepOf = (k: StepKind): Step => scenario.steps[indexOf(k)]!;
/** The step without where it is written. */
const unplaced = (s: Step): unknown =>
  JSON.parse(JSON.stringify(s, (k, v: unknown) => (k === 'pos' ? undefined : typeof v === 'bigint' ? `${v}n` : v)));
/** The file as the property draft prints its steps, parsed again (later steps need the labels of earlier ones). */
const printedBack = parsed(
  lines(
    'name: again',
    'steps:',
    ...scenario.steps.flatMap((s) =>
      formatStep(s)
        .split('\n')
        .map((l) => `  ${l}`),
    ),
  ),
);

describe('the step tables', () => {
  it('list every kind the parser accepts, and only those', () => {
    expect([...STEP_KIND_NAMES].sort()).toEqual([...KINDS].sort());
    expect(Object.keys(STEP_KINDS).sort()).toEqual(KINDS.filter((k) => k !== 'expect').sort());
    expect(Object.keys(REAL_STEPS).sort()).toEqual(KINDS.filter((k) => k !== 'expect').sort());
  });

  it.each(KINDS.filter((k) => k !== 'expect'))('has a complete entry for %s in each table', (kind) => {
    const entry = STEP_KINDS[kind as Exclude<StepKind, 'expect'>];
    expect(entry.description.length).toBeGreaterThan(10);
    expect(typeof entry.fields).toBe('object');
    expect(typeof entry.describe).toBe('function');
    expect(typeof entry.perform).toBe('function');
    const real = REAL_STEPS[kind as Exclude<StepKind, 'expect'>];
    if ('refused' in real) expect(real.refused.length).toBeGreaterThan(10);
    else {
      expect(typeof real.sendsRequest).toBe('boolean');
      expect(typeof real.perform).toBe('function');
    }
  });

  it.each(KINDS)('parses %s, and the property draft prints it back to the same step', (kind) => {
    const s = stepOf(kind);
    expect(s.kind).toBe(kind);
    expect(unplaced(printedBack.steps[indexOf(kind)]!)).toEqual(unplaced(s));
  });

  it.each(KINDS)('narrates %s', (kind) => {
    expect(describeStep(stepOf(kind))).toBe(EVERY_KIND[kind].says);
  });

  it('ends a timed or spread step after its own time, every other at its time', () => {
    expect(stepEndUs(stepOf('pause'))).toBe(2_200_000);
    expect(stepEndUs(stepOf('grant-many'))).toBe(200_000);
    expect(stepEndUs(stepOf('stall'))).toBe(2_500_000);
    expect(stepEndUs(stepOf('grant'))).toBe(0);
  });

  it('performs every kind in the simulation, each setting off its own effect', () => {
    const asked: AppAction[] = [];
    const r = runScenario(scenario, { onCluster: (c) => actOnApps(c, (a) => void asked.push(a)) });
    expect(r.passed).toBe(true);
    expect(asked).toEqual([
      { kind: 'kill', app: 'holder-1' },
      { kind: 'cut', app: 'holder-1', from: ['n1', 'n2'] },
    ]);
    const events = r.trace.events.filter((e) => e.t >= 0);
    expect(events.filter((e) => e.kind === 'step-error')).toEqual([]);
    for (const kind of KINDS) {
      const s = stepOf(kind);
      const next = scenario.steps[indexOf(kind) + 1]?.atUs ?? r.scenario.durationUs;
      const during = events.filter((e) => e.t >= s.atUs && e.t < next).map((e) => e.kind);
      if (kind !== 'expect') expect(during[0], kind).toBe('step');
      expect(during, kind).toContain(EVERY_KIND[kind].sets);
    }
  });

  it('has the real-etcd driver refuse exactly the kinds its table refuses, naming each line', () => {
    // In file order, as refusals() reports them.
    const refused = KINDS.filter((k) => k !== 'expect' && 'refused' in REAL_STEPS[k]);
    expect([...refused].sort()).toEqual([
      'campaign',
      'clock',
      'cut',
      'fenced-write',
      'heal',
      'holder',
      'keepalive-cancel',
      'kill',
      'lock',
      'observe',
      'partition',
      'resign',
      'session',
      'session-close',
      'session-orphan',
      'stall',
      'trylock',
      'unlock',
      'unstall',
    ]);
    const line = (s: Step): RegExp =>
      new RegExp(`^${FILE}:${s.pos.line}: step ${s.kind} cannot be replayed on real etcd: \\w`);
    // Besides whole kinds, the driver refuses some fields: the named require-leader keep-alive here.
    const byField = scenario.steps.filter((s) => s.kind === 'keepalive' && s.as !== undefined);
    expect(byField).toHaveLength(1);
    const expected = scenario.steps.filter((s) => byField.includes(s) || refused.some((k) => stepOf(k) === s));
    expect(refusals(scenario, text)).toEqual(expected.map((s) => expect.stringMatching(line(s))));
  });
});
