// raft/node.go reads no proposals while there is no leader (propc = nil): a proposal on a member that
// knows none blocks in Propose inside the request's context, goes on once a leader is known, and fails
// with the context's DeadlineExceeded when none comes within ReqTimeout (7 s here).
import { describe, expect, it } from 'vitest';
import { isRpcError, type ClientResponse, type RpcError } from '../../../src/cluster/server/api.js';
import { clusterHarness } from './harness.js';

function leaderlessN2() {
  const h = clusterHarness({ members: 3 });
  h.c.runUntil(2_000_000);
  h.c.crash('n1');
  h.c.crash('n3');
  h.c.runUntil(h.c.now() + 4_000_000);
  expect(h.c.server('n2')?.leader()).toBeUndefined();
  return h;
}

describe('a proposal on a member without a leader', () => {
  it('waits for one and succeeds once a leader is elected', () => {
    const { c, t } = leaderlessN2();
    let out: ClientResponse | RpcError | undefined;
    const sent = c.now();
    t.unary('n2', { op: 'Put', key: '/k', value: 'v', lease: 0n }, (r) => (out = r));
    c.runUntil(sent + 1_000_000);
    expect(out).toBeUndefined();
    c.restart('n3');
    c.runUntil(sent + 6_000_000);
    expect(out !== undefined && !isRpcError(out) && out.op).toBe('Put');
  });

  it('fails with DeadlineExceeded when no leader comes within the request timeout', () => {
    const { c, t } = leaderlessN2();
    let out: ClientResponse | RpcError | undefined;
    const sent = c.now();
    t.unary('n2', { op: 'LeaseGrant', ttl: 10, id: 0n }, (r) => (out = r));
    c.runUntil(sent + 8_000_000);
    expect(out).toMatchObject({ code: 'DeadlineExceeded', name: 'DeadlineExceeded' });
  });
});
