// The session and lock forms: named sessions shared by several mutexes, Close and Orphan, TryLock, and a
// lock step's `via`, with the parser's positioned errors and what each does in the simulation.
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/scenario/replay/runner.js';
import type { Scenario } from '../../src/scenario/types.js';
import { fieldsOf } from '../../src/trace/trace.js';
import { onlyError, parsed, withSteps } from './support.js';

const SESSION = '- {at: 0s, session: {name: s1, client: c1, ttl: 20}}';
const LOCK_C2 = '- {at: 1s, lock: {name: /l, client: c2, session: s1}}';
const TRY_TTL = '- {at: 1s, trylock: {name: /l, client: c1, session: s1, ttl: 5}}';
const LOCK_VIA = '- {at: 1s, lock: {name: /l, client: c1, session: s1, via: n2}}';
const CLOSE_S9 = '- {at: 0s, session-close: {session: s9}}';

/** Column of `at` in a step line as withSteps indents it. */
const col = (step: string, at: string): number => step.indexOf(at) + 3;

/** The only error's line, column and message. */
function errorAt(...steps: string[]): { line: number; col: number; message: string } {
  const e = onlyError(withSteps(...steps));
  return { line: e.line, col: e.col, message: e.message };
}

function run(s: Scenario) {
  const r = runScenario(s);
  expect(r.trace.events.filter((e) => e.kind === 'step-error').map((e) => fieldsOf(e))).toEqual([]);
  return r;
}

const failures = (r: ReturnType<typeof runScenario>): string[] =>
  r.assertions.filter((a) => !a.passed).map((a) => `line ${a.step.pos.line}: ${a.text} — got ${a.got}`);

describe('session and lock forms: parse errors', () => {
  it('refuses a lock on a session of another client, at the client', () =>
    expect(errorAt(SESSION, LOCK_C2)).toEqual({
      line: 4,
      col: col(LOCK_C2, 'c2'),
      message: 'session "s1" belongs to client c1 (line 3), not c2',
    }));

  it('refuses ttl and via beside a session, each at its key', () => {
    expect(errorAt(SESSION, TRY_TTL)).toMatchObject({
      line: 4,
      col: col(TRY_TTL, '5}'),
      message: expect.stringContaining("the session's TTL (20 s, line 3) does"),
    });
    expect(errorAt(SESSION, LOCK_VIA)).toMatchObject({
      line: 4,
      col: col(LOCK_VIA, 'n2'),
      message: expect.stringContaining("the session's client is already connected"),
    });
  });

  it('refuses a session step that reuses a name, or a lease label, and a reference to none', () => {
    expect(errorAt(SESSION, '- {at: 1s, session: {name: s1, client: c2}}').message).toBe(
      'session "s1" is already created at line 3',
    );
    expect(errorAt('- {at: 0s, grant: {lease: s1, ttl: 5}}', SESSION).message).toContain(
      'grants a lease labelled "s1", but line 3 already uses that label',
    );
    expect(errorAt(CLOSE_S9)).toMatchObject({
      line: 3,
      col: col(CLOSE_S9, 's9'),
      message: 'session "s9" is not created by any earlier session step',
    });
    expect(errorAt('- {at: 0s, session: {name: S1, client: c1}}').message).toContain('a session name such as s1');
  });

  it('refuses an unlock on a session that took no such lock', () => {
    const unlock = '- {at: 2s, unlock: {name: /b, client: c1, session: s1}}';
    expect(
      errorAt(
        SESSION,
        '- {at: 1s, lock: {name: /a, client: c1, session: s1}}',
        '- {at: 1s, lock: {name: /b, client: c1}}',
        unlock,
      ),
    ).toEqual({
      line: 6,
      col: col(unlock, 's1'),
      message: 'no earlier lock or trylock step takes "/b" on session "s1"',
    });
  });

  it("refuses an unlock of another client's session, at the client", () => {
    const unlock = '- {at: 2s, unlock: {name: /a, client: c2, session: s1}}';
    expect(
      errorAt(
        SESSION,
        '- {at: 1s, lock: {name: /a, client: c1, session: s1}}',
        '- {at: 1s, lock: {name: /a, client: c2}}',
        unlock,
      ),
    ).toEqual({ line: 6, col: col(unlock, 'c2'), message: 'session "s1" belongs to client c1 (line 3), not c2' });
  });

  it('refuses a resign on a session that never campaigned there, at the election', () => {
    const resign = '- {at: 2s, resign: {election: /e, session: s1}}';
    expect(
      errorAt(
        SESSION,
        '- {at: 0s, session: {name: s2, client: c2}}',
        '- {at: 1s, campaign: {election: /e, session: s2, value: a}}',
        resign,
      ),
    ).toEqual({
      line: 6,
      col: col(resign, '/e'),
      message: 'session "s1" campaigns in "/e" in no earlier campaign step',
    });
    expect(errorAt('- {at: 1s, expect: {election: /e, leader-value: a}}').message).toContain(
      'election "/e" is not used by any earlier campaign or observe step',
    );
  });

  it('lets a session take an earlier lease (WithLease) and not name one itself', () => {
    const s = parsed(
      withSteps('- {at: 0s, grant: {lease: s1, ttl: 5}}', '- {at: 0s, session: {name: s1, client: c1, lease: s1}}'),
    );
    expect(s.steps[1]).toMatchObject({ kind: 'session', name: 's1', lease: 's1', ttlSeconds: 60 });
  });
});

