import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/scenario/replay/runner.js';
import { lines, onlyError, parsed, withSteps } from './support.js';

/** Replays the file and returns each expect's pass and what it saw, in file order. */
function verdicts(text: string) {
  return runScenario(parsed(text)).assertions.map((a) => ({ pass: a.passed, got: a.got }));
}
const passes = (text: string) => verdicts(text).map((v) => v.pass);

describe('keep-alive calls: require-leader, several per client, cancel, client-close', () => {
  it('a require-leader channel closes when the leader is lost; the other goes on', () =>
    expect(
      passes(
        lines(
          'name: t',
          'cluster: { members: 2 }',
          'steps:',
          '  - { at: 0s, grant: { lease: A, ttl: 60 } }',
          '  - { at: 0s, grant: { lease: B, ttl: 60 } }',
          '  - { at: 0s, keepalive: { lease: A, client: c1, require-leader: true, as: KA } }',
          '  - { at: 0s, keepalive: { lease: B, client: c1, as: KB } }',
          '  - { at: 1s, expect: { answer: KA, lease: A, ttl: 60 } }',
          '  - { at: 1s, expect: { answer: KB, lease: B } }',
          '  - { at: 2s, crash: { member: n2 } }',
          '  - { at: 10s, expect: { channel: KA, alive: false } }',
          '  - { at: 10s, expect: { channel: KB, alive: true } }',
          '  - { at: 10s, expect: { channel: KA, alive: true } }',
        ),
      ),
    ).toEqual([true, true, true, true, false]));

  it('a channel expect says which error closed it', () =>
    expect(
      verdicts(
        lines(
          'name: t',
          'cluster: { members: 2 }',
          'steps:',
          '  - { at: 0s, grant: { lease: A, ttl: 60 } }',
          '  - { at: 0s, grant: { lease: B, ttl: 60 } }',
          '  - { at: 0s, keepalive: { lease: A, client: c1, require-leader: true, as: KA } }',
          '  - { at: 0s, keepalive: { lease: B, client: c1, as: KB } }',
          '  - { at: 1s, keepalive-cancel: { channel: KB } }',
          '  - { at: 1s, expect: { channel: KA, error: ErrNoLeader } }',
          '  - { at: 2s, crash: { member: n2 } }',
          '  - { at: 10s, expect: { channel: KA, error: ErrNoLeader } }',
          '  - { at: 10s, expect: { channel: KA, error: context.Canceled } }',
          '  - { at: 10s, expect: { channel: KB, error: context.Canceled } }',
        ),
      ),
    ).toEqual([
      { pass: false, got: 'channel open, 1 responses' },
      { pass: true, got: 'channel closed (ErrNoLeader), 1 responses' },
      { pass: false, got: 'channel closed (ErrNoLeader), 1 responses' },
      { pass: true, got: 'channel closed (context.Canceled), 1 responses' },
    ]));

  it('refuses a channel error beside alive: true, and an unknown error name, at the field', () => {
    const ka = ['- { at: 0s, grant: { lease: L, ttl: 5 } }', '- { at: 0s, keepalive: { lease: L, as: K } }'];
    const step = '- { at: 1s, expect: { channel: K, alive: true, error: ErrNoLeader } }';
    const both = onlyError(withSteps(...ka, step));
    expect(both.message).toContain('"error" says why the channel closed; it cannot go with "alive: true"');
    expect([both.line, both.col]).toEqual([5, 2 + step.indexOf('ErrNoLeader') + 1]);
    expect(onlyError(withSteps(...ka, '- { at: 1s, expect: { channel: K, error: ErrNoLeadr } }')).message).toContain(
      'expected an etcd error name',
    );
  });

  it('two calls on one lease: cancelling one leaves the other; closing the client closes it', () =>
    expect(
      passes(
        withSteps(
          '- { at: 0s, grant: { lease: L, ttl: 10 } }',
          '- { at: 0s, keepalive: { lease: L, as: K1 } }',
          '- { at: 0s, keepalive: { lease: L, as: K2 } }',
          '- { at: 1s, keepalive-cancel: { channel: K2 } }',
          '- { at: 2s, expect: { channel: K2, alive: false } }',
          '- { at: 2s, expect: { channel: K1, alive: true, responses: 1 } }',
          '- { at: 3s, client-close: { client: c1 } }',
          '- { at: 4s, expect: { channel: K1, alive: false } }',
          '- { at: 4s, keepalive: { lease: L, as: K3 } }',
          '- { at: 5s, expect: { answer: K3, error: ErrKeepAliveHalted } }',
          '- { at: 5s, grant: { lease: M, ttl: 5, client: c1, as: G } }',
          '- { at: 6s, expect: { answer: G, error: ErrClientClosed } }',
        ),
      ),
    ).toEqual([true, true, true, true, true]));

  it('an unread channel holds only its buffer, and renewals go on at TTL/3', () =>
    expect(
      passes(
        withSteps(
          '- { at: 0s, grant: { lease: L, ttl: 3 } }',
          '- { at: 0s, keepalive: { lease: L, as: K, unread-buffer: 2 } }',
          '- { at: 0s, keepalive: { lease: L, client: c2, as: R } }',
          '- { at: 5s, expect: { channel: K, responses: 2 } }',
          '- { at: 5s, expect: { channel: R, responses: { min: 4 } } }',
          '- { at: 5s, expect: { lease: L, ttl: { min: 2 } } }',
        ),
      ),
    ).toEqual([true, true, true]));
});

