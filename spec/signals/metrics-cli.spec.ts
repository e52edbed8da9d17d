// `lessor-sim metrics` through the real front end: output, files written, and refusals as usage errors.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'lessor-sim-metrics-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'metrics', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });

describe('lessor-sim metrics', () => {
  it('prints the exposition at --at, writes promtool files with --promtool, and refuses --at outside the run', () => {
    const at = cli('scenarios/signals/frozen-leader-renewals.yaml', '--at', '20s');
    expect(at.status).toBe(0);
    expect(at.stdout).toContain('up{instance="n1",job="etcd"} 0\n');

    const out = join(dir, 'promtool');
    const pt = cli('scenarios/signals/frozen-leader-renewals.yaml', '--promtool', out);
    expect(pt.status).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'rules.yml'), 'utf8'))).toMatchObject({
      groups: [{ name: 'lessor-sim', interval: '1s' }],
    });

    const outside = cli('scenarios/signals/frozen-leader-renewals.yaml', '--at', '2m');
    expect(outside.status).toBe(2);
    expect(outside.stderr).toMatch(/^lessor-sim: metrics: --at 2m is outside the run, which ends at 41\.000000 s/);
  });
});
