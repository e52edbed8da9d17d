/** `--reporter junit --output FILE`, for run and check: the flags and their validation before any work. */
import { str, type FlagSpec, type Invocation } from '../command.js';
import { UsageError } from '../errors.js';
import { checkOutputFile } from '../output-path.js';

export const REPORTER_FLAGS: Readonly<Record<string, FlagSpec>> = {
  reporter: {
    type: 'string',
    value: 'junit',
    help: 'also write a report for CI systems: junit (JUnit XML, read by GitHub, GitLab, Jenkins)',
  },
  output: { type: 'string', value: 'FILE', help: 'where --reporter writes its report' },
};

/** The JUnit output file, or undefined when no reporter was asked for. */
export function junitOutput(inv: Invocation): string | undefined {
  const reporter = str(inv, 'reporter');
  const output = str(inv, 'output');
  if (reporter === undefined) {
    if (output !== undefined) throw new UsageError('--output names where --reporter writes; add --reporter junit');
    return undefined;
  }
  if (reporter !== 'junit') throw new UsageError(`--reporter takes junit, got ${JSON.stringify(reporter)}`);
  if (output === undefined) throw new UsageError('--reporter junit needs --output FILE');
  checkOutputFile('--output', output);
  return output;
}
