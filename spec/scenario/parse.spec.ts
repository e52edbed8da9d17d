import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/parse.js';
import type { ScenarioCluster, Step } from '../../src/scenario/types.js';
import { FILE, lines, parsed, withSteps } from './support.js';

/** The top-level example of docs scenario-format.md, verbatim. */
const FORMAT_DOC_EXAMPLE = `name: leader-change-resets-ttl        # required, unique in a library
description: |                        # free text, shown by \`explain\`
  Without checkpointing a leader change gives every lease its full TTL again, plus the election timeout.
profile: v3.5                         # etcd behaviour profile: v3.4 (3.4.23) or v3.5 (3.5.33); default v3.5
seed: 7                               # PRNG seed; default 1. The CLI's --seed overrides it.
cluster:
  members: 3                          # members are named n1..nN; n1 is the first leader; default 3
  heartbeat: 100ms                    # --heartbeat-interval; default 100ms
  election-timeout: 1000ms            # --election-timeout; default 1000ms
  lease-checkpoint: false             # --experimental-enable-lease-checkpoint; default false
  lease-checkpoint-persist: false     # --experimental-enable-lease-checkpoint-persist; default false
  checkpoint-interval: 5m             # LessorConfig.CheckpointInterval; default 5m
  revoke-rate: 1000                   # leases per second; default 1000
  latency: 1ms                        # one-way peer and client network delay; default 1ms
bugs: []                              # names of historical etcd bugs to switch on; default none
steps: []                             # required; see below
`;

/** The documented defaults, in the model's units. */
const DEFAULT_CLUSTER: ScenarioCluster = {
  members: 3,
  heartbeatUs: 100_000,
  electionTimeoutUs: 1_000_000,
  leaseCheckpoint: false,
  leaseCheckpointPersist: false,
  checkpointIntervalUs: 300_000_000,
  revokeRatePerSecond: 1000,
  latencyUs: 1_000,
  fsyncUs: 0,
  jitterUs: 0,
  lossProbability: 0,
  preVote: false,
  snapshotCount: 100_000,
  initialElectionTickAdvance: true,
  resumeOrder: 'seeded',
};

const at = (line: number, col: number) => ({ file: FILE, line, col });
const stepsOf = (...steps: string[]): readonly Step[] => parsed(withSteps(...steps)).steps;
/** The single step after a `grant` of lease L at 0s (so label uses are valid). */
const afterGrant = (step: string): Step => stepsOf('- {at: 0s, grant: {lease: L, ttl: 10}}', step)[1] as Step;

