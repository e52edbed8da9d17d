// Go gives no order between a thawed process's due ticker and its readable sockets, so the model draws it
// per resume from the seed (cluster.resume-order). scenarios/differential/resumed-leader-renewed-lease.yaml:
// a leader frozen past its lease's TTL while a follower's client renews it. Timers first: the old leader
// proposes the revoke in its old term and it is truncated (etcd on a quiet host). Input first: it steps
// down before the proposal reaches raft and forwards it to the new leader, which commits it (etcd under load).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/parse.js';
import { runScenario } from '../../src/scenario/replay/runner.js';
import type { Scenario } from '../../src/scenario/types.js';

const FILE = resolve(__dirname, '../../scenarios/differential/resumed-leader-renewed-lease.yaml');
const p = parseScenario(readFileSync(FILE, 'utf8'), FILE);
if (!p.ok) throw new Error('resumed-leader-renewed-lease.yaml does not parse');
const base = p.scenario;

function outcome(s: Scenario, seed?: number) {
  const r = runScenario(s, seed === undefined ? {} : { seed });
  const resume = r.trace.events.find((e) => e.kind === 'member-resume');
  const revoked = r.trace.events.some((e) => e.kind === 'lease-revoke');
  return { order: (resume?.fields as { order: string } | undefined)?.order, revoked };
}

const forced = (resumeOrder: 'timers-first' | 'input-first'): Scenario => ({
  ...base,
  cluster: { ...base.cluster, resumeOrder },
});

describe('the resume order', () => {
  it('timers-first: the stale revoke is truncated and the lease survives', () => {
    expect(outcome(forced('timers-first'))).toEqual({ order: 'timers-first', revoked: false });
  });

  it('input-first: the stale revoke is forwarded to the new leader and commits', () => {
    expect(outcome(forced('input-first'))).toEqual({ order: 'input-first', revoked: true });
  });

  it('seeded (the default): both branches are reached, each seed always the same one', () => {
    const seen = new Map<string, number>();
    for (let seed = 1; seed <= 20; seed++) {
      const o = outcome(base, seed);
      expect(outcome(base, seed)).toEqual(o);
      expect(o.revoked).toBe(o.order === 'input-first');
      seen.set(String(o.order), (seen.get(String(o.order)) ?? 0) + 1);
    }
    expect([...seen.keys()].sort()).toEqual(['input-first', 'timers-first']);
  });
});
