// The seed runbook served to etcdctl (a lease of its own kept alive for a while, then let go), recorded, and
// the record explained and rendered like any scenario: the served run's verdicts and hash come back.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { etcdctl, lessorSim, startServeChild, type ServeChild } from './child.js';

const dir = mkdtempSync(join(tmpdir(), 'serve-runbook-'));
const record = join(dir, 'runbook.jsonl');
const SCENARIO = 'scenarios/seed-runbook.yaml';

describe('the seed runbook, served and recorded', () => {
  let served: ServeChild;
  afterAll(() => {
    served?.child.kill('SIGKILL');
  });

  it('serves the runbook to etcdctl and ends with its verdicts when the scenario does', async () => {
    served = await startServeChild([SCENARIO, '--record', record]);
    const env = { ETCDCTL_ENDPOINTS: Object.values(served.urls).join(',') };
    const grant = await etcdctl(['lease', 'grant', '9'], env);
    const id = /lease (\w+) granted/.exec(grant.stdout)?.[1];
    expect(id).toBeDefined();
    expect((await etcdctl(['put', '--lease', id!, '/jobs/etcdctl', 'me'], env)).code).toBe(0);
    // The runbook's own lease is renewed by its simulated client meanwhile; this one by etcdctl's stream.
    const ka = await etcdctl(['lease', 'keep-alive', id!], env, 3_000);
    expect(ka.stdout).toContain(`lease ${id} keepalived with TTL(9)`);
    const ttl = await etcdctl(['lease', 'timetolive', id!, '--keys'], env);
    expect(ttl.stdout).toContain('attached keys([/jobs/etcdctl])');
    expect(await served.exited).toBe(0);
    expect(served.stdout.some((l) => /^9 passed, 0 failed/.test(l))).toBe(true);
  });

  it('explains and renders the record with the served hash', () => {
    const hash = served.stdout.find((l) => l.startsWith('trace sha256 '))!.slice('trace sha256 '.length);
    const explained = lessorSim(['explain', SCENARIO, '--input', record]);
    expect(explained.code).toBe(0);
    const out = join(dir, 'runbook.html');
    const rendered = lessorSim(['render', SCENARIO, '--input', record, '-o', out]);
    expect(rendered.code).toBe(0);
    expect(rendered.stdout).toContain(`trace sha256 ${hash}`);
    expect(existsSync(out) && readFileSync(out, 'utf8').includes('<svg')).toBe(true);
    // The timeline names etcdctl's calls, on the connection that made them.
    const timeline = lessorSim(['run', SCENARIO, '--input', record]).stdout;
    expect(timeline).toMatch(/gRPC\d+ +LeaseGrant to n\d \(served call \d+\)/);
    expect(timeline).toMatch(/gRPC\d+ +LeaseKeepAlive to n\d/);
  });
});