describe('the format doc', () => {
  it('parses the top-level example with its values', () => {
    const s = parsed(FORMAT_DOC_EXAMPLE);
    expect(s).toEqual({
      file: FILE,
      name: 'leader-change-resets-ttl',
      description:
        'Without checkpointing a leader change gives every lease its full TTL again, plus the election timeout.\n',
      tags: [],
      profile: 'v3.5',
      seed: 7,
      cluster: DEFAULT_CLUSTER,
      bugs: [],
      steps: [],
      durationUs: 1_000_000,
    });
  });

  it('fills in every default for a minimal file', () => {
    const s = parsed(lines('name: minimal', 'steps: []'));
    expect(s.profile).toBe('v3.5');
    expect(s.seed).toBe(1);
    expect(s.bugs).toEqual([]);
    expect(s.cluster).toEqual(DEFAULT_CLUSTER);
    expect(s.cluster.clusterVersion).toBeUndefined();
    expect(s.cluster.expiredLeaseRetryUs).toBeUndefined();
    expect(s.description).toBeUndefined();
  });

  it('parses every core step with its fields and defaults', () => {
    const s = stepsOf(
      '- at: 0s',
      '  grant: {lease: L, ttl: 10, id: 0x1f, via: n2}',
      '- at: 1s',
      '  put: {key: /a, value: hello, lease: L, via: n3}',
      '- at: 1s',
      '  delete: {key: /a}',
      '- at: 2s',
      '  keepalive: {lease: L}',
      '- at: 3s',
      '  keepalive-stop: {lease: L, client: c2}',
      '- at: 4s',
      '  keepalive-once: {lease: L, via: n1}',
      '- at: 5s',
      '  pause: {member: n1, for: 2s}',
      '- at: 5s',
      '  pause: {client: c1}',
      '- at: 6s',
      '  resume: {client: c1}',
      '- at: 7s',
      '  crash: {member: n2}',
      '- at: 8s',
      '  restart: {member: n2}',
      '- at: 9s',
      '  transfer-leader: {to: n3}',
      '- at: 10s',
      '  partition: {groups: [[n1], [n2, n3]]}',
      '- at: 11s',
      '  heal:',
      '- at: 12s',
      '  clock: {member: n3, jump: -30s}',
      '- at: 13s',
      '  revoke: {lease: L}',
    );
    expect(s.map((x) => x.kind)).toEqual([
      'grant',
      'put',
      'delete',
      'keepalive',
      'keepalive-stop',
      'keepalive-once',
      'pause',
      'pause',
      'resume',
      'crash',
      'restart',
      'transfer-leader',
      'partition',
      'heal',
      'clock',
      'revoke',
    ]);
    expect(s[0]).toEqual({ kind: 'grant', atUs: 0, pos: at(3, 5), lease: 'L', ttlSeconds: 10, id: 31n, via: 'n2' });
    expect(s[1]).toMatchObject({ kind: 'put', atUs: 1_000_000, key: '/a', value: 'hello', lease: 'L', via: 'n3' });
    expect(s[2]).toEqual({ kind: 'delete', atUs: 1_000_000, pos: at(7, 5), key: '/a' });
    expect(s[3]).toMatchObject({ kind: 'keepalive', lease: 'L', client: 'c1' });
    expect(s[3]).not.toHaveProperty('via');
    expect(s[4]).toMatchObject({ kind: 'keepalive-stop', lease: 'L', client: 'c2' });
    expect(s[5]).toMatchObject({ kind: 'keepalive-once', lease: 'L', via: 'n1' });
    expect(s[6]).toMatchObject({ kind: 'pause', member: 'n1', forUs: 2_000_000 });
    expect(s[7]).toEqual({ kind: 'pause', atUs: 5_000_000, pos: at(17, 5), client: 'c1' });
    expect(s[8]).toMatchObject({ kind: 'resume', client: 'c1' });
    expect(s[9]).toMatchObject({ kind: 'crash', member: 'n2' });
    expect(s[10]).toMatchObject({ kind: 'restart', member: 'n2' });
    expect(s[11]).toMatchObject({ kind: 'transfer-leader', to: 'n3' });
    expect(s[12]).toMatchObject({ kind: 'partition', groups: [['n1'], ['n2', 'n3']] });
    expect(s[13]).toEqual({ kind: 'heal', atUs: 11_000_000, pos: at(29, 5) });
    expect(s[14]).toMatchObject({ kind: 'clock', member: 'n3', jumpUs: -30_000_000 });
    expect(s[15]).toMatchObject({ kind: 'revoke', lease: 'L' });
  });

  it('parses every core assertion form', () => {
    const assertion = (form: string) => {
      const step = afterGrant(`- {at: 1s, expect: ${form}}`);
      if (step.kind !== 'expect') throw new Error(step.kind);
      return step.assertion;
    };
    expect(assertion('{key: k, exists: true}')).toEqual({ form: 'key-exists', pos: at(4, 22), key: 'k', exists: true });
    expect(assertion('{key: k, exists: false, via: n2}')).toMatchObject({
      form: 'key-exists',
      exists: false,
      via: 'n2',
    });
    expect(assertion('{key: k, value: v}')).toMatchObject({ form: 'key-value', key: 'k', value: 'v' });
    expect(assertion('{lease: L, exists: false}')).toMatchObject({ form: 'lease-exists', lease: 'L', exists: false });
    expect(assertion('{lease: L, ttl: {min: 8, max: 10}}')).toMatchObject({
      form: 'lease-ttl',
      ttlSeconds: { min: 8, max: 10 },
    });
    expect(assertion('{leader: n2}')).toMatchObject({ form: 'leader', member: 'n2' });
    expect(assertion('{keepalive: L, client: c1, alive: true}')).toMatchObject({
      form: 'keepalive-alive',
      lease: 'L',
      client: 'c1',
      alive: true,
    });
    expect(assertion('{keepalive: L, alive: false}')).toMatchObject({ client: 'c1', alive: false });
  });

  it('takes fields beside the action key as well as inside it', () => {
    const s = stepsOf(
      '- at: 0s',
      '  grant:',
      '  lease: L',
      '  ttl: 10',
      '- grant: {lease: M, at: 1s}',
      '  ttl: 5',
      '  via: n2',
      '- at: 2s',
      '  expect: {key: k, exists: true}',
      '  via: n3',
    );
    expect(s[0]).toMatchObject({ kind: 'grant', lease: 'L', ttlSeconds: 10, atUs: 0 });
    expect(s[1]).toMatchObject({ kind: 'grant', lease: 'M', ttlSeconds: 5, via: 'n2', atUs: 1_000_000 });
    expect(s[2]).toMatchObject({ kind: 'expect', assertion: { form: 'key-exists', via: 'n3' } });
  });

  it('runs until 1s after the last action unless told', () => {
    expect(parsed(withSteps('- {at: 0s, pause: {member: n1, for: 5s}}')).durationUs).toBe(6_000_000);
    expect(parsed(withSteps('- {at: 2s, grant-many: {prefix: P, count: 3, ttl: 5, spread: 1s}}')).durationUs).toBe(
      4_000_000,
    );
    expect(parsed(lines('name: t', 'duration: 1m', 'steps:', '  - {at: 59s, heal: }')).durationUs).toBe(60_000_000);
  });
});

