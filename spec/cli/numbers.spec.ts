// Numbers on the command line are exact or refused in one line: `--seed -1` is the value -1 (not Node's
// "argument is ambiguous"), a seed above 2^53 is not rounded into another seed, a campaign seed or run count
// beyond what runSeedOf keeps distinct is refused, and absurd --workers and shard counts are refused before
// any thread starts.
import { describe, expect, it } from 'vitest';
import { cli } from '../../src/cli/cli.js';
import { bufferIO } from '../../src/cli/io.js';
import { MAX_WORKERS } from '../../src/cli/int-flag.js';
import { runSeedOf } from '../../src/properties/check/campaign.js';

async function run(argv: string[]): Promise<{ code: number; err: string }> {
  const io = bufferIO();
  const code = await cli(argv, io, { version: 'test' });
  return { code, err: io.stderr.join('\n') };
}

const R = 'scenarios/seed-runbook.yaml';

describe('integer flags', () => {
  it.each([
    [['run', R, '--seed', '-1'], '--seed takes an integer from 0 to 9007199254740991, got "-1"'],
    [['render', R, '-o', 'x.html', '--seed', '-1'], '--seed takes an integer from 0 to 9007199254740991, got "-1"'],
    [['run', R, '--seed', '9007199254740993'], 'got "9007199254740993"'],
    [['run', R, '--seed', '1e3'], 'got "1e3"'],
    [['run', R, '--seed', '--'], '--seed needs a value; for one that starts with a dash, write --seed=VALUE'],
    [['check', '--seed', '4294967296'], '--seed takes an integer from 0 to 4294967295, got "4294967296"'],
    [['check', '--runs', '9007199254740992'], '--runs takes an integer from 0 to 4294967296, got "9007199254740992"'],
    [['check', '--runs', '-5'], '--runs takes an integer from 0 to 4294967296, got "-5"'],
    [['check', '--workers', '100000'], `--workers takes an integer from 1 to ${MAX_WORKERS}, got "100000"`],
    [['check', '--shard', '0/4294967296'], '--shard takes i/n with 0 <= i < n <= 10000 (0-based), got "0/4294967296"'],
    [['check', '--max-events', '99999999999999999999'], '--max-events'],
  ])('%j is refused: %s', async (argv, message) => {
    const r = await run(argv);
    expect(r.code).toBe(2);
    expect(r.err.split('\n')[0]).toContain(message);
  });

  it('keeps the largest campaign seed and run index distinct from smaller ones', () => {
    // Why the bounds are what they are: a seed or index past 32 bits folds onto a smaller one.
    expect(runSeedOf(2 ** 32, 5)).toBe(runSeedOf(0, 5));
    expect(runSeedOf(7, 2 ** 32)).toBe(runSeedOf(7, 0));
    expect(runSeedOf(2 ** 32 - 1, 5)).not.toBe(runSeedOf(0, 5));
  });
});
