// Require-leader is a property of each stream (etcd's `hasleader` metadata, v3rpc/interceptor.go): a
// stream that carries it is refused on a member without a leader, and cancelled with ErrNoLeader when its
// member loses the leader; one that does not stays open, and a keep-alive request on it waits for a leader.
import { describe, expect, it } from 'vitest';
import type { KeepAliveResponse, RpcError } from '../../../src/cluster/server/api.js';
import { clusterHarness } from './harness.js';

/** n1 leads; n1 and n3 crash, so n2 has no leader after an election timeout; n3 restarts at `back`. */
function leaderless() {
  const h = clusterHarness({ members: 3 });
  h.c.runUntil(2_000_000);
  const id = h.grant(60);
  h.c.crash('n1');
  h.c.crash('n3');
  h.c.runUntil(h.c.now() + 4_000_000);
  expect(h.c.server('n2')?.leader()).toBeUndefined();
  return { ...h, id };
}

describe('per-stream require-leader', () => {
  it('a keep-alive stream without it waits for a leader and renews once there is one', () => {
    const { c, t, id } = leaderless();
    const got: Array<KeepAliveResponse | RpcError> = [];
    const s = t.openKeepAlive('n2', { onResponse: (r) => got.push(r), onError: (e) => got.push(e) });
    s.send(id);
    c.runUntil(c.now() + 2_000_000);
    expect(got).toEqual([]);
    c.restart('n3');
    c.runUntil(c.now() + 4_000_000);
    expect(got.map((r) => ('ttl' in r ? r.ttl : r.name))).toEqual([60]);
  });

  it('a keep-alive stream with it is refused with ErrNoLeader', () => {
    const { c, t, id } = leaderless();
    const got: string[] = [];
    const s = t.openKeepAlive(
      'n2',
      { onResponse: (r) => got.push(`ttl ${r.ttl}`), onError: (e) => got.push(e.name) },
      { requireLeader: true },
    );
    s.send(id);
    c.runUntil(c.now() + 100_000);
    expect(got).toEqual(['ErrNoLeader']);
  });

  it('a watch ends with ErrNoLeader on losing its leader only when it asked for one', () => {
    const h = clusterHarness({ members: 3 });
    h.c.runUntil(2_000_000);
    const errors: Record<string, string[]> = { plain: [], required: [] };
    for (const [name, requireLeader] of [
      ['plain', false],
      ['required', true],
    ] as const)
      h.t.watch('n2', '/k', { requireLeader }, { onEvents: () => {}, onError: (e) => errors[name]!.push(e.name) });
    h.c.runUntil(h.c.now() + 100_000);
    h.c.crash('n1');
    h.c.crash('n3');
    // The monitor cancels after three election timeouts without a leader.
    h.c.runUntil(h.c.now() + 6_000_000);
    expect(errors).toEqual({ plain: [], required: ['ErrNoLeader'] });
  });
});
