// Signals recorded from the trace: etcd's member metrics agree with the lessors' own counters, and each
// signal moves when (and only when) the simulated processes would move it.
import { describe, expect, it } from 'vitest';
import { seconds } from '../../src/clock/time.js';
import type { Cluster } from '../../src/cluster/cluster.js';
import type { Emitter } from '../../src/signals/emitter.js';
import { defaultEmitters, recordSignals } from '../../src/signals/recorder.js';
import { valueAt } from '../../src/signals/sample.js';
import { formatLeaseId } from '../../src/trace/trace.js';
import { replay, signalsOf, seriesValue } from './support.js';

describe('member metrics', () => {
  it('end with the values the lessors counted themselves, on every member', () => {
    for (const file of [
      'scenarios/seed-runbook.yaml',
      'scenarios/signals/leader-transfer-quiet.yaml',
      'scenarios/rate-limited-revocation.yaml',
    ]) {
      let cluster: Cluster | undefined;
      const r = replay(file, { onCluster: (c) => (cluster = c) });
      const s = signalsOf(r);
      for (const n of cluster!.names) {
        const own = cluster!.server(n)!.lessor.metrics.snapshot();
        for (const [name, v] of Object.entries(own)) {
          const m = /^(\w+)(?:\{le="(.+)"\})?$/.exec(name)!;
          const labels: Record<string, string> = m[2] === undefined ? { member: n } : { member: n, le: m[2] };
          expect(seriesValue(s, m[1]!, labels, r.scenario.durationUs), `${file} ${n} ${name}`).toBe(v);
        }
      }
    }
  });

  it('count one leader change per member at a planned transfer and never lose the leader on a scrape', () => {
    const s = signalsOf(replay('scenarios/signals/leader-transfer-quiet.yaml'));
    for (const member of ['n1', 'n2', 'n3']) {
      expect(seriesValue(s, 'etcd_server_leader_changes_seen_total', { member }, seconds(19))).toBe(1);
      expect(seriesValue(s, 'etcd_server_leader_changes_seen_total', { member }, seconds(30))).toBe(2);
      for (let t = 0; t <= seconds(60); t += seconds(1))
        expect(seriesValue(s, 'etcd_server_has_leader', { member }, t), `${member} at ${t}`).toBe(1);
    }
    expect(seriesValue(s, 'etcd_server_is_leader', { member: 'n1' }, seconds(19))).toBe(1);
    expect(seriesValue(s, 'etcd_server_is_leader', { member: 'n1' }, seconds(30))).toBe(0);
    expect(seriesValue(s, 'etcd_server_is_leader', { member: 'n2' }, seconds(30))).toBe(1);
  });

  it('go stale while a member is stopped, with up at 0, and come back with their old values', () => {
    const s = signalsOf(replay('scenarios/signals/frozen-leader-renewals.yaml'));
    expect(seriesValue(s, 'etcd_debugging_lease_renewed_total', { member: 'n1' }, seconds(9))).toBe(3);
    expect(seriesValue(s, 'etcd_debugging_lease_renewed_total', { member: 'n1' }, seconds(20))).toBeNull();
    expect(seriesValue(s, 'up', { job: 'etcd', instance: 'n1' }, seconds(20))).toBe(0);
    expect(seriesValue(s, 'up', { job: 'etcd', instance: 'n3' }, seconds(20))).toBe(1);
    expect(seriesValue(s, 'etcd_debugging_lease_renewed_total', { member: 'n1' }, seconds(31))).toBe(4);
    expect(seriesValue(s, 'etcd_debugging_lease_renewed_total', { member: 'n3' }, seconds(29))).toBeGreaterThan(3);
  });

  it('restart from 0 after a crash and restart, as a new process does', () => {
    const r = replay('scenarios/promote-demote-timeline.yaml');
    const s = signalsOf(r);
    const crash = r.trace.events.find((e) => e.kind === 'member-crash')!;
    const restart = r.trace.events.find((e) => e.kind === 'member-restart')!;
    const granted = (t: number) => seriesValue(s, 'etcd_debugging_lease_granted_total', { member: crash.member }, t);
    expect(granted(crash.t - 1)).toBeGreaterThan(0);
    expect(granted(crash.t)).toBeNull();
    expect(granted(restart.t)).toBe(0);
  });
});

