import { describe, expect, it } from 'vitest';
import { formatError } from '../../src/scenario/parse.js';
import { errorsOf, FILE, lines, onlyError, withSteps } from './support.js';

const GRANT_L = '- {at: 0s, grant: {lease: L, ttl: 10}}';

/**
 * Asserts the file's only error is on `line`, at the column where `at` starts on that line (`at` must
 * occur there once), and that its message contains every fragment.
 */
function expectError(text: string, line: number, at: string, ...fragments: string[]) {
  const source = text.split('\n')[line - 1] ?? '';
  const col = source.indexOf(at) + 1;
  expect(col > 0 && source.indexOf(at, col) === -1, `"${at}" occurs once on line ${line}: ${source}`).toBe(true);
  const e = onlyError(text);
  expect({ line: e.line, col: e.col }, formatError(e)).toEqual({ line, col });
  for (const f of fragments) expect(e.message).toContain(f);
}

describe('error format', () => {
  it('prints file:line:col: message', () => {
    const e = onlyError(withSteps('- at: 1s', '  grant: {lease: L, tll: 10, ttl: 1}'));
    expect(formatError(e)).toBe(
      `${FILE}:4:23: unknown key "tll" in grant step; ` +
        'expected one of: lease, ttl, id, id-of, via, as, client, at (did you mean "ttl"?)',
    );
  });

  it('collects every error in a file, in file order', () => {
    const errors = errorsOf(
      lines(
        'name: t',
        'profile: v9',
        'cluster: {members: 0}',
        'steps:',
        '  - {at: 1, heal: }',
        '  - {at: 2s, crash: {member: n9}}',
      ),
    );
    expect(errors.map((e) => [e.line, e.col])).toEqual([
      [2, 10],
      [3, 20],
      [5, 10],
      [6, 30],
    ]);
  });
});

describe('structure', () => {
  it('empty file', () =>
    expect(onlyError('# nothing')).toMatchObject({
      line: 1,
      col: 1,
      message: expect.stringContaining('the file is empty'),
    }));
  it('not a map', () => expectError('- a\n', 1, '-', 'expected a scenario', 'found a list'));
  it('missing required top-level key', () =>
    expectError(lines('steps: []'), 1, 'steps', 'missing required key "name"'));
  it('unknown top-level key', () =>
    expectError(
      lines('name: t', 'step: []', 'steps: []'),
      2,
      'step',
      'unknown key "step" in scenario',
      '(did you mean "steps"?)',
    ));
  it('wrong type', () => expectError(lines('name: t', 'steps: {}'), 2, '{}', 'expected a list of steps, found a map'));
  it('step not a map', () => expectError(withSteps('- heal'), 3, 'heal', 'expected a step', 'found string "heal"'));
  it('no action', () =>
    expectError(withSteps('- at: 1s'), 3, 'at', 'step has no action key; expected one of: grant, revoke'));
  it('misspelt action', () =>
    expectError(withSteps('- {at: 1s, grnat: {}}'), 3, 'grnat', 'unknown action "grnat"', '(did you mean "grant"?)'));
  it('two actions', () =>
    expectError(
      withSteps('- {at: 1s, heal: , crash: {member: n1}}'),
      3,
      'crash',
      'more than one action (heal, crash)',
    ));
  it('action value not a map', () =>
    expectError(withSteps('- {at: 1s, crash: n1}'), 3, 'n1', "expected the crash step's fields as a map"));
  it('key given twice', () =>
    expectError(withSteps('- at: 1s', '  crash: {member: n1, at: 2s}'), 4, 'at', 'key "at" is given twice'));
  it('missing at', () =>
    expectError(withSteps('- crash: {member: n1}'), 3, '{', 'missing required key "at" in crash step'));
  it('missing field', () =>
    expectError(withSteps('- {at: 1s, crash: {}}'), 3, '{}', 'missing required key "member" in crash step'));
  it('unknown field', () =>
    expectError(
      withSteps('- {at: 1s, heal: {member: n1}}'),
      3,
      'member',
      'unknown key "member" in heal step; expected one of: app, at',
    ));
});