describe('session and lock forms: in the simulation', () => {
  it('runs two mutexes on one session; unlock keeps the session, Close deletes every key of it', () => {
    const r = run(
      parsed(
        withSteps(
          SESSION,
          '- {at: 100ms, lock: {name: /a, client: c1, session: s1}}',
          '- {at: 100ms, lock: {name: /b, client: c1, session: s1}}',
          '- {at: 200ms, expect: {lock: /a, client: c1, held: true}}',
          '- {at: 200ms, expect: {lock: /b, client: c1, held: true}}',
          '- {at: 200ms, expect: {lease: s1, ttl: {min: 19, max: 20}}}',
          '- {at: 300ms, unlock: {name: /a, client: c1}}',
          '- {at: 400ms, expect: {lock: /a, contenders: 0}}',
          '- {at: 400ms, expect: {lock: /b, contenders: 1}}',
          '- {at: 400ms, expect: {session: s1, done: false}}',
          '- {at: 500ms, session-close: {session: s1}}',
          '- {at: 600ms, expect: {session: s1, done: true}}',
          '- {at: 600ms, expect: {lock: /b, contenders: 0}}',
          '- {at: 600ms, expect: {lease: s1, exists: false}}',
        ),
      ),
    );
    expect(failures(r)).toEqual([]);
    // Both lock keys carry the session's one lease; Close revokes it, deleting the key that is left.
    const revoke = r.trace.events.find((e) => e.kind === 'lease-revoke');
    expect(r.trace.events.filter((e) => e.kind === 'client-grant')).toHaveLength(1);
    expect(JSON.stringify(fieldsOf(revoke!))).toContain('/b/');
  });

  it('tells apart two mutexes of one name on one client by their sessions', () => {
    const r = run(
      parsed(
        withSteps(
          SESSION,
          '- {at: 0s, session: {name: s2, client: c1}}',
          '- {at: 100ms, lock: {name: /l, client: c1, session: s1}}',
          '- {at: 200ms, lock: {name: /l, client: c1, session: s2}}',
          '- {at: 300ms, expect: {lock: /l, session: s1, held: true}}',
          '- {at: 300ms, expect: {lock: /l, session: s2, held: false}}',
          '- {at: 310ms, unlock: {name: /l, client: c1, session: s1}}',
          '- {at: 400ms, expect: {lock: /l, session: s1, held: false}}',
          '- {at: 400ms, expect: {lock: /l, session: s2, held: true}}',
          '- {at: 400ms, expect: {session: s1, done: false}}',
        ),
      ),
    );
    expect(failures(r)).toEqual([]);
  });

  it('fails a trylock with ErrLocked while another session owns the lock, and takes it once free', () => {
    const r = run(
      parsed(
        withSteps(
          '- {at: 0s, lock: {name: /l, client: c1}}',
          '- {at: 0s, session: {name: s2, client: c2}}',
          '- {at: 200ms, trylock: {name: /l, client: c2, session: s2}}',
          '- {at: 300ms, expect: {lock: /l, client: c2, held: false}}',
          '- {at: 300ms, expect: {lock: /l, contenders: 1}}',
          '- {at: 400ms, unlock: {name: /l, client: c1}}',
          '- {at: 500ms, trylock: {name: /l, client: c2, session: s2}}',
          '- {at: 600ms, expect: {lock: /l, client: c2, held: true}}',
        ),
      ),
    );
    expect(failures(r)).toEqual([]);
    const errors = r.trace.events.filter((e) => e.kind === 'client-error').map((e) => fieldsOf(e));
    expect(errors).toEqual([{ op: 'trylock', name: '/l', err: 'ErrLocked' }]);
  });

  it("names the answers of session, lock, trylock, unlock and close; a lock waits for its session's grant", () => {
    const r = run(
      parsed(
        withSteps(
          '- {at: 0s, session: {name: s1, client: c1, as: new1}}',
          '- {at: 0s, lock: {name: /l, client: c1, session: s1, as: lock1}}',
          '- {at: 0s, session: {name: s2, client: c2}}',
          '- {at: 100ms, trylock: {name: /l, client: c2, session: s2, as: try2}}',
          '- {at: 200ms, unlock: {name: /l, client: c1, session: s1, as: unlock1}}',
          '- {at: 300ms, session-close: {session: s1, as: close1}}',
          '- {at: 400ms, expect: {answer: new1, lease: s1, within: 10ms}}',
          // Revisions: lock1's key 2; try2's key 3, deleted at 4 (ErrLocked); unlock1 deletes key 2 at 5.
          '- {at: 400ms, expect: {answer: lock1, revision: 2}}',
          '- {at: 400ms, expect: {answer: try2, error: ErrLocked, within: 50ms}}',
          '- {at: 400ms, expect: {answer: unlock1, revision: 5}}',
          '- {at: 400ms, expect: {answer: close1}}',
        ),
      ),
    );
    expect(failures(r)).toEqual([]);
    expect(r.assertions).toHaveLength(5);
  });

  it('elects candidates in campaign order; a second campaign proclaims; Observe follows each change', () => {
    const r = run(
      parsed(
        withSteps(
          SESSION,
          '- {at: 0s, session: {name: s2, client: c2, ttl: 5}}',
          '- {at: 0s, session: {name: s3, client: c3}}',
          '- {at: 100ms, observe: {election: /e, session: s3}}',
          '- {at: 200ms, campaign: {election: /e, session: s2, value: a, as: a}}',
          '- {at: 300ms, campaign: {election: /e, session: s1, value: b, as: b}}',
          '- {at: 400ms, campaign: {election: /e, session: s2, value: a2, as: a2}}',
          '- {at: 500ms, expect: {election: /e, leader-value: a2}}',
          '- {at: 500ms, expect: {answer: a}}',
          '- {at: 500ms, expect: {answer: a2}}',
          '- {at: 600ms, session-orphan: {session: s2}}',
          // s2's lease runs out (TTL 5 s), its key goes, and b, waiting since 300 ms, is elected.
          '- {at: 7s, expect: {answer: b}}',
          '- {at: 7s, expect: {election: /e, leader-value: b}}',
          '- {at: 7s, expect: {election: /e, session: s3, observed: [a, a2, b]}}',
        ),
      ),
    );
    expect(failures(r)).toEqual([]);
  });

  it('has no TryLock in the 3.4 client: the step is noted as an error', () => {
    const s = parsed(
      withSteps('- {at: 0s, trylock: {name: /l, client: c1}}', '- {at: 1s, expect: {lock: /l, contenders: 0}}'),
    );
    const r = runScenario({ ...s, profile: 'v3.4' });
    expect(r.trace.events.filter((e) => e.kind === 'step-error').map((e) => fieldsOf(e))).toEqual([
      { op: 'trylock', message: 'Mutex.TryLock does not exist in the v3.4 client (added in 3.5)' },
    ]);
  });

  it("connects a lock step's client to via, and an orphaned session stops renewing but keeps its lease", () => {
    const r = run(
      parsed(
        withSteps(
          '- {at: 0s, lock: {name: /l, client: c1, ttl: 5, via: n3}}',
          '- {at: 0s, grant: {lease: L, ttl: 6}}',
          '- {at: 100ms, session: {name: s2, client: c2, lease: L}}',
          '- {at: 1s, session-orphan: {session: s2}}',
          '- {at: 1100ms, expect: {session: s2, done: true}}',
          '- {at: 1100ms, expect: {lease: L, exists: true}}',
          '- {at: 5s, expect: {lease: L, ttl: {max: 2}}}',
          '- {at: 8s, expect: {lease: L, exists: false}}',
        ),
      ),
    );
    expect(failures(r)).toEqual([]);
    const opened = r.trace.events.filter((e) => e.kind === 'client-keepalive-stream-open');
    expect(opened.map((e) => [e.member, fieldsOf(e).endpoint])).toEqual([
      ['c1', 'n3'],
      ['c2', 'n1'],
    ]);
  });
});