describe('client counters', () => {
  it('count one renewal failure and one broken stream, no lost lease, for a client whose leader froze', () => {
    const s = signalsOf(replay('scenarios/signals/frozen-leader-renewals.yaml'));
    const c1 = { client: 'c1' };
    expect(seriesValue(s, 'etcd_lease_renewal_failures_total', c1, seconds(10))).toBe(0);
    expect(seriesValue(s, 'etcd_lease_renewal_failures_total', c1, seconds(40))).toBe(1);
    expect(
      seriesValue(s, 'etcd_lease_keepalive_stream_closed_total', { ...c1, reason: 'connection_error' }, seconds(40)),
    ).toBe(1);
    expect(
      seriesValue(s, 'etcd_lease_keepalive_stream_closed_total', { ...c1, reason: 'lease_expired' }, seconds(40)),
    ).toBe(0);
    expect(
      seriesValue(s, 'etcd_lease_keepalive_stream_closed_total', { ...c1, reason: 'context_cancelled' }, seconds(40)),
    ).toBe(0);
  });

  it('are not scraped while the client process is stopped, so its failure shows only when it wakes', () => {
    const s = signalsOf(replay('scenarios/signals/paused-client-renewals.yaml'));
    const c1 = { client: 'c1' };
    expect(seriesValue(s, 'etcd_lease_renewal_failures_total', c1, seconds(15))).toBeNull();
    expect(seriesValue(s, 'etcd_lease_renewal_failures_total', c1, seconds(23))).toBe(1);
  });
});

describe('log events and spans', () => {
  it('log granted, renewed, revoked and lost with the lease, key, revision and TTL', () => {
    const s = signalsOf(replay('scenarios/seed-runbook.yaml'));
    const first = s.store.logs.filter((l) => l.fields.lease_id === '19b76daa41801');
    expect(first.map((l) => l.event)).toEqual([
      'granted',
      'renewed',
      'renewed',
      'renewed',
      'renewed',
      'revoked',
      'lost',
    ]);
    const revoked = first.find((l) => l.event === 'revoked')!;
    expect(revoked.t).toBe(18_502_000);
    expect(revoked.fields).toMatchObject({ key: '/locks/payment-42', revision: 3, ttl_s: 9, member: 'n1' });
    expect(first.find((l) => l.event === 'lost')!.fields).toMatchObject({ client: 'c1', reason: 'deadline' });
    expect(first[2]!.fields).toMatchObject({ key: '/locks/payment-42', revision: 2 });
  });

  it('span each keep-alive channel, ending in error when the lease was lost', () => {
    const s = signalsOf(replay('scenarios/seed-runbook.yaml'));
    const [span] = s.store.spans.filter((x) => x.process === 'c1');
    expect(span).toMatchObject({
      name: 'lease.keepalive',
      startUs: 4_000,
      endUs: 22_000_000,
      attributes: { 'lease.id': '19b76daa41801', 'lease.ttl_s': 9 },
    });
    expect(span!.error).toMatch(/deadline/);
  });
});

describe('recording', () => {
  it('only reads the trace: a run gives the same trace hash whether or not its signals are recorded', () => {
    const a = replay('scenarios/signals/frozen-leader-renewals.yaml');
    const before = a.trace.hash();
    signalsOf(a);
    expect(a.trace.hash()).toBe(before);
    expect(replay('scenarios/signals/frozen-leader-renewals.yaml').trace.hash()).toBe(before);
  });

  it('answers undefined before a series exists', () => {
    const s = signalsOf(replay('scenarios/seed-runbook.yaml'));
    const c1 = s.store.series.find((x) => x.name === 'etcd_lease_renewal_failures_total' && x.labels.client === 'c1')!;
    expect(valueAt(c1, 0)).toBeUndefined();
    expect(valueAt(c1, seconds(1))).toBe(0);
  });
});

