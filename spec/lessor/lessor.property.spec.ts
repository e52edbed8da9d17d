// Random operation sequences against a small reference model of the lessor.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MICROS_PER_SECOND, ms } from '../../src/clock/time.js';
import { ErrLeaseNotFound, ErrNotPrimary, PROFILES, type Lessor, type RenewOutcome } from '../../src/lessor/index.js';
import { harness } from '../conformance/harness.js';
import { fcParams } from '../support/fc.js';

type Op =
  | { op: 'grant'; id: number; ttl: number }
  | { op: 'revoke'; id: number }
  | { op: 'renew'; id: number }
  | { op: 'attach'; id: number; key: string }
  | { op: 'detach'; id: number; key: string }
  | { op: 'checkpoint'; id: number; remaining: number }
  | { op: 'promote'; extendMs: number }
  | { op: 'demote' }
  | { op: 'advance'; ms: number }
  | { op: 'revoke-offered' };

const id = fc.integer({ min: 1, max: 6 });
const key = fc.constantFrom('/a', '/b', '/c', '/d');
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('grant' as const), id, ttl: fc.integer({ min: -2, max: 12 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('revoke' as const), id }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('renew' as const), id }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('attach' as const), id, key }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('detach' as const), id, key }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('checkpoint' as const), id, remaining: fc.integer({ min: 0, max: 12 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('promote' as const), extendMs: fc.constantFrom(0, 1000, 2500) }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('demote' as const) }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('advance' as const), ms: fc.integer({ min: 1, max: 4000 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('revoke-offered' as const) }) },
);

interface ModelLease {
  ttl: number;
  remaining: number;
  keys: Set<string>;
  /** The expiry the model expects on a primary, µs; undefined while not primary. */
  expiry: number | undefined;
}

const MIN_TTL = 2;