describe('values', () => {
  it('duration without unit', () =>
    expectError(withSteps('- {at: 5, heal: }'), 3, '5', 'expected a duration', 'found integer 5', '5s'));
  it('malformed duration', () => expectError(withSteps('- {at: 5x, heal: }'), 3, '5x', 'bad duration "5x"'));
  it('negative duration where unsigned', () =>
    expectError(withSteps('- {at: -1s, heal: }'), 3, '-1s', 'sign is not allowed'));
  it('signed clock jump is fine, unsigned pause is not', () =>
    expectError(
      withSteps('- {at: 0s, clock: {member: n1, jump: -30s}}', '- {at: 0s, pause: {member: n1, for: -1s}}'),
      4,
      '-1s',
      'sign is not allowed',
    ));
  it('zero where positive', () =>
    expectError(lines('name: t', 'cluster: {heartbeat: 0s}', 'steps: []'), 2, '0s', 'expected a positive duration'));
  it('ttl not an integer', () =>
    expectError(
      withSteps('- {at: 0s, grant: {lease: L, ttl: 1.5}}'),
      3,
      '1.5',
      'expected a TTL in whole seconds',
      'found number 1.5',
    ));
  it('ttl too large', () =>
    expectError(
      withSteps('- {at: 0s, grant: {lease: L, ttl: 9000000000000001}}'),
      3,
      '9000000000000001',
      'expected a TTL',
    ));
  it('ttl as a string', () =>
    expectError(withSteps('- {at: 0s, grant: {lease: L, ttl: "10"}}'), 3, '"10"', 'found string "10"'));
  it('lease id beyond int64', () =>
    expectError(
      withSteps('- {at: 0s, grant: {lease: L, ttl: 1, id: 9223372036854775808}}'),
      3,
      '9223372036854775808',
      'expected a lease ID: a signed 64-bit integer',
    ));
  it('lease id bad hex', () =>
    expectError(
      withSteps('- {at: 0s, grant: {lease: L, ttl: 1, id: "0xfg"}}'),
      3,
      '"0xfg"',
      'expected a lease ID',
      'found string "0xfg"',
    ));
  it('boolean expected', () =>
    expectError(
      withSteps('- {at: 0s, expect: {key: k, exists: yes}}'),
      3,
      'yes',
      'expected true or false',
      'found string "yes"',
    ));
  it('bad client name', () =>
    expectError(
      withSteps(GRANT_L, '- {at: 0s, keepalive: {lease: L, client: C1}}'),
      4,
      'C1',
      'expected a client name',
      'found string "C1"',
    ));
  it('profile', () =>
    expectError(
      lines('name: t', 'profile: v3.6', 'steps: []'),
      2,
      'v3.6',
      'expected one of v3.4, v3.5',
      'found string "v3.6"',
    ));
  it('member count', () =>
    expectError(
      lines('name: t', 'cluster: {members: 8}', 'steps: []'),
      2,
      '8',
      'expected a member count from 1 to 7',
      'found integer 8',
    ));
  it('loss', () =>
    expectError(
      lines('name: t', 'cluster: {loss: 1}', 'steps: []'),
      2,
      '1',
      'expected a probability p with 0 <= p < 1',
    ));
  it('cluster version', () =>
    expectError(
      lines('name: t', 'cluster: {cluster-version: "3.6"}', 'steps: []'),
      2,
      '"3.6"',
      'expected a cluster version such as 3.5.0',
    ));
  it('grant-many count', () =>
    expectError(
      withSteps('- {at: 0s, grant-many: {prefix: P, count: 0, ttl: 5}}'),
      3,
      '0,',
      'a lease count from 1 to 250000',
    ));
  it('grant-many leases past the memory budget, in all the steps of a file, refused before anything runs', () =>
    expect(
      errorsOf(
        withSteps(
          '- {at: 0s, grant-many: {prefix: P, count: 200000, ttl: 5}}',
          '- {at: 1s, grant-many: {prefix: Q, count: 50001, ttl: 5}}',
        ),
      ).map(formatError),
    ).toEqual([
      'scenarios/test.yaml:4:45: the grant-many steps of this file ask for 250001 leases in all, more than 250000, ' +
        'the most that fit the 4 GiB memory budget of a replay',
    ]));
  it('ttl range with min above max', () =>
    expectError(
      withSteps(GRANT_L, '- {at: 0s, expect: {lease: L, ttl: {min: 5, max: 4}}}'),
      4,
      '{min',
      'min 5 greater than max 4',
    ));
  it('ttl range without bounds', () =>
    expectError(withSteps(GRANT_L, '- {at: 0s, expect: {lease: L, ttl: {}}}'), 4, '{}', 'needs "min", "max" or both'));
  it('duplicate in a list', () =>
    expectError(lines('name: t', 'tags: [a, a]', 'steps: []'), 2, 'a]', '"a" is listed twice'));
});

