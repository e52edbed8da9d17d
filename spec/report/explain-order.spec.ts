// explain's chain of a lease reads in time order, and says which member renewed: a stuck old leader
// renewing after a new one was elected is named as such (c4-stuck-leader-renews, etcd-io/etcd#15247).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explain } from '../../src/report/explain.js';
import { parseScenario } from '../../src/scenario/parse.js';
import { runScenario } from '../../src/scenario/replay/runner.js';

const ROOT = resolve(__dirname, '../..');
const chainOf = (file: string): string => {
  const p = parseScenario(readFileSync(join(ROOT, file), 'utf8'), file);
  if (!p.ok) throw new Error(`${file} does not parse`);
  return explain(runScenario(p.scenario))[0]!;
};
/** The times of a chain's links, in the order it prints them (a link's first time is when it happened). */
const linkTimes = (chain: string): number[] =>
  chain
    .split(' → ')
    .map((l) => /(?:at|from) (\d+\.\d+) s/.exec(l))
    .filter((m) => m !== null)
    .map((m) => Number(m[1]));

describe('explain', () => {
  it('prints the stuck leader story in time order, naming the member that renewed', () => {
    const chain = chainOf('scenarios/bugs/c4-stuck-leader-renews.buggy.yaml');
    expect(chain.split(' → ').slice(0, 5)).toEqual([
      'L (19b76daa41801): granted at 0.003 s with TTL 20 s (expiry 20.003 s)',
      'renewed on n1 at 0.005 s (expiry 20.005 s)',
      'n2 became leader at 6.502 s (term 2)',
      'Promote on n2 at 6.504 s set expiry to 27.504 s (remaining TTL 20 s + election timeout 1 s)',
      'renewed 3 times on n1 (while n2 was leader) from 7.014800 s to 21.034400 s (last expiry 41.034 s)',
    ]);
    expect(chain).toMatch(
      /revoked at 28\.002 s after expiry, deleting \/svc\/a → renewed on n1 \(while n2 was leader\)/,
    );
  });

  it.each([
    'scenarios/bugs/c4-stuck-leader-renews.buggy.yaml',
    'scenarios/bugs/c4-stuck-leader-revokes.buggy.yaml',
    'scenarios/seed-runbook.yaml',
    'scenarios/promote-demote-timeline.yaml',
  ])('keeps every chain of %s in time order', (file) => {
    const times = linkTimes(chainOf(file));
    expect(times.length).toBeGreaterThan(2);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});
