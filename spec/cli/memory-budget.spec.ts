// A replay that outgrows the memory budget is stopped with exit 3 and one line saying so, as --max-events
// stops one, instead of dying out of memory minutes later (the budget is lowered here to reach it in
// seconds). The grant-many limit that keeps a file within the budget is spec/scenario/errors.spec.ts's.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'lessor-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the memory budget', () => {
  it('stops a replay past it with exit 3 and the reason', () => {
    const file = join(dir, 'many.yaml');
    writeFileSync(
      file,
      'name: many\nduration: 5s\nsteps:\n  - at: 0s\n    grant-many: { prefix: P, count: 15000, ttl: 60 }\n',
    );
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'run', '--quiet', file], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, LESSOR_SIM_HEAP_BUDGET_MB: '16' },
    });
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(
      new RegExp(
        'many\\.yaml: stopped at [\\d.]+ s of 5\\.000000 s virtual, after \\d+ events: ' +
          'passed the memory budget \\([\\d.]+ GiB of heap, budget 0\\.0 GiB\\): the trace is kept whole',
      ),
    );
  });
});
