// concurrency.NewSession grants its lease in client.Ctx(), which has no deadline: the grant waits (and
// fails over with the connection) as long as it takes, where a 7 s request deadline used to end it.
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/parse.js';
import { runScenario } from '../../src/scenario/replay/runner.js';

const YAML = `name: session-grant-no-deadline
profile: v3.4
cluster: { members: 3 }
duration: 20s
steps:
  - { at: 1s, pause: { member: n2, for: 12s } }
  - { at: 1s, session: { name: s1, client: c1, ttl: 20, via: n2, as: S } }
  - { at: 19s, expect: { answer: S } }
`;

describe('NewSession', () => {
  it('grants past the request timeout: the pinned member is frozen, the client fails over after 8 s', () => {
    const p = parseScenario(YAML, 'session-grant-no-deadline.yaml');
    if (!p.ok) throw new Error(JSON.stringify(p.errors));
    const r = runScenario(p.scenario);
    expect(r.assertions.map((a) => [a.pass, a.got])).toEqual([[true, expect.stringContaining('after 8.006s')]]);
  });
});
