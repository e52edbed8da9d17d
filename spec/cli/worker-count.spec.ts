// check's default worker count: one worker per two cores (a worker keeps ~1.45 cores busy with V8's own
// threads), and none that would get fewer than 1,500 runs of its shard to pay for its warm-up; --workers
// overrides it, whatever the campaign's size.
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../../src/cli/argv.js';
import { checkOptions } from '../../src/cli/check/check-options.js';
import { defaultWorkers } from '../../src/cli/check/worker-count.js';
import { resolveCommand } from '../../src/cli/command.js';
import { COMMANDS } from '../../src/cli/commands/index.js';

const options = (argv: readonly string[]) => {
  const named = resolveCommand(COMMANDS, ['check', ...argv])!;
  return checkOptions(parseCommandArgs(named.cmd, named.rest), () => 0);
};

describe('the default worker count', () => {
  it.each([
    // [cores, runs, workers]
    [1, 1_000_000, 1],
    [2, 1_000_000, 1],
    [3, 1_000_000, 1],
    [4, 1_000_000, 2],
    [16, 1_000_000, 8],
    [16, 2000, 1],
    [16, 2999, 1],
    [16, 3000, 2],
    [16, 7500, 5],
    [16, 0, 1],
    [64, undefined, 32],
    [2, undefined, 1],
  ])('%i cores, %s runs: %i', (cores, runs, workers) => {
    expect(defaultWorkers(cores, runs)).toBe(workers);
  });

  it("counts the runs of this process's shard, not the whole campaign's", () => {
    const cores = availableParallelism();
    expect(options(['--runs', '48000', '--shard', '3/8']).workers).toBe(defaultWorkers(cores, 6000));
    expect(options(['--runs', '48000']).workers).toBe(defaultWorkers(cores, 48000));
    expect(options(['--time-budget', '1m']).workers).toBe(defaultWorkers(cores, undefined));
    expect(options([]).workers).toBe(1); // 1,000 runs by default: one worker, whatever the machine
  });

  it('is overridden by --workers', () => {
    expect(options(['--runs', '10', '--workers', '3']).workers).toBe(3);
  });
});
