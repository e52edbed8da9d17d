// The picture as a pure function of the instant: a storm of leases drawn as a grid of bars (one path per
// bucket) whose buckets follow the run, and many clients fitting their column.
import { describe, expect, it } from 'vitest';
import { FaultBook } from '../../src/playground/faults.js';
import { pictureLayers, type PictureLayers } from '../../src/playground/picture.js';
import { Session } from '../../src/playground/session.js';

const YAML = [
  'name: picture-grid',
  'duration: 20s',
  'steps:',
  '  - { at: 0s, grant-many: { prefix: K, count: 10, ttl: 10 } }',
  ...[1, 2, 3, 4, 5].map((i) => `  - { at: 1s, keepalive: { lease: K${i}, client: c${i} } }`),
  '',
].join('\n');

/** Twelve leases, each kept alive by a client of its own: with the etcdctl that granted them, 13 boxes. */
const CROWD = [
  'name: picture-crowd',
  'duration: 5s',
  'steps:',
  '  - { at: 0s, grant-many: { prefix: K, count: 12, ttl: 10 } }',
  ...Array.from({ length: 12 }, (_, i) => `  - { at: 1s, keepalive: { lease: K${i + 1}, client: c${i + 1} } }`),
  '',
].join('\n');

function at(t: number, yaml = YAML): PictureLayers {
  const o = Session.open(yaml, 'picture.yaml');
  if (!o.ok) throw new Error(o.messages.join('\n'));
  const s = o.session;
  s.seek(t);
  const snap = s.snapshot()!;
  return pictureLayers({
    snap,
    wire: s.wire,
    faults: new FaultBook(s.fullResult().trace.events),
    lingerUs: 150_000,
    thinHeartbeats: false,
    tickUs: s.scenario.cluster.heartbeatUs,
    leaseFills: s.leaseFills(snap),
  });
}

const bars = (svg: string): Record<string, number> =>
  Object.fromEntries([...svg.matchAll(/data-bucket="(\w+)" data-bars="(\d+)"/g)].map((m) => [m[1], Number(m[2])]));

describe('the picture’s leases', () => {
  it('draws more leases than rings as a grid of bars: kept alive full, the others draining, then gone', () => {
    // At 8 s the five leases nobody renews have 2 s of 10 left; the five kept alive were renewed lately.
    const early = at(8_000_000);
    expect(early.leases).toContain('data-count="10" data-shown="10"');
    expect(bars(early.leases)).toEqual({ full: 5, low: 5, expired: 0, frozen: 0 });
    // Past 10 s and the next run-loop pass they are revoked: five leases are five rings, no grid.
    const late = at(12_000_000);
    expect(late.leases).not.toContain('lease-grid');
    expect(late.leases.match(/class="lease-ring"/g)).toHaveLength(5);
  });

  it('fits many clients in their column without overlap', () => {
    const tops = [
      ...at(2_000_000, CROWD).nodes.matchAll(
        /class="node client[^"]*"[^>]*><rect x="[^"]+" y="([\d.]+)"[^>]* height="(\d+)"/g,
      ),
    ]
      .map((m) => [Number(m[1]), Number(m[2])] as const)
      .sort((a, b) => a[0] - b[0]);
    expect(tops).toHaveLength(13);
    for (let i = 1; i < tops.length; i++) expect(tops[i]![0]).toBeGreaterThanOrEqual(tops[i - 1]![0] + tops[i - 1]![1]);
  });
});
