// Where drift leaves [0, driftBound] and why: directed runs for each case docs/drift.md lists.
import { describe, expect, it } from 'vitest';
import { ms, seconds } from '../../../src/clock/time.js';
import { V3_4, V3_5 } from '../../../src/switches/profile.js';
import { measureDrift, runDrift, type LeaseDrift } from '../../../src/properties/drift/index.js';

const only = (events: Parameters<typeof measureDrift>[0]): LeaseDrift => {
  const [d, ...rest] = measureDrift(events);
  expect(rest).toEqual([]);
  return d!;
};

describe('early expiry (negative drift) without a bug switch', () => {
  it.each([V3_4, V3_5])(
    '$name: a paused leader offers a lease the new leader renewed, and its revoke dies (C4, timers first)',
    (profile) => {
      // The lease expires during the pause; on resume the held run-loop tick offers it, and the held raft
      // tick makes 3.5's isActive pass, but the revoke reaches raft in the old term, before the new
      // leader's messages are read, and is truncated (as on etcd 3.4.23 on a quiet host). The lease lives
      // on from the renewal forwarded after the resume.
      const r = runDrift({
        cluster: { profile, resumeOrder: 'timers-first' },
        leases: [{ id: 1n, ttl: 3, at: seconds(1) }],
        renews: [{ id: 1n, at: seconds(4.002), via: 'n1' }],
        faults: [{ at: seconds(3.8) + 1, kind: 'pause-leader', forUs: seconds(1.503) }],
        untilUs: seconds(15),
      });
      const d = only(r.events);
      expect(d.anchor).toBe('renew');
      expect(d.staleRevoke).toBe(false);
      expect(d.revokedOnPrimary).toBe(true);
      expect(d.driftUs!).toBeGreaterThanOrEqual(0);
      expect(d.driftUs!).toBeLessThan(ms(500));
    },
  );

  // 3.4 only: 3.5's revoke first confirms leadership, whose answer depends on the held raft tick.
  it.each([V3_4])(
    '$name: the same pause with the waiting messages read first: the revoke is forwarded and commits (C4, input first)',
    (profile) => {
      const r = runDrift({
        cluster: { profile, resumeOrder: 'input-first' },
        leases: [{ id: 1n, ttl: 3, at: seconds(1) }],
        renews: [{ id: 1n, at: seconds(4.002), via: 'n1' }],
        faults: [{ at: seconds(3.8) + 1, kind: 'pause-leader', forUs: seconds(1.503) }],
        untilUs: seconds(15),
      });
      const d = only(r.events);
      expect(d.staleRevoke).toBe(true);
      expect(d.driftUs!).toBeLessThan(0);
    },
  );

  it('a checkpoint computed before a renewal is applied between its clearing entry and its refresh (A7)', () => {
    // Apply loop stalled: the renewal's clearing checkpoint and the run loop's checkpoint (remaining 1 s)
    // apply together, and Renew then refreshes to RemainingTTL() = 1 s while answering TTL 7.
    const r = runDrift({
      cluster: { leaseCheckpoint: true, checkpointIntervalUs: seconds(3.2) },
      leases: [{ id: 1n, ttl: 7, at: seconds(1) + 1 }],
      renews: [{ id: 1n, at: 6_661_903, via: 'n2' }],
      faults: [{ at: 6_664_903, kind: 'stall-leader', loop: 'apply', forUs: 1_339_097 }],
      untilUs: seconds(20),
    });
    const d = only(r.events);
    expect(d.staleCheckpoint).toBe(true);
    expect(d.driftUs).toBe(-seconds(6) + ms(2));
  });
});

describe('wall-clock jumps move only the 3.4 heaps, and only later', () => {
  const jump = (profile: typeof V3_4, deltaUs: number): LeaseDrift =>
    only(
      runDrift({
        cluster: { profile },
        leases: [{ id: 1n, ttl: 10, at: seconds(1) }],
        faults: [{ at: seconds(3), kind: 'clock-jump-leader', deltaUs }],
        untilUs: seconds(40),
      }).events,
    );

  it('v3.4, backward jump J: the heap entry comes due J late, so the revoke is J late', () => {
    const d = jump(V3_4, -seconds(5));
    expect(d.driftUs!).toBeGreaterThanOrEqual(seconds(5));
    expect(d.driftUs!).toBeLessThanOrEqual(seconds(5) + ms(502));
  });

  it(
    'v3.4, forward jump: due early but expired() reads the ' +
      'monotonic clock, so it is re-armed one retry interval (7 s) on',
    () => {
      const d = jump(V3_4, seconds(5));
      // Looked at 5 s early (t ≈ 6 s), not expired, re-armed at +7 s: revoked ≈ 2 s late, never early.
      expect(d.driftUs!).toBeGreaterThan(seconds(1.9));
      expect(d.driftUs!).toBeLessThanOrEqual(seconds(7) + ms(502));
    },
  );

  it.each([seconds(5), -seconds(5)])('v3.5 ignores a jump of %i µs', (delta) => {
    const d = jump(V3_5, delta);
    expect(d.driftUs!).toBeGreaterThanOrEqual(0);
    expect(d.driftUs!).toBeLessThanOrEqual(ms(502));
  });
});
