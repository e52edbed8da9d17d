// `metrics` keeps etcd's metric names by default, etcd_debugging_lease_ttl_total included, which
// `promtool check metrics` refuses (exit 3, a lint problem) as it refuses real etcd's exposition;
// --promtool-clean renames that one histogram so a CI lint gate passes (exit 0), and nothing else.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../../src/cli/cli.js';
import { bufferIO } from '../../src/cli/io.js';
import { HAVE_PROMTOOL, promtool } from '../signals/support.js';

const ROOT = resolve(__dirname, '../..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = bufferIO();
  const code = await cli(argv, io, { version: VERSION });
  return { code, out: `${io.stdout.join('\n')}\n`, err: io.stderr.join('\n') };
}

describe.skipIf(!HAVE_PROMTOOL)('metrics and promtool check metrics', () => {
  it.each(['0s', '12s', '16.6s'])(
    "at %s: etcd's name fails the linter by default, --promtool-clean passes it, the rest unchanged",
    async (at) => {
      const etcd = await run(['metrics', 'scenarios/seed-runbook.yaml', '--at', at]);
      expect(etcd.code).toBe(0);
      expect(etcd.out).toContain('# TYPE etcd_debugging_lease_ttl_total histogram');
      const lint = promtool(['check', 'metrics'], etcd.out);
      expect(lint.code).toBe(3);
      expect(lint.out.trim()).toBe(
        'etcd_debugging_lease_ttl_total non-counter metrics should not have "_total" suffix',
      );
      const clean = await run(['metrics', 'scenarios/seed-runbook.yaml', '--at', at, '--promtool-clean']);
      expect(promtool(['check', 'metrics'], clean.out)).toEqual({ code: 0, out: '' });
      expect(clean.out).toContain('# TYPE etcd_debugging_lease_ttl histogram');
      expect(clean.out).toBe(etcd.out.replaceAll('etcd_debugging_lease_ttl_total', 'etcd_debugging_lease_ttl'));
    },
  );
});

describe('metrics --promtool-clean', () => {
  it('is said in --help, and refused with a format promtool does not lint', async () => {
    expect((await run(['metrics', '--help'])).out).toMatch(/--promtool-clean +name the lease-TTL histogram/);
    const r = await run(['metrics', 'scenarios/seed-runbook.yaml', '--format', 'json', '--promtool-clean']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--promtool-clean goes with --format prometheus or openmetrics');
  });
});
