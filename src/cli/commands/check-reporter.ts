/**
 * `check`'s and `check merge`'s `--reporter junit|json --output FILE`: the flags and their validation before
 * any work.
 */
import type { FlagSpec, Invocation } from '../command.js';
import { reporterOf } from './reporter-flags.js';

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
  return reporterOf(inv, ['junit', 'json'] as const);
}
