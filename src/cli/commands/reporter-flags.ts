/**
 * `--reporter junit --output FILE`, for run: the flags and their validation before any work. `reporterOf`
 * also validates check's `--reporter junit|json`.
 */
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

/** The report `--reporter` asks for, of one of `kinds`, and its `--output` file; undefined when none. */
export function reporterOf<K extends string>(
  inv: Invocation,
  kinds: readonly K[],
  inputs: readonly string[] = [],
): { readonly kind: K; readonly file: string } | undefined {
  const reporter = str(inv, 'reporter');
  const output = str(inv, 'output');
  if (reporter === undefined) {
    if (output !== undefined)
      throw new UsageError(`--output names where --reporter writes; add --reporter ${kinds.join('|')}`);
    return undefined;
  }
  const kind = kinds.find((k) => k === reporter);
  if (kind === undefined)
    throw new UsageError(`--reporter takes ${kinds.join(' or ')}, got ${JSON.stringify(reporter)}`);
  if (output === undefined) throw new UsageError(`--reporter ${kind} needs --output FILE`);
  checkOutputFile('--output', output, inputs);
  return { kind, file: output };
}

/** The JUnit output file, or undefined when no reporter was asked for; it must not be one of `inputs`. */
export function junitOutput(inv: Invocation, inputs: readonly string[]): string | undefined {
  return reporterOf(inv, ['junit'] as const, inputs)?.file;
}
