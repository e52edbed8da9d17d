import { describe, expect, it } from 'vitest';
import { newStore } from '../../../src/cluster/mvcc/index.js';
import { Trace } from '../../../src/trace/trace.js';
import { FakeLeaseIndex } from './fake-lease-index.js';

describe('mvcc trace events', () => {
  it('emits kv-put with the lease in hex and kv-delete, at the change revision', () => {
    const trace = new Trace();
    let t = 1_500_000;
    const s = newStore(new FakeLeaseIndex(0x694dn), { member: 'n2', trace, now: () => t });
    s.put('/a', 'v', 0x694dn);
    t += 1;
    s.put('/b', 'v');
    const txn = s.rangeDeleter();
    txn.deleteRange('/a');
    txn.deleteRange('/b');
    txn.end();
    expect(trace.lines()).toEqual([
      '1.500000 n2 kv-put - key=/a rev=2 lease=694d',
      '1.500001 n2 kv-put - key=/b rev=3 lease=0',
      '1.500001 n2 kv-delete - key=/a rev=4',
      '1.500001 n2 kv-delete - key=/b rev=4',
    ]);
  });

  it('builds nothing when the trace is disabled', () => {
    const trace = new Trace(false);
    let reads = 0;
    const s = newStore(new FakeLeaseIndex(), { member: 'n1', trace, now: () => reads++ });
    s.put('/a', 'v');
    s.deleteRange('/a');
    expect(trace.length).toBe(0);
    expect(reads).toBe(0);
  });
});
