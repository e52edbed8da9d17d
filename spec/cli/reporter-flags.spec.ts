// --reporter and --output are refused before any work, with the kinds the command takes named in the error:
// run takes junit, check and check merge junit or json.
import { describe, expect, it } from 'vitest';
import { cli } from '../../src/cli/cli.js';
import { bufferIO } from '../../src/cli/io.js';

async function firstErrorLine(argv: string[]): Promise<{ code: number; line: string | undefined }> {
  const io = bufferIO();
  const code = await cli(argv, io, { version: '0.0.0' });
  return { code, line: io.stderr[0] };
}

describe('--reporter validation', () => {
  const cases: ReadonlyArray<readonly [string[], string]> = [
    [['run', 'scenarios/seed-runbook.yaml', '--reporter', 'xml'], 'lessor-sim: --reporter takes junit, got "xml"'],
    [
      ['run', 'scenarios/seed-runbook.yaml', '--output', 'x.xml'],
      'lessor-sim: --output names where --reporter writes; add --reporter junit',
    ],
    [['run', 'scenarios/seed-runbook.yaml', '--reporter', 'junit'], 'lessor-sim: --reporter junit needs --output FILE'],
    [['check', '--runs', '1', '--reporter', 'xml'], 'lessor-sim: --reporter takes junit or json, got "xml"'],
    [
      ['check', '--runs', '1', '--output', 'x'],
      'lessor-sim: --output names where --reporter writes; add --reporter junit|json',
    ],
    [['check', '--runs', '1', '--reporter', 'json'], 'lessor-sim: --reporter json needs --output FILE'],
    [['check', 'merge', '.', '--reporter', 'tap'], 'lessor-sim: --reporter takes junit or json, got "tap"'],
  ];
  for (const [argv, line] of cases) {
    it(`${argv.join(' ')}: exit 2, "${line}"`, async () => {
      expect(await firstErrorLine(argv)).toEqual({ code: 2, line });
    });
  }
});