describe('references', () => {
  it('unknown member in via', () =>
    expectError(
      withSteps('- {at: 0s, delete: {key: k, via: n4}}'),
      3,
      'n4',
      'unknown member "n4"; this cluster has members n1..n3',
    ));
  it('unknown member in a one-member cluster', () =>
    expectError(
      lines('name: t', 'cluster: {members: 1}', 'steps:', '  - {at: 0s, transfer-leader: {to: n2}}'),
      4,
      'n2',
      'this cluster has one member, n1',
    ));
  it('lease label used before its grant', () =>
    expectError(
      withSteps('- {at: 0s, revoke: {lease: L}}', GRANT_L),
      3,
      'L',
      'lease label "L" is not granted by any earlier step',
    ));
  it('lease label in an assertion', () =>
    expectError(withSteps('- {at: 0s, expect: {lease: M, exists: false}}'), 3, 'M', 'lease label "M" is not granted'));
  it('lease label granted twice', () =>
    expectError(withSteps(GRANT_L, GRANT_L), 4, 'L', 'lease label "L" clashes with the grant at line 3'));
  it('grant-many labels', () =>
    expectError(
      withSteps(
        '- {at: 0s, grant-many: {prefix: P, count: 3, ttl: 5}}',
        '- {at: 0s, revoke: {lease: P3}}',
        '- {at: 0s, revoke: {lease: P4}}',
      ),
      5,
      'P4',
      'lease label "P4" is not granted',
    ));
  it('grant-many prefixes that overlap', () =>
    expectError(
      withSteps(
        '- {at: 0s, grant-many: {prefix: P, count: 3, ttl: 5}}',
        '- {at: 0s, grant-many: {prefix: P1, count: 3, ttl: 5}}',
      ),
      4,
      'P1',
      'clashes with the grant at line 3',
    ));
  it('a bad sibling field does not hide the label', () => {
    const errors = errorsOf(withSteps('- {at: 0s, grant: {lease: L, ttl: x}}', '- {at: 1s, revoke: {lease: L}}'));
    expect(errors.map(formatError)).toEqual([
      `${FILE}:3:37: expected a TTL in whole seconds (an integer, at most 9e15 in size), found string "x"`,
    ]);
  });
  it('unlock of a lock the client never took', () =>
    expectError(
      withSteps('- {at: 0s, lock: {name: /l, client: c1}}', '- {at: 1s, unlock: {name: /l, client: c2}}'),
      4,
      'c2',
      'client c2 takes lock "/l" in no earlier lock step',
    ));
  it('unknown lock', () =>
    expectError(
      withSteps('- {at: 0s, expect: {lock: /l, client: c1, held: true}}'),
      3,
      '/l',
      'lock "/l" is not requested',
    ));
  it('unknown resource', () =>
    expectError(withSteps('- {at: 0s, expect: {resource: db, accepted: 0}}'), 3, 'db', 'resource "db" is not written'));
  it('unknown bug', () => {
    const text = lines('name: t', 'bugs: [a4-checkpoint-once]', 'steps: []');
    const e = onlyError(text, { knownBugs: ['a4-checkpoints-once', 'a6-stale-batch'] });
    expect([e.line, e.col]).toEqual([2, 8]);
    expect(e.message).toBe(
      'unknown bug "a4-checkpoint-once"; known bugs: a4-checkpoints-once, ' +
        'a6-stale-batch (did you mean "a4-checkpoints-once"?)',
    );
  });
  it('bugs are not checked without a list', () =>
    expect(() => onlyError(lines('name: t', 'bugs: [x]', 'steps: []'))).toThrow('parsed'));
});

