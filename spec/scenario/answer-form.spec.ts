import { describe, expect, it } from 'vitest';
import { explain } from '../../src/report/explain.js';
import { narrate } from '../../src/report/narrate.js';
import { runScenario } from '../../src/scenario/replay/runner.js';
import type { AnswerAssertion } from '../../src/scenario/types.js';
import { onlyError, parsed, withSteps } from './support.js';

const GRANT = '- {at: 0s, grant: {lease: L1, ttl: 10, as: G1}}';

/** The error of a file with one, and the column where `at` starts on its line. */
function errorAt(text: string, at: string) {
  const e = onlyError(text);
  return { line: e.line, col: e.col, atCol: (text.split('\n')[e.line - 1] ?? '').indexOf(at) + 1, message: e.message };
}

/** Replays the steps and returns each expect's verdict and what it saw, in file order. */
function verdicts(...steps: string[]) {
  return runScenario(parsed(withSteps(...steps))).assertions.map((a) => ({ pass: a.passed, got: a.got }));
}

describe('answer expect: parsing', () => {
  it('decodes every field, mapping etcd error names to the simulation names', () => {
    const s = parsed(
      withSteps(
        GRANT,
        '- {at: 1s, revoke: {lease: L1, as: R1}}',
        '- {at: 2s, expect: {answer: G1, ttl: {min: 9, max: 10}, lease: L1, within: 10ms}}',
        '- {at: 2s, expect: {answer: R1, error: ErrGRPCLeaseNotFound, took: {max: 1s}}}',
        '- {at: 2s, expect: {answer: R1, error: ErrLeaseExist}}',
        '- {at: 2s, expect: {answer: R1, error: context.DeadlineExceeded}}',
      ),
    );
    const a = s.steps.filter((x) => x.kind === 'expect').map((x) => x.assertion as AnswerAssertion);
    expect(a[0]).toMatchObject({ form: 'answer', ttlSeconds: { min: 9, max: 10 }, lease: 'L1', withinUs: 10_000 });
    expect(a.slice(1).map((x) => x.error)).toEqual(['ErrLeaseNotFound', 'ErrLeaseExists', 'DeadlineExceeded']);
    expect(s.steps[0]).toMatchObject({ kind: 'grant', as: 'G1' });
  });

  it('an exact ttl is a one-value range', () => {
    const s = parsed(withSteps(GRANT, '- {at: 1s, expect: {answer: G1, ttl: 10}}'));
    expect(s.steps[1]).toMatchObject({ assertion: { ttlSeconds: { min: 10, max: 10 } } });
  });

  it('refuses an unknown answer name, at the name', () => {
    const e = errorAt(withSteps(GRANT, '- {at: 1s, expect: {answer: G2}}'), 'G2');
    expect(e).toMatchObject({ line: 4, col: e.atCol });
    expect(e.message).toContain('answer "G2" is not named by any earlier step');
  });

  it('refuses a name used twice, at the second', () => {
    const e = errorAt(withSteps(GRANT, '- {at: 1s, revoke: {lease: L1, as: G1}}'), 'G1');
    expect(e).toMatchObject({ line: 4, col: e.atCol });
    expect(e.message).toContain('answer name "G1" is already given at line 3');
  });

  it('refuses an error etcd does not have, suggesting the nearest', () => {
    const e = errorAt(withSteps(GRANT, '- {at: 1s, expect: {answer: G1, error: ErrLeaseNotFund}}'), 'ErrLeaseNotFund');
    expect(e).toMatchObject({ line: 4, col: e.atCol });
    expect(e.message).toContain('did you mean "ErrLeaseNotFound"?');
  });

  it('refuses a value the named request never answers with, at the field', () => {
    const revoke = '- {at: 1s, revoke: {lease: L1, as: R1}}';
    const e = errorAt(withSteps(GRANT, revoke, '- {at: 2s, expect: {answer: R1, ttl: 1}}'), '1}}');
    expect(e).toMatchObject({ line: 5, col: e.atCol });
    expect(e.message).toContain('a revoke answer (line 4) carries no ttl');
  });

  it('refuses values beside an expected error', () => {
    const e = onlyError(withSteps(GRANT, '- {at: 1s, expect: {answer: G1, error: ErrTimeout, ttl: 1}}'));
    expect(e.message).toContain('"ttl" beside "error"');
  });

  it('as is only accepted on request steps', () =>
    expect(onlyError(withSteps('- {at: 0s, heal: {as: H}}')).message).toContain('unknown key "as" in heal step'));
});

