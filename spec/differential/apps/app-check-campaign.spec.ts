// `lessor-sim check --app` over the runbook's Python holder (docs/examples/holders/python/runbook_loop.py,
// on python-etcd3 against serve): 20 runs of 6 s with a 2 s TTL, four clusters at once, drawn app stalls
// and member faults. The loop never notices a lost lease (refresh() returns TTL 0 without raising), so a
// stall past the TTL is followed by a write the resource accepts after the lease ended: the campaign must
// find that stale write, shrink it, and write a scenario with the stall that does it, which `serve`
// replays to the same violation. About 70 s on a loaded machine; then the same campaign interrupted at its
// first violation.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../../../src/cli/cli.js';
import { bufferIO, type CliIO } from '../../../src/cli/io.js';
import { parseScenario } from '../../../src/scenario/parse.js';
import { serveApps } from '../../../src/serve/serve-apps.js';
import { EXAMPLES, HAVE_PYTHON_ETCD3, PYTHON } from './app-harness.js';

const SKIP = HAVE_PYTHON_ETCD3 ? '' : ' (skipped: apt-get install -y python3-etcd3)';
const PROGRAM =
  `LEASE_TTL=2 RUN_MS=6000 WRITE_EVERY_MS=300 PYTHONDONTWRITEBYTECODE=1 ${PYTHON} ` +
  join(EXAMPLES, 'python/runbook_loop.py');
const VIOLATED = /^run \d+\/20: .*violated no-stale-write-accepted/;

/**
 * The campaign both tests run (20 runs of 6 s, seed 7, 4 at once), its output to `io` and its scenario to
 * `file` in a fresh folder; `test` gets check's exit code and that path, and the folder goes afterwards.
 */
async function campaign(io: CliIO, file: string, test: (code: number, out: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lessor-sim-app-check-'));
  try {
    const out = join(dir, file);
    const argv = ['check', '--app', `py=${PROGRAM}`, '--runs', '20', '--seed', '7', '--workers', '4'];
    await test(await cli([...argv, '--duration', '6s', '--output', out], io, { version: 'test' }), out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe(`check --app over the runbook's Python loop${SKIP}`, () => {
  it.skipIf(SKIP !== '')(
    'finds the stale write in 20 runs and shrinks it to one stall longer than the lease could survive',
    async () => {
      const io = bufferIO();
      await campaign(io, 'shrunk.yaml', async (code, out) => {
        const text = io.stdout.join('\n');
        expect(code, `${text}\n${io.stderr.join('\n')}`).toBe(1);
        expect(text).toMatch(/^20 runs in [\d.]+ s \([\d.]+ runs\/min with 4 at once\); \d+ violated/m);
        expect(io.stdout.filter((l) => VIOLATED.test(l)).length).toBeGreaterThan(0);
        const how = /(\d of \d fresh runs|the original run and its rerun)/.source;
        expect(text).toMatch(new RegExp(`^shrunk scenario \\(\\d+ shrink runs; failed the same way in ${how}\\)`, 'm'));
        const scenario = readFileSync(out, 'utf8');
        expect(scenario).toMatch(/^# Replay: lessor-sim serve FILE --app 'py=LEASE_TTL=2 /m);
        expect(scenario).toMatch(/^# no-stale-write-accepted: the resource accepted py's write with token \d+/m);
        // The stall that loses the lease: longer than a 2 s TTL less one refresh interval (2/3 s).
        const stalls = [...scenario.matchAll(/pause: \{ app: py, for: (\d+)(ms|s) \}/g)].map(
          (m) => Number(m[1]) * (m[2] === 's' ? 1000 : 1),
        );
        expect(stalls.length, scenario).toBeGreaterThan(0);
        expect(Math.max(...stalls), scenario).toBeGreaterThanOrEqual(1300);
        // The file is a scenario serve replays with the program, and the replay fails the same way.
        const parsed = parseScenario(scenario, out);
        if (!parsed.ok) throw new Error(`the shrunk scenario does not parse: ${parsed.errors[0]?.message}`);
        const replay = await serveApps(parsed.scenario, [{ name: 'py', command: '/bin/sh', args: ['-c', PROGRAM] }]);
        expect(replay.violations.map((v) => v.property)).toContain('no-stale-write-accepted');
      });
    },
    240_000,
  );

  it.skipIf(SKIP !== '')(
    'interrupted at its first violation, still writes that run as it ran, saying no rerun confirmed it',
    async () => {
      const io = bufferIO();
      let sent = false;
      // Ctrl-C as the first violation is reported: the runs under way end, no more start, nothing is rerun.
      const watching = {
        ...io,
        out: (l: string) => {
          io.out(l);
          if (sent || !VIOLATED.test(l)) return;
          sent = true;
          setImmediate(() => process.emit('SIGINT', 'SIGINT'));
        },
      };
      await campaign(watching, 'found.yaml', async (code, out) => {
        const text = io.stdout.join('\n');
        expect(sent, text).toBe(true);
        expect(code, `${text}\n${io.stderr.join('\n')}`).toBe(130);
        const why = 'was not confirmed by a rerun: the campaign was interrupted first';
        expect(text).toMatch(new RegExp(`^failing run \\d+, not shrunk \\(it ${why}\\): `, 'm'));
        const scenario = readFileSync(out, 'utf8');
        expect(scenario).toContain(`# It ${why}.`);
        expect(scenario).toMatch(/^# no-stale-write-accepted: the resource accepted py's write with token \d+/m);
        const parsed = parseScenario(scenario, out);
        expect(parsed.ok, scenario).toBe(true);
      });
    },
    240_000,
  );
});