describe('rules', () => {
  it('steps out of time order', () =>
    expectError(
      withSteps('- {at: 2s, heal: }', '- {at: 1500ms, heal: }'),
      4,
      '1500ms',
      'step at 1.5s comes after a step at 2s (line 3)',
    ));
  it('duration before the last step', () =>
    expectError(
      lines('name: t', 'duration: 1s', 'steps:', '  - {at: 2s, heal: }'),
      2,
      '1s',
      'duration 1s ends before the last step at 2s',
    ));
  it('pause with member and client', () =>
    expectError(
      withSteps('- {at: 0s, pause: {member: n1, client: c1}}'),
      3,
      '{member',
      'pause step has both "member" and "client"',
    ));
  it('resume with neither', () =>
    expectError(withSteps('- {at: 0s, resume: {}}'), 3, '{}', 'resume step needs "member", "client" or "app"'));
  it('partition with a member twice', () =>
    expectError(
      withSteps('- {at: 0s, partition: {groups: [[n1, n2], [n2, n3]]}}'),
      3,
      'n2, n3',
      'member n2 is in two groups',
    ));
  it('partition leaving a member out', () =>
    expectError(withSteps('- {at: 0s, partition: {groups: [[n1], [n2]]}}'), 3, '[[', 'partition leaves out n3'));
  it('partition with an empty group', () =>
    expectError(withSteps('- {at: 0s, partition: {groups: [[n1, n2, n3], []]}}'), 3, '[]]', 'empty group'));
  it('expect with two assertions', () =>
    expectError(
      withSteps(GRANT_L, '- {at: 0s, expect: {lease: L, exists: true, ttl: {min: 1}}}'),
      4,
      '{lease',
      'more than one assertion ({lease, exists} and {lease, ttl})',
    ));
  it('expect incomplete', () =>
    expectError(
      withSteps('- {at: 0s, expect: {key: k}}'),
      3,
      '{key',
      'incomplete assertion {key}; expected one of: {key, exists}, {key, value}, {key, revision}',
    ));
  it('expect empty', () => expectError(withSteps('- {at: 0s, expect: }'), 3, '{', 'expect needs an assertion'));
  it('expect with a key its form does not take', () =>
    expectError(
      withSteps('- {at: 0s, expect: {leader: n1, via: n2}}'),
      3,
      '{leader',
      '"via" does not belong in a leader assertion',
    ));
  it('expect with an unknown key', () =>
    expectError(
      withSteps('- {at: 0s, expect: {key: k, exsits: true}}'),
      3,
      'exsits',
      'unknown key "exsits" in expect step',
      '(did you mean "exists"?)',
    ));
  it('persist without checkpoint', () =>
    expectError(
      lines('name: t', 'cluster: {lease-checkpoint-persist: true}', 'steps: []'),
      2,
      'true',
      'lease-checkpoint-persist requires lease-checkpoint',
    ));
  it('election timeout under 5 heartbeats', () =>
    expectError(
      lines('name: t', 'cluster: {heartbeat: 300ms}', 'steps: []'),
      2,
      '300ms',
      'election-timeout 1s is less than 5 heartbeats (1.5s)',
    ));
  it('election timeout over 50s', () =>
    expectError(
      lines('name: t', 'cluster: {election-timeout: 51s}', 'steps: []'),
      2,
      '51s',
      "longer than etcd's limit of 50000ms",
    ));
  it('heartbeat not whole milliseconds', () =>
    expectError(lines('name: t', 'cluster: {heartbeat: 100500us}', 'steps: []'), 2, '100500us', 'whole milliseconds'));
});

describe('YAML', () => {
  it('syntax error', () => expectError(lines('name: t', 'steps: [', 'x: 1'), 3, 'x', 'YAML syntax error'));
  it('duplicate key', () =>
    expectError(lines('name: t', 'name: u', 'steps: []'), 2, 'name', 'Map keys must be unique'));
  it('several documents', () =>
    expectError(lines('name: t', 'steps: []', '---', 'name: u'), 3, '---', 'multiple documents'));
  it('unknown tag', () =>
    expectError(lines('name: !js/eval "1+1"', 'steps: []'), 1, '"1+1"', 'tag !js/eval is not allowed'));
  it('known but non-core tag', () =>
    expectError(lines('name: !!binary aGk=', 'steps: []'), 1, 'aGk=', 'tag tag:yaml.org,2002:binary is not allowed'));
  it('merge key', () => {
    const [first] = errorsOf(lines('name: t', 'steps:', '  - <<: {at: 1s}', '    heal:'));
    expect(first).toMatchObject({
      line: 3,
      col: 5,
      message: 'YAML merge keys (<<) are not supported; write the keys out',
    });
  });
  it('undefined alias', () =>
    expectError(lines('name: *n', 'steps: []'), 1, '*n', 'alias *n has no anchor &n before it'));
  it('recursive alias', () =>
    expectError(lines('name: t', 'steps: &s [*s]'), 2, '*s', 'alias *s refers to a node that contains it'));
  it('aliases are resolved', () =>
    expectError(
      lines(
        'name: &n t',
        'steps:',
        '  - {at: 0s, grant: {lease: *n, ttl: 5}}',
        '  - {at: 1s, revoke: {lease: t}}',
        '  - {at: 2s, crash: *n}',
      ),
      5,
      '*n',
      "expected the crash step's fields as a map",
    ));
  it('too deep', () => {
    const deep = `${'['.repeat(70)}${']'.repeat(70)}`;
    expectError(lines('name: t', `steps: ${deep}`), 2, `${'['.repeat(6)}]`, 'nested deeper than 64 levels');
  });
  it('too large', () =>
    expectError(`name: t\nsteps: []\n#${'x'.repeat(1024 * 1024)}\n`, 1, 'name', 'larger than 1048576 bytes'));
});
