// The trace grammar prints typed fields in their own styles: the lines (and so every hash) read as they
// did when emitters formatted the values themselves.
import { describe, expect, it } from 'vitest';
import { FOREVER } from '../../src/lessor/lease.js';
import { formatEvent, type TraceEvent } from '../../src/trace/trace.js';

const line = (e: TraceEvent): string => formatEvent(e);

describe('formatEvent', () => {
  it('prints an expiry in µs as seconds with six decimals, and FOREVER as forever', () => {
    expect(
      line({ t: 3_000, member: 'n1', kind: 'lease-grant', lease: 0x1fn, fields: { ttl: 5, expiry: 5_003_000 } }),
    ).toBe('0.003000 n1 lease-grant 1f ttl=5 expiry=5.003000');
    expect(
      line({ t: 4_000, member: 'n2', kind: 'lease-grant', lease: 0x1fn, fields: { ttl: 5, expiry: FOREVER } }),
    ).toBe('0.004000 n2 lease-grant 1f ttl=5 expiry=forever');
  });

  it('prints Promote’s extension and a clock jump as plain seconds', () => {
    expect(
      line({ t: 2_500_000, member: 'n2', kind: 'lessor-promote', fields: { extend: 1_500_000, leases: 2, spread: 0 } }),
    ).toBe('2.500000 n2 lessor-promote - extend=1.5 leases=2 spread=0');
    expect(line({ t: 3_000_000, member: 'n2', kind: 'member-clock-jump', fields: { delta: -30_000_000 } })).toBe(
      '3.000000 n2 member-clock-jump - delta=-30',
    );
  });

  it('prints a stored key’s lease as hex, partition groups joined, and leaves out absent optional fields', () => {
    expect(line({ t: 0, member: 'n1', kind: 'kv-put', fields: { key: '/a', rev: 2, lease: -1n } })).toBe(
      '0.000000 n1 kv-put - key=/a rev=2 lease=ffffffffffffffff',
    );
    expect(line({ t: 0, member: 'sim', kind: 'net-partition', fields: { groups: [['n1', 'n2'], ['n3']] } })).toBe(
      '0.000000 sim net-partition - groups=n1,n2|n3',
    );
    expect(line({ t: 0, member: 'ctl', kind: 'ctl-ok', fields: { op: 'put', key: undefined, rev: 3 } })).toBe(
      '0.000000 ctl ctl-ok - op=put rev=3',
    );
  });

  it('quotes a string with spaces and prints an empty list as []', () => {
    expect(line({ t: 0, member: 'sim', kind: 'step-error', fields: { op: 'restart', message: 'n1 is running' } })).toBe(
      '0.000000 sim step-error - op=restart message="n1 is running"',
    );
    expect(line({ t: 0, member: 'n1', kind: 'lease-revoke', lease: 7n, fields: { keys: [] } })).toBe(
      '0.000000 n1 lease-revoke 7 keys=[]',
    );
  });
});
