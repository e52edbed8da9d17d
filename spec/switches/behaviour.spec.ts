// Switches resolved into behaviour flags (src/switches/behaviour.ts): every bug and fix moves a flag.
import { describe, expect, it } from 'vitest';
import { resolveBehaviour, type Behaviour } from '../../src/switches/behaviour.js';
import { BUG_NAMES, NO_BUGS } from '../../src/switches/bugs.js';
import { FIX_NAMES, NO_FIXES } from '../../src/switches/fixes.js';
import { V3_4, V3_5 } from '../../src/switches/profile.js';

const changed = (a: Behaviour, b: Behaviour): string[] =>
  (Object.keys(a) as (keyof Behaviour)[]).filter((k) => a[k] !== b[k]);

describe('resolveBehaviour', () => {
  it('moves at least one flag for every server-side bug, in both profiles', () => {
    for (const profile of [V3_4, V3_5]) {
      const base = resolveBehaviour(profile, NO_BUGS, NO_FIXES);
      // The client's Mutex reads its bug itself; 3.4 has these bugs natively (its profile), so they change nothing.
      const natively = ['expiry-queue-uses-wall-clock', 'ttl-on-demoted-lessor', 'renew-skips-recheck'];
      const skip = [
        'lock-skips-post-wait-check',
        ...(profile === V3_4 ? [...natively, 'no-leadership-check-on-revoke', 'no-leadership-check-on-renew'] : []),
      ];
      const dead = BUG_NAMES.filter((b) => !skip.includes(b))
        .filter((b) => changed(base, resolveBehaviour(profile, new Set([b]), NO_FIXES)).length === 0)
        .map((b) => `${profile.name} ${b}`);
      expect(dead).toEqual([]);
    }
  });

  it('moves at least one flag for every fix', () => {
    const base = resolveBehaviour(V3_4, NO_BUGS, NO_FIXES);
    const dead = FIX_NAMES.filter((f) => changed(base, resolveBehaviour(V3_4, NO_BUGS, new Set([f]))).length === 0);
    expect(dead).toEqual([]);
  });

  it('keeps 3.5 behaviour unless a bug takes it back', () => {
    const b = resolveBehaviour(V3_5, NO_BUGS, NO_FIXES);
    expect([b.renewRechecksLease, b.revokeConfirmsLeadership, b.timeToLiveRejectsDemoted]).toEqual([true, true, true]);
    const bugged = resolveBehaviour(V3_5, new Set(['renew-skips-recheck', 'no-leadership-check-on-revoke']), NO_FIXES);
    expect(changed(b, bugged).sort()).toEqual(['renewRechecksLease', 'revokeConfirmsLeadership']);
  });

  it('confirms leadership in 3.4 only under the fix', () => {
    expect(resolveBehaviour(V3_4, NO_BUGS, NO_FIXES).renewConfirmsLeadership).toBe(false);
    const fixed = resolveBehaviour(V3_4, NO_BUGS, new Set(['confirm-leadership-by-read-index']));
    expect(changed(resolveBehaviour(V3_4, NO_BUGS, NO_FIXES), fixed).sort()).toEqual([
      'leadershipByReadIndex',
      'renewConfirmsLeadership',
      'revokeConfirmsLeadership',
    ]);
  });
});
