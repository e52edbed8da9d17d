/**
 * `check`'s and `check merge`'s `--reporter junit|json --output FILE`: the flags and their validation before
 * any work.
 */
import { str, type FlagSpec, type Invocation } from '../command.js';
import { UsageError } from '../errors.js';
import { checkOutputFile } from '../output-path.js';

export const CHECK_REPORTER_FLAGS: Readonly<Record<string, FlagSpec>> = {
  reporter: {
    type: 'string',
    value: 'junit|json',
    help: 'also write a report: junit (JUnit XML, for CI systems) or json (what check merge joins)',
  },
  output: { type: 'string', value: 'FILE', help: 'where --reporter writes its report' },
};

export interface CheckReporter {
  readonly kind: 'junit' | 'json';
  readonly file: string;
}

/** The report asked for, or undefined when none was. */
export function checkReporter(inv: Invocation): CheckReporter | undefined {
  const reporter = str(inv, 'reporter');
  const output = str(inv, 'output');
  if (reporter === undefined) {
    if (output !== undefined) throw new UsageError('--output names where --reporter writes; add --reporter junit|json');
    return undefined;
  }
  if (reporter !== 'junit' && reporter !== 'json')
    throw new UsageError(`--reporter takes junit or json, got ${JSON.stringify(reporter)}`);
  if (output === undefined) throw new UsageError(`--reporter ${reporter} needs --output FILE`);
  checkOutputFile('--output', output);
  return { kind: reporter, file: output };
}
