// The scenario text the learner's clicks edit: steps land in time order after their instant's steps,
// settings land where the parser reads them, labels never collide, and the share code round-trips.
import { describe, expect, it } from 'vitest';
import { stepOf } from '../../src/playground/actions.js';
import { freshLabel, insertStep, setSetting } from '../../src/playground/edit.js';
import { decodeShare, encodeShare } from '../../src/playground/share.js';
import { parseScenario } from '../../src/scenario/parse.js';
import type { Scenario } from '../../src/scenario/types.js';

const TEXT = `name: t
# a comment the edit keeps
steps:
  - at: 0s
    grant: { lease: P1, ttl: 10 }
  - { at: 2s, keepalive: { lease: P1 } }
  - { at: 5s, expect: { lease: P1, exists: true } }
`;
const parse = (text: string): Scenario => {
  const p = parseScenario(text, 't.yaml');
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return p.scenario;
};

describe('insertStep', () => {
  it('puts the step after every step at or before its time, keeping comments, and the result parses', () => {
    const s = parse(TEXT);
    const out = insertStep(TEXT, s, 2_000_000, stepOf({ kind: 'crash', member: 'n1' }, 2_000_000));
    expect(out).toContain('# a comment the edit keeps');
    expect(parse(out).steps.map((x) => `${x.atUs}:${x.kind}`)).toEqual([
      '0:grant',
      '2000000:keepalive',
      '2000000:crash',
      '5000000:expect',
    ]);
    const later = insertStep(
      out,
      parse(out),
      3_500_000,
      stepOf({ kind: 'isolate', member: 'n2', members: ['n1', 'n2', 'n3'] }, 3_500_000),
    );
    expect(later).toContain('{ at: 3.5s, partition: { groups: [ [ n2 ], [ n1, n3 ] ] } }');
    expect(parse(later).steps[3]).toMatchObject({ kind: 'partition', atUs: 3_500_000 });
  });

  it('writes every kind of clicked action as a step the parser accepts', () => {
    const actions = [
      stepOf({ kind: 'pause', member: 'n2' }, 1_000),
      stepOf({ kind: 'heal' }, 1_000),
      stepOf({ kind: 'transfer-leader', to: 'n3' }, 1_000),
      stepOf({ kind: 'pause-client', client: 'c1', forUs: 12_000_000 }, 1_000),
      stepOf({ kind: 'grant', lease: 'P2', ttl: 7 }, 1_000),
      stepOf({ kind: 'put', key: '/k', value: 'v', lease: 'P2' }, 1_000),
      stepOf({ kind: 'keepalive-stop', lease: 'P1', client: 'c1' }, 1_000),
      stepOf({ kind: 'revoke', lease: 'P2' }, 1_000),
    ];
    let text = TEXT;
    for (const a of actions) text = insertStep(text, parse(text), 1_000, a);
    expect(parse(text).steps.map((x) => x.kind)).toEqual([
      'grant',
      'pause',
      'heal',
      'transfer-leader',
      'pause',
      'grant',
      'put',
      'keepalive-stop',
      'revoke',
      'keepalive',
      'expect',
    ]);
  });
});

describe('setSetting and freshLabel', () => {
  it('sets top-level and cluster fields the parser reads', () => {
    let text = setSetting(TEXT, ['profile'], 'v3.4');
    text = setSetting(text, ['cluster', 'lease-checkpoint'], true);
    text = setSetting(text, ['cluster', 'election-timeout'], '2000ms');
    const s = parse(text);
    expect(s.profile).toBe('v3.4');
    expect(s.cluster.leaseCheckpoint).toBe(true);
    expect(s.cluster.electionTimeoutUs).toBe(2_000_000);
  });

  it('picks a lease label the scenario does not use', () => {
    expect(freshLabel(parse(TEXT))).toBe('P2');
  });
});

describe('share codes', () => {
  it('round-trip any text, non-ASCII included, and refuse garbage', () => {
    const text = `${TEXT}# ünïcødé — 🔒\n`;
    const code = encodeShare(text);
    expect(code).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeShare(code)).toBe(text);
    expect(decodeShare('%%%')).toBeUndefined();
  });
});