/** Runs ops on the real lessor and the model side by side; returns the trace lines. */
function run(profileName: 'v3.4' | 'v3.5', revokeRate: number, ops: Op[]): string[] {
  const h = harness(PROFILES[profileName], { minLeaseTTLSeconds: MIN_TTL, leaseRevokeRate: revokeRate });
  const le: Lessor = h.lessor;
  // Deletes through the lessor's Detach, as etcd's mvcc delete path does for each key of a revoked lease.
  le.setRangeDeleter(() => ({
    deleteRange: (k) => {
      const owner = le.getLease(k);
      if (owner !== 0n) le.detach(owner, [k]);
    },
    end: () => {},
  }));
  const model = new Map<bigint, ModelLease>();
  let primary = false;
  // Leases were pushed by Promote's spreading: the model knows only a lower bound for their expiry.
  let spreadPossible = false;
  const offered: bigint[] = [];
  const renewsWaiting = new Map<number, { id: bigint; out?: RenewOutcome; cause?: 'revoke' | 'demote' }>();
  let renewSeq = 0;

  le.expiredLeasesC.onReady = () => {
    const batch = le.expiredLeasesC.receive()!;
    const now = h.sched.now();
    // No tick offers more than rate/2, and nothing is offered before its expiry.
    expect(batch.length).toBeLessThanOrEqual(Math.trunc(revokeRate / 2));
    for (const l of batch) {
      expect(l.expiry).toBeLessThanOrEqual(now);
      const m = model.get(l.id)!;
      expect(m.expiry).toBeDefined();
      expect(m.expiry!).toBeLessThanOrEqual(now);
      offered.push(l.id);
    }
  };

  const invariants = () => {
    const view = le.inspect();
    expect(view.primary).toBe(primary);
    expect([...view.leaseMap.keys()].sort()).toEqual([...model.keys()].sort());
    for (const [lid, m] of model) {
      const l = view.leaseMap.get(lid)!;
      expect(l.ttl).toBe(m.ttl);
      expect(l.remainingTTL).toBe(m.remaining);
      expect(l.keys()).toEqual([...m.keys].sort());
      if (!primary) expect(l.demoted()).toBe(true);
      else if (spreadPossible) expect(l.expiry).toBeGreaterThanOrEqual(m.expiry!);
      else expect(l.expiry).toBe(m.expiry);
    }
    if (!primary) {
      expect(view.notifier).toHaveLength(0);
      expect(view.checkpointHeap).toHaveLength(0);
    } else {
      const ids = view.notifier.map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length); // one entry per lease
      for (const lid of model.keys()) expect(ids).toContain(lid);
    }
    // itemMap equals the union of item sets.
    const union = new Map<string, bigint>();
    for (const [lid, m] of model) for (const k of m.keys) union.set(k, lid);
    expect(new Map(view.itemMap)).toEqual(union);
  };

  for (const o of ops) {
    const now = h.sched.now();
    switch (o.op) {
      case 'grant': {
        const lid = BigInt(o.id);
        if (model.has(lid)) {
          expect(() => le.grant(lid, o.ttl)).toThrow();
          break;
        }
        le.grant(lid, o.ttl);
        const ttl = Math.max(o.ttl, MIN_TTL);
        model.set(lid, {
          ttl,
          remaining: 0,
          keys: new Set(),
          expiry: primary ? now + ttl * MICROS_PER_SECOND : undefined,
        });
        break;
      }
      case 'revoke': {
        const lid = BigInt(o.id);
        if (!model.has(lid)) {
          expect(() => le.revoke(lid)).toThrow(ErrLeaseNotFound);
          break;
        }
        le.revoke(lid);
        for (const w of renewsWaiting.values()) if (w.id === lid) w.cause ??= 'revoke';
        model.delete(lid);
        break;
      }
      case 'renew': {
        const lid = BigInt(o.id);
        const m = model.get(lid);
        const seq = renewSeq++;
        const rec: { id: bigint; out?: RenewOutcome; cause?: 'revoke' | 'demote' } = { id: lid };
        le.renew(lid, (out) => (rec.out = out));
        if (!primary) expect(rec.out?.err).toBe(ErrNotPrimary);
        else if (m === undefined) expect(rec.out?.err).toBe(ErrLeaseNotFound);
        else if (m.expiry! <= now) {
          expect(rec.out).toBeUndefined(); // blocks on an expired lease
          renewsWaiting.set(seq, rec);
        } else {
          expect(rec.out).toEqual({ ttl: m.ttl });
          m.expiry = now + (m.remaining > 0 ? m.remaining : m.ttl) * MICROS_PER_SECOND;
        }
        break;
      }
      case 'attach':
      case 'detach': {
        const lid = BigInt(o.id);
        const m = model.get(lid);
        if (m === undefined) {
          expect(() => le[o.op](lid, [o.key])).toThrow(ErrLeaseNotFound);
          break;
        }
        if (o.op === 'attach') {
          // mvcc detaches a key from its previous lease before attaching it (etcd's put path).
          for (const [other, om] of model)
            if (om.keys.has(o.key)) {
              le.detach(other, [o.key]);
              om.keys.delete(o.key);
            }
          le.attach(lid, [o.key]);
          m.keys.add(o.key);
        } else if (m.keys.has(o.key)) {
          le.detach(lid, [o.key]);
          m.keys.delete(o.key);
        }
        break;
      }
      case 'checkpoint': {
        const lid = BigInt(o.id);
        le.checkpoint(lid, o.remaining);
        const m = model.get(lid);
        if (m !== undefined) m.remaining = o.remaining;
        break;
      }
      case 'promote': {
        le.promote(ms(o.extendMs));
        primary = true;
        spreadPossible = model.size >= revokeRate;
        for (const m of model.values())
          m.expiry = now + ms(o.extendMs) + (m.remaining > 0 ? m.remaining : m.ttl) * MICROS_PER_SECOND;
        break;
      }
      case 'demote': {
        le.demote();
        if (primary) for (const w of renewsWaiting.values()) w.cause ??= 'demote';
        primary = false;
        for (const m of model.values()) m.expiry = undefined;
        break;
      }
      case 'advance':
        h.sched.advance(ms(o.ms));
        break;
      case 'revoke-offered':
        for (const lid of offered.splice(0)) {
          if (!model.has(lid)) continue;
          le.revoke(lid);
          for (const w of renewsWaiting.values()) if (w.id === lid) w.cause ??= 'revoke';
          model.delete(lid);
        }
        break;
    }
    h.sched.advance(0);
    // A blocked renew ends with the error of whatever released it first.
    for (const [seq, w] of renewsWaiting) {
      if (w.cause === undefined) {
        expect(w.out).toBeUndefined();
        continue;
      }
      h.sched.advance(0);
      expect(w.out?.err).toBe(w.cause === 'revoke' ? ErrLeaseNotFound : ErrNotPrimary);
      renewsWaiting.delete(seq);
    }
    invariants();
  }
  return h.trace.lines();
}

describe('lessor properties', () => {
  const scenario = fc.record({
    profile: fc.constantFrom('v3.4' as const, 'v3.5' as const),
    revokeRate: fc.constantFrom(2, 4, 10, 1000),
    ops: fc.array(opArb, { maxLength: 60 }),
  });

  it('matches the reference model and keeps its invariants (1000 runs)', () => {
    fc.assert(
      fc.property(scenario, ({ profile, revokeRate, ops }) => {
        run(profile, revokeRate, ops);
      }),
      fcParams(1000),
    );
  });

  it('gives a byte-identical trace for the same inputs (1000 runs)', () => {
    fc.assert(
      fc.property(scenario, ({ profile, revokeRate, ops }) => {
        expect(run(profile, revokeRate, ops).join('\n')).toBe(run(profile, revokeRate, ops).join('\n'));
      }),
      fcParams(1000),
    );
  });
});
