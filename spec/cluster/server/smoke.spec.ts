import { describe, expect, it } from 'vitest';
import { Process } from '../../../src/clock/process.js';
import { seconds, ms } from '../../../src/clock/time.js';
import { Cluster } from '../../../src/cluster/cluster.js';
import type { ClientResponse, RpcError } from '../../../src/cluster/server/api.js';

describe('cluster smoke', () => {
  it('elects n1, grants through raft, and revokes on expiry with keys deleted on every member', () => {
    const c = new Cluster({ members: 3 });
    const cp = new Process('c1', c.sched);
    const t = c.connect('c1', cp);
    c.runUntil(seconds(1));
    expect(c.leader()?.name).toBe('n1');
    let grant: ClientResponse | RpcError | undefined;
    t.unary('n1', { op: 'LeaseGrant', ttl: 5, id: 0n }, (r) => (grant = r));
    c.runUntil(seconds(1) + ms(20));
    expect(grant).toMatchObject({ op: 'LeaseGrant', ttl: 5 });
    const id = (grant as { id: bigint }).id;
    let put: unknown;
    t.unary('n2', { op: 'Put', key: '/a', value: 'x', lease: id }, (r) => (put = r));
    c.runUntil(seconds(2));
    expect(put).toMatchObject({ op: 'Put' });
    for (const n of c.names) expect(c.server(n)!.store.range('/a')?.lease).toBe(id);
    c.runUntil(seconds(8));
    for (const n of c.names) {
      expect(c.server(n)!.store.range('/a')).toBeUndefined();
      expect(c.server(n)!.lessor.lookup(id)).toBeUndefined();
    }
  });
});