describe('answer expect: verdicts', () => {
  it('a grant answers its TTL and ID, within the round trip', () =>
    expect(
      verdicts(
        GRANT,
        '- {at: 1s, expect: {answer: G1, ttl: 10, lease: L1, within: 10ms}}',
        '- {at: 1s, expect: {answer: G1, ttl: 9}}',
        '- {at: 1s, expect: {answer: G1, within: 1ms}}',
        '- {at: 1s, expect: {answer: G1, error: ErrLeaseExist}}',
      ).map((v) => v.pass),
    ).toEqual([true, false, false, false]));

  it('a second revoke fails with ErrLeaseNotFound, and success is not assumed', () => {
    const v = verdicts(
      GRANT,
      '- {at: 1s, revoke: {lease: L1, as: R1}}',
      '- {at: 2s, revoke: {lease: L1, as: R2}}',
      '- {at: 3s, expect: {answer: R1}}',
      '- {at: 3s, expect: {answer: R2, error: ErrLeaseNotFound}}',
      '- {at: 3s, expect: {answer: R2}}',
    );
    expect(v.map((x) => x.pass)).toEqual([true, true, false]);
    expect(v[2]?.got).toContain('ErrLeaseNotFound');
  });

  it('a grant of an ID in use fails with ErrLeaseExist', () =>
    expect(
      verdicts(
        '- {at: 0s, grant: {lease: L1, ttl: 10, id: 0x10}}',
        '- {at: 1s, grant: {lease: L2, ttl: 10, id: 0x10, as: G2}}',
        '- {at: 2s, expect: {answer: G2, error: ErrLeaseExist}}',
        '- {at: 2s, grant: {lease: L3, ttl: 9000000001, as: G3}}',
        '- {at: 3s, expect: {answer: G3, error: ErrLeaseTTLTooLarge}}',
      ).map((v) => v.pass),
    ).toEqual([true, true]));

  it('TimeToLive answers TTL and GrantedTTL; keep-alive-once renews; put answers the revision', () =>
    expect(
      verdicts(
        GRANT,
        '- {at: 2s, timetolive: {lease: L1, as: T1}}',
        '- {at: 2s, keepalive-once: {lease: L1, as: K1}}',
        '- {at: 2s, put: {key: /k, value: v, lease: L1, as: P1}}',
        '- {at: 3s, expect: {answer: T1, ttl: 8, granted-ttl: 10, lease: L1}}',
        '- {at: 3s, expect: {answer: K1, ttl: 10, lease: L1}}',
        '- {at: 3s, expect: {answer: P1, revision: 2}}',
        '- {at: 3s, expect: {answer: T1, granted-ttl: 9}}',
      ).map((v) => v.pass),
    ).toEqual([true, true, true, false]));

  it('the lease list is checked by ID and order', () =>
    expect(
      verdicts(
        '- {at: 0s, grant: {lease: A, ttl: 20}}',
        '- {at: 0s, grant: {lease: B, ttl: 10}}',
        '- {at: 1s, leases: {as: LS}}',
        '- {at: 2s, expect: {answer: LS, leases: [B, A]}}',
        '- {at: 2s, expect: {answer: LS, leases: [A, B]}}',
        '- {at: 2s, expect: {answer: LS, leases: [B]}}',
      ).map((v) => v.pass),
    ).toEqual([true, false, false]));

  it('an answer not yet in fails, saying so', () => {
    const v = verdicts(
      GRANT,
      '- {at: 1s, crash: {member: n1}}',
      '- {at: 1s, crash: {member: n2}}',
      '- {at: 1s, revoke: {lease: L1, via: n3, as: R1}}',
      '- {at: 2s, expect: {answer: R1, error: ErrTimeout}}',
    );
    expect(v[0]).toMatchObject({ pass: false, got: expect.stringContaining('no answer yet') });
  });

  it('how long an answer took is checked against its bounds', () =>
    expect(
      verdicts(
        GRANT,
        '- {at: 1s, crash: {member: n1}}',
        '- {at: 1s, crash: {member: n2}}',
        '- {at: 1s, keepalive-once: {lease: L1, via: n3, as: K1}}',
        '- {at: 20s, expect: {answer: K1, error: ErrGRPCNoLeader, took: {min: 1s}}}',
        '- {at: 20s, expect: {answer: K1, error: ErrNoLeader, within: 1s}}',
        '- {at: 20s, expect: {answer: K1, error: ErrTimeout}}',
      ).map((v) => v.pass),
    ).toEqual([true, false, false]));
});

describe('answer expect: narration', () => {
  const r = () =>
    runScenario(
      parsed(withSteps(GRANT, '- {at: 1s, revoke: {lease: L1, as: R1}}', '- {at: 2s, revoke: {lease: L1, as: R2}}')),
    );

  it('explain ends with each named answer: what it got and how long after it was sent', () =>
    expect(explain(r()).filter((l) => l.startsWith('answer '))).toEqual([
      'answer G1: the grant sent at 0.000 s succeeded 0.004 s later, at 0.004 s',
      'answer R1: the revoke sent at 1.000 s succeeded 0.004 s later, at 1.004 s',
      'answer R2: the revoke sent at 2.000 s failed with ErrLeaseNotFound 0.004 s later, at 2.004 s',
    ]));

  it('the timeline narrates named answers, and only those', () => {
    const lines = narrate(r()).filter((l) => l.includes('answer '));
    expect(lines).toHaveLength(3);
    expect(lines[2]).toContain('answer R2 (revoke): ErrLeaseNotFound after 0.004 s');
    const unnamed = runScenario(parsed(withSteps('- {at: 0s, grant: {lease: L1, ttl: 10}}')));
    expect(unnamed.trace.events.some((e) => e.kind === 'ctl-answer')).toBe(false);
  });
});