describe('emitters', () => {
  it('can be added: a gauge fed by TimeToLive answers, per lease', () => {
    const ttlGauge: Emitter = {
      families: [{ name: 'ttl_by_lease_seconds', type: 'gauge', help: 'TTL left, by TimeToLive.', labels: ['lease'] }],
      onEvent(e, store) {
        if (e.kind === 'ctl-ok' && e.fields?.op === 'timetolive' && e.lease !== undefined) {
          store.gauge('ttl_by_lease_seconds', { lease: formatLeaseId(e.lease) }, e.t, Number(e.fields.ttl));
        }
      },
    };
    const r = replay('scenarios/timetolive-keys.yaml');
    const s = recordSignals(r.trace.events, r.scenario.durationUs, [...defaultEmitters(), ttlGauge]);
    expect(seriesValue(s, 'ttl_by_lease_seconds', { lease: '19b76daa41801' }, seconds(2))).toBe(19);
    expect(seriesValue(s, 'ttl_by_lease_seconds', { lease: '19b76daa41801' }, seconds(4))).toBe(17);
    expect(() => recordSignals([], 0, [...defaultEmitters(), ...defaultEmitters()])).toThrow(
      /two emitters declare the family up/,
    );
  });
});

describe('holder signals', () => {
  const stuck = signalsOf(replay('scenarios/signals/stuck-heartbeat-ttl.yaml'));
  const paused = signalsOf(replay('scenarios/signals/paused-holder-renewals.yaml'));

  it("read the holder's TimeToLive answers into lease_ttl_remaining_seconds, gone once it gives the lock up", () => {
    const a = { holder: 'a' };
    // Healthy: renewed every TTL/3, so the whole-second answers cycle 8, 7, 6.
    expect([2, 3, 4].map((t) => seriesValue(stuck, 'lease_ttl_remaining_seconds', a, seconds(t)))).toEqual([8, 7, 6]);
    // Stuck behind the frozen leader: the new leader's fresh TTL runs down with no renewal.
    expect([12, 14, 16].map((t) => seriesValue(stuck, 'lease_ttl_remaining_seconds', a, seconds(t)))).toEqual([
      9, 7, 5,
    ]);
    expect(seriesValue(paused, 'lease_ttl_remaining_seconds', a, seconds(10))).toBeNull();
    expect(seriesValue(paused, 'lease_ttl_remaining_seconds', a, seconds(30))).toBeNull();
    expect(seriesValue(paused, 'lease_ttl_remaining_seconds', { holder: 'b' }, seconds(30))).toBeGreaterThan(5);
  });

  it('emit nothing for a holder without ttl-check-interval', () => {
    const s = signalsOf(replay('scenarios/holders/fault4-paused-client.runbook.yaml'));
    expect(s.store.series.filter((x) => x.name === 'lease_ttl_remaining_seconds')).toEqual([]);
  });

  it("count the holder's client's renewal failures again under its name, stale while it is paused", () => {
    const key = { client: 'c1', holder: 'a' };
    expect(seriesValue(paused, 'etcd_lease_renewal_failures_total', key, seconds(4))).toBe(0);
    expect(seriesValue(paused, 'etcd_lease_renewal_failures_total', key, seconds(10))).toBeNull();
    expect(seriesValue(paused, 'etcd_lease_renewal_failures_total', key, seconds(18))).toBe(1);
    expect(seriesValue(paused, 'etcd_lease_renewal_failures_total', { client: 'c1' }, seconds(18))).toBe(1);
  });

  it('span the critical section as lease.heartbeat with the lease, its TTL and the fencing token', () => {
    const [span] = paused.store.spans.filter((x) => x.name === 'lease.heartbeat' && x.process === 'a');
    expect(span).toMatchObject({
      startUs: expect.any(Number),
      endUs: 17_000_000,
      attributes: { 'lease.id': '19b76daa41801', 'lease.ttl_s': 9, 'lease.fencing_revision': 2 },
    });
    expect(span!.error).toMatch(/keepalive-closed:deadline/);
    const b = paused.store.spans.find((x) => x.name === 'lease.heartbeat' && x.process === 'b')!;
    expect(b.attributes['lease.fencing_revision']).toBeGreaterThan(2);
    expect(b.error).toBeUndefined();
  });
});
