// What the real-etcd driver refuses, and that the differential suite itself is valid, drivable and
// passes in the simulation. None of this needs etcd.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { refusals } from '../../src/real-etcd/refusals.js';
import { runDiff } from '../../src/real-etcd/index.js';
import { parseScenario } from '../../src/scenario/parse.js';
import { runScenario } from '../../src/scenario/replay/runner.js';
import type { Scenario } from '../../src/scenario/types.js';
import { LONG_SUITE_FILES, SUITE_FILES } from './suite-files.js';

function parse(text: string, file = 'x.yaml'): Scenario {
  const p = parseScenario(text, file);
  if (!p.ok) throw new Error(p.errors.map((e) => `${e.line}: ${e.message}`).join('\n'));
  return p.scenario;
}

const BASE = `name: t
profile: v3.4
steps:
  - at: 0s
    grant: { lease: L1, ttl: 5 }
`;

function lines(): { out: string[]; err: string[]; io: { out: (l: string) => void; err: (l: string) => void } } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (l) => out.push(l), err: (l) => err.push(l) } };
}

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

function tempFile(text: string): string {
  const d = mkdtempSync(join(tmpdir(), 'lessor-sim-diff-spec-'));
  temps.push(d);
  const f = join(d, 'scenario.yaml');
  writeFileSync(f, text);
  return f;
}

describe('differential suite files', () => {
  it('exist', () => {
    expect(SUITE_FILES.length).toBeGreaterThanOrEqual(8);
  });
  for (const f of [...SUITE_FILES, ...LONG_SUITE_FILES]) {
    it(`${f.split('/').pop()} is valid, drivable on real etcd, and passes in the simulation as diff runs it`, () => {
      const text = readFileSync(f, 'utf8');
      const s = parse(text, f);
      expect(refusals(s, text)).toEqual([]);
      const r = runScenario(s, { profile: 'v3.4', clientEndpoints: 'one' });
      expect(r.setupError).toBeUndefined();
      expect(r.assertions.filter((a) => !a.passed).map((a) => `${a.step.pos.line}: ${a.text}: ${a.got}`)).toEqual([]);
      expect(r.assertions.length).toBeGreaterThan(0);
    });
  }
});

describe('refusals', () => {
  it('accepts a plain scenario', () => {
    expect(refusals(parse(BASE), BASE)).toEqual([]);
  });

  it('names each cluster setting etcd 3.4.23 has no flag for, with its line', () => {
    const text = `name: t
cluster:
  members: 3
  checkpoint-interval: 10s
  revoke-rate: 500
  latency: 5ms
  fsync: 2ms
  jitter: 1ms
  loss: 0.1
  cluster-version: 3.6.0
  expired-lease-retry: 3s
steps:
  - at: 0s
    grant: { lease: L1, ttl: 5 }
`;
    const r = refusals(parse(text), text);
    const want: Array<[string, number]> = [
      ['checkpoint-interval', 4],
      ['revoke-rate', 5],
      ['latency', 6],
      ['fsync', 7],
      ['jitter', 8],
      ['loss', 9],
      ['cluster-version', 10],
      ['expired-lease-retry', 11],
    ];
    expect(r).toHaveLength(want.length);
    for (const [key, line] of want)
      expect(r.some((m) => m.startsWith(`x.yaml:${line}: cluster setting ${key}:`))).toBe(true);
    expect(r.find((m) => m.includes('checkpoint-interval'))).toContain('fixed at 5m');
  });

  it('accepts the flags etcd 3.4.23 does have', () => {
    const text = `name: t
cluster:
  members: 5
  heartbeat: 50ms
  election-timeout: 500ms
  lease-checkpoint: true
  lease-checkpoint-persist: true
  pre-vote: true
steps:
  - at: 0s
    grant: { lease: L1, ttl: 5 }
`;
    expect(refusals(parse(text), text)).toEqual([]);
  });

  it('refuses more members than the driver runs', () => {
    const text = `name: t\ncluster:\n  members: 7\nsteps:\n  - at: 0s\n    grant: { lease: L1, ttl: 5 }\n`;
    expect(refusals(parse(text), text)).toEqual([expect.stringMatching(/^x\.yaml:3: members: 7 .*at most 5/)]);
  });

  it('names each step it cannot perform faithfully, with its line', () => {
    const text = `name: t
steps:
  - at: 0s
    partition: { groups: [[n1], [n2, n3]] }
  - at: 1s
    heal: {}
  - at: 2s
    clock: { member: n2, jump: 30s }
  - at: 3s
    lock: { name: /locks/a, client: c1 }
  - at: 4s
    expect: { lock: /locks/a, client: c1, held: true }
`;
    const r = refusals(parse(text), text);
    expect(r[0]).toMatch(/^x\.yaml:3: step partition cannot be replayed on real etcd: .*network namespaces/);
    expect(r[1]).toMatch(/^x\.yaml:5: step heal /);
    expect(r[2]).toMatch(/^x\.yaml:7: step clock /);
    expect(r[3]).toMatch(/^x\.yaml:9: step lock /);
    expect(r[4]).toMatch(/^x\.yaml:11: expect lock-held cannot be checked/);
  });
});

describe('runDiff on files it cannot run', () => {
  it('exits 2 for a refused file, naming the step and line, before looking for etcd', async () => {
    const f = tempFile(
      `name: t\nsteps:\n  - at: 0s\n    grant: { lease: L1, ttl: ` +
        `5 }\n  - at: 1s\n    clock: { member: n1, jump: 5s }\n`,
    );
    const { out, err, io } = lines();
    expect(await runDiff([f], { ...io, searchPath: '/nonexistent' })).toBe(2);
    expect(err).toEqual([
      expect.stringMatching(
        new RegExp(`^${f}:5: step clock cannot be replayed on real etcd: .*\\(refused by the real-etcd driver\\)$`),
      ),
    ]);
    expect(out).toEqual([]);
  });

  it('exits 2 for an invalid file', async () => {
    const f = tempFile(`name: t\nsteps:\n  - at: 0s\n    grant: { lease: L1 }\n`);
    const { err, io } = lines();
    expect(await runDiff([f], io)).toBe(2);
    expect(err.join('\n')).toContain(`${f}:4`);
  });

  it('exits 2 with no file', async () => {
    const { err, io } = lines();
    expect(await runDiff([], io)).toBe(2);
    expect(err).toEqual(['lessor-sim diff: name at least one scenario file']);
  });

  it('gives one clear message when etcd is not on PATH', async () => {
    const { out, err, io } = lines();
    expect(await runDiff([SUITE_FILES[0]!], { ...io, searchPath: '/nonexistent:/also-not-there' })).toBe(1);
    expect(err).toEqual([
      'lessor-sim diff: etcd and etcdctl not found on PATH; install etcd ' +
        '3.4 (Debian: apt-get install -y etcd-server etcd-client) to run diff',
    ]);
    expect(out).toEqual([]);
  });
});