describe("a grant with another label's ID (id-of): etcd's leaseExist probe", () => {
  it('answers ErrLeaseExist while the lease exists and grants the same ID once it is gone', () =>
    expect(
      verdicts(
        withSteps(
          '- { at: 0s, grant: { lease: L, ttl: 30, via: n2 } }',
          '- { at: 1s, grant: { lease: P1, ttl: 5, id-of: L, via: n3, as: E1 } }',
          '- { at: 2s, expect: { answer: E1, error: ErrLeaseExist } }',
          '- { at: 2s, expect: { answer: E1, lease: L } }',
          '- { at: 2s, revoke: { lease: L } }',
          '- { at: 3s, grant: { lease: P2, ttl: 5, id-of: L, as: E2 } }',
          '- { at: 4s, expect: { answer: E2, lease: L, ttl: 5 } }',
          '- { at: 4s, expect: { lease: P2, exists: true } }',
        ),
      ).map((v) => v.pass),
    ).toEqual([true, false, true, true]));

  it('refuses id beside id-of, at id-of, and an id-of naming no earlier grant', () => {
    const step = '- { at: 1s, grant: { lease: P, ttl: 5, id: 7, id-of: L } }';
    const both = onlyError(withSteps('- { at: 0s, grant: { lease: L, ttl: 5 } }', step));
    expect(both.message).toContain('give "id" (a raw ID) or "id-of" (an earlier label\'s lease), not both');
    expect([both.line, both.col]).toEqual([4, 2 + step.indexOf(' L }') + 2]);
    expect(onlyError(withSteps('- { at: 1s, grant: { lease: P, ttl: 5, id-of: Q } }')).line).toBe(3);
  });
});

describe('a put with a raw lease ID; create revision and version', () => {
  it('a put on a lease ID never granted fails with ErrLeaseNotFound', () =>
    expect(
      passes(
        withSteps(
          '- { at: 0s, put: { key: foo, value: bar, lease-id: 500, as: P } }',
          '- { at: 1s, expect: { answer: P, error: ErrLeaseNotFound } }',
          '- { at: 1s, expect: { key: foo, exists: false } }',
        ),
      ),
    ).toEqual([true, true]));

  it('create revision stays, version counts puts', () =>
    expect(
      passes(
        withSteps(
          '- { at: 0s, put: { key: a, value: "1" } }',
          '- { at: 0s, put: { key: b, value: "1" } }',
          '- { at: 1s, put: { key: a, value: "2" } }',
          '- { at: 2s, expect: { key: a, create-revision: 2 } }',
          '- { at: 2s, expect: { key: a, version: 2 } }',
          '- { at: 2s, expect: { key: b, version: 1, via: n2 } }',
          '- { at: 2s, expect: { key: a, version: { min: 3 } } }',
        ),
      ),
    ).toEqual([true, true, true, false]));

  it('refuses lease and lease-id together, at lease-id', () =>
    expect(
      onlyError(
        withSteps(
          '- { at: 0s, grant: { lease: L, ttl: 5 } }',
          '- { at: 0s, put: { key: a, value: b, lease: L, lease-id: 5 } }',
        ),
      ).message,
    ).toContain('give "lease" (a label) or "lease-id" (a raw ID), not both'));

  it('refuses a channel expect or cancel naming something other than a keep-alive call', () => {
    const grant = '- { at: 0s, grant: { lease: L, ttl: 5, as: G } }';
    expect(onlyError(withSteps(grant, '- { at: 1s, expect: { channel: G, alive: true } }')).message).toContain(
      '"G" names a grant (line 3), not a keepalive call',
    );
    expect(onlyError(withSteps(grant, '- { at: 1s, keepalive-cancel: { channel: G } }')).message).toContain(
      'not a keepalive call',
    );
  });
});

describe('snapshot-count', () => {
  it('snapshots every N applied entries, from a scenario', () => {
    const text = (n: number) =>
      lines(
        'name: t',
        `cluster: { members: 1, snapshot-count: ${n} }`,
        'steps:',
        ...Array.from({ length: 9 }, (_, i) => `  - { at: ${i * 100}ms, put: { key: k${i}, value: v } }`),
      );
    const snapshots = (n: number) =>
      runScenario(parsed(text(n))).trace.events.filter((e) => e.kind === 'server-snapshot' && e.t >= 0).length;
    expect(parsed(text(3)).cluster.snapshotCount).toBe(3);
    expect(snapshots(3)).toBeGreaterThanOrEqual(2);
    expect(snapshots(100_000)).toBe(0);
  });
});