describe('extensions', () => {
  it('parses the cluster extensions', () => {
    const s = parsed(
      lines(
        'name: t',
        'cluster: {members: 5, fsync: 2ms, jitter: 500us, loss: 0.1, ' +
          'cluster-version: 3.6.0, pre-vote: true, expired-lease-retry: 3s}',
        'author: someone',
        'tags: [teaching, a1]',
        'steps: []',
      ),
    );
    expect(s.cluster).toMatchObject({
      members: 5,
      fsyncUs: 2_000,
      jitterUs: 500,
      lossProbability: 0.1,
      clusterVersion: '3.6.0',
      preVote: true,
      expiredLeaseRetryUs: 3_000_000,
    });
    expect(s.author).toBe('someone');
    expect(s.tags).toEqual(['teaching', 'a1']);
  });

  it('parses the extension steps and their labels', () => {
    const s = stepsOf(
      '- {at: 0s, grant-many: {prefix: P, count: 1000, ttl: 5}}',
      '- {at: 1s, keepalive-once: {lease: P1000}}',
      '- {at: 1s, timetolive: {lease: P1, keys: true}}',
      '- {at: 1s, timetolive: {lease: P2}}',
      '- {at: 1s, leases: {via: n2}}',
      '- {at: 2s, lock: {name: /locks/payment, client: c1}}',
      '- {at: 2s, lock: {name: /locks/payment, client: c2, ttl: 5}}',
      '- {at: 3s, fenced-write: {client: c1, resource: db, lock: /locks/payment}}',
      '- {at: 4s, unlock: {name: /locks/payment, client: c1}}',
    );
    expect(s[0]).toMatchObject({ kind: 'grant-many', prefix: 'P', count: 1000, ttlSeconds: 5, spreadUs: 0 });
    expect(s[2]).toMatchObject({ kind: 'timetolive', lease: 'P1', keys: true });
    expect(s[3]).toMatchObject({ kind: 'timetolive', keys: false });
    expect(s[4]).toMatchObject({ kind: 'leases', via: 'n2' });
    expect(s[5]).toMatchObject({ kind: 'lock', name: '/locks/payment', client: 'c1' });
    expect(s[5]).not.toHaveProperty('sessionTtlSeconds'); // NewSession's own default, 60 s, applies
    expect(s[6]).toMatchObject({ sessionTtlSeconds: 5 });
    expect(s[7]).toMatchObject({ kind: 'fenced-write', client: 'c1', resource: 'db', lock: '/locks/payment' });
    expect(s[8]).toMatchObject({ kind: 'unlock', name: '/locks/payment', client: 'c1' });
  });

  it('parses the extension assertions', () => {
    const s = stepsOf(
      '- {at: 0s, grant: {lease: L, ttl: 10}}',
      '- {at: 0s, lock: {name: /l, client: c1}}',
      '- {at: 0s, fenced-write: {client: c1, resource: db, lock: /l}}',
      '- {at: 1s, expect: {key: k, revision: {min: 2}}}',
      '- {at: 1s, expect: {lease: L, keys: [a, b]}}',
      '- {at: 1s, expect: {lock: /l, client: c1, held: true}}',
      '- {at: 1s, expect: {resource: db, accepted: 1}}',
      '- {at: 1s, expect: {resource: db, rejected: 0}}',
      '- {at: 1s, expect: {revision: {min: 1, max: 9}, via: n2}}',
      '- {at: 1s, expect: {leases: {count: 1}}}',
    );
    const forms = s.flatMap((x) => (x.kind === 'expect' ? [x.assertion] : []));
    expect(forms).toMatchObject([
      { form: 'key-revision', key: 'k', revision: { min: 2 } },
      { form: 'lease-keys', lease: 'L', keys: ['a', 'b'] },
      { form: 'lock-held', lock: '/l', client: 'c1', held: true },
      { form: 'resource-accepted', resource: 'db', accepted: 1 },
      { form: 'resource-rejected', resource: 'db', rejected: 0 },
      { form: 'revision', revision: { min: 1, max: 9 }, via: 'n2' },
      { form: 'leases-count', count: 1 },
    ]);
  });

  it('reads lease IDs as int64', () => {
    const id = (text: string) =>
      (afterGrant(`- {at: 0s, grant: {lease: M, ttl: 1, id: ${text}}}`) as { id?: bigint }).id;
    expect(id('9223372036854775807')).toBe(9223372036854775807n);
    expect(id('-9223372036854775808')).toBe(-9223372036854775808n);
    expect(id('"0x7fffffffffffffff"')).toBe(0x7fffffffffffffffn);
    expect(id('"-0x10"')).toBe(-16n);
    expect(id('"42"')).toBe(42n);
  });

  it('reads keys and values as written', () => {
    expect(afterGrant('- {at: 0s, put: {key: 042, value: 1.50}}')).toMatchObject({ key: '042', value: '1.50' });
    expect(afterGrant('- {at: 0s, put: {key: k, value: ""}}')).toMatchObject({ value: '' });
  });
});

