// --initial-election-tick-advance (etcdserver adjustTicks): a restarted member fast-forwards its election
// clock, by electionTicks − 2 once more than one peer is active, by electionTicks − 1 when it is alone.
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../../src/scenario/parse.js';
import { runScenario } from '../../../src/scenario/replay/runner.js';

function firstLeaderAfterRestart(members: number, advance: boolean) {
  const crashes = Array.from({ length: members }, (_, i) => `  - { at: 1s, crash: { member: n${i + 1} } }`);
  const restarts = Array.from({ length: members }, (_, i) => `  - { at: 2s, restart: { member: n${i + 1} } }`);
  const yaml = `name: t
profile: v3.4
cluster: { members: ${members}, initial-election-tick-advance: ${advance} }
duration: 6s
steps:
${crashes.join('\n')}
${restarts.join('\n')}
`;
  const p = parseScenario(yaml, 't.yaml');
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  const events = runScenario(p.scenario).trace.events.filter((e) => e.t >= 2_000_000);
  const leader = events.find((e) => e.kind === 'raft-role' && (e.fields as { role: string }).role === 'leader');
  const advanced = events.filter((e) => e.kind === 'server-tick-advance').map((e) => e.fields);
  return { leaderAfterUs: leader === undefined ? undefined : leader.t - 2_000_000, advanced };
}

describe('initial election tick advance', () => {
  it('three members restarted together: 8 of 10 ticks fast-forwarded, a leader within 1.2 s', () => {
    const on = firstLeaderAfterRestart(3, true);
    expect(on.advanced).toEqual([
      { ticks: 8, peers: 2 },
      { ticks: 8, peers: 2 },
      { ticks: 8, peers: 2 },
    ]);
    expect(on.leaderAfterUs).toBeLessThan(1_200_000);
    const off = firstLeaderAfterRestart(3, false);
    expect(off.advanced).toEqual([]);
    expect(off.leaderAfterUs).toBeGreaterThanOrEqual(1_000_000);
  });

  it('a single member always fast-forwards 9 ticks, whatever the flag', () => {
    for (const advance of [true, false]) {
      const r = firstLeaderAfterRestart(1, advance);
      expect(r.advanced).toEqual([{ ticks: 9, peers: 0 }]);
      expect(r.leaderAfterUs).toBeLessThan(1_100_000);
    }
  });
});
