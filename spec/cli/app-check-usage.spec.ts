// `check --app`'s usage errors: one line on stderr, exit 2, nothing started.
import { describe, expect, it } from 'vitest';
import { cli } from '../../src/cli/cli.js';
import { bufferIO } from '../../src/cli/io.js';

async function usage(...argv: string[]): Promise<string> {
  const io = bufferIO();
  const code = await cli(['check', ...argv], io, { version: 'test' });
  expect(code, io.stderr.join('\n')).toBe(2);
  expect(io.stdout).toEqual([]);
  return io.stderr.join('\n');
}

describe('check --app usage', () => {
  it('refuses bad names, empty commands, a name twice, and flags of the other campaign', async () => {
    expect(await usage('--app', 'bad name=true')).toMatch(/--app takes NAME=CMD/);
    expect(await usage('--app', 'noequals')).toMatch(/--app takes NAME=CMD/);
    expect(await usage('--app', 'a=  ')).toMatch(/--app a=: the command is empty/);
    expect(await usage('--app', 'a=true', '--app', 'a=false')).toMatch(/--app a is given twice/);
    expect(await usage('--app', 'a=true', '--shard', '0/2')).toMatch(/--shard does not apply to check --app/);
    expect(await usage('--app', 'a=true', 'scenarios/seed-runbook.yaml')).toMatch(/takes no FILE/);
    expect(await usage('--app', 'a=true', '--duration', '1s')).toMatch(/--duration takes a duration from 3s/);
    expect(await usage('--app', 'a=true', '--workers', '9')).toMatch(/--workers takes an integer from 1 to 8/);
    expect(await usage('--app', 'a=true', '--output', '/nonexistent-dir/x.yaml')).toMatch(/does not exist/);
    expect(await usage('--duration', '5s')).toMatch(/--duration applies to check --app NAME=CMD only/);
  });
});