describe('JSON input', () => {
  it('parses the same model as YAML', () => {
    const json = JSON.stringify({
      name: 'json',
      seed: 3,
      cluster: { members: 1, 'lease-checkpoint': true },
      steps: [
        { at: '0s', grant: { lease: 'L', ttl: 5, id: 7 } },
        { at: '500ms', expect: { lease: 'L', ttl: { min: 4, max: 5 } } },
      ],
    });
    const r = parseScenario(json, 'x.json');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.scenario.cluster).toMatchObject({ members: 1, leaseCheckpoint: true });
    expect(r.scenario.steps[0]).toEqual({
      kind: 'grant',
      atUs: 0,
      pos: { file: 'x.json', line: 1, col: 82 },
      lease: 'L',
      ttlSeconds: 5,
      id: 7n,
    });
    expect(r.scenario.steps[1]).toMatchObject({
      kind: 'expect',
      atUs: 500_000,
      assertion: { form: 'lease-ttl', ttlSeconds: { min: 4, max: 5 } },
    });
  });

  it('positions errors in multi-line JSON', () => {
    const r = parseScenario(
      '{\n  "name": "j",\n  "steps": [\n    {"at": "1s", "crash": {"member": "n9"}}\n  ]\n}\n',
      'x.json',
    );
    expect(r).toEqual({
      ok: false,
      errors: [{ file: 'x.json', line: 4, col: 38, message: 'unknown member "n9"; this cluster has members n1..n3' }],
    });
  });
});
