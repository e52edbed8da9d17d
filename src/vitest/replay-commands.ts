/** The commands that replay a counterexample file, as its header and a failing test's message print them. */
import type { Counterexample } from '../properties/check/counterexample.js';
import { shellQuote } from '../report/terminal-text.js';

/**
 * `run` when the file's expect fails on replay, else `check FILE --property P` (the monitors judge the
 * file); then `explain` and `render`, which read any file.
 */
export function replayCommands(cx: Counterexample, file: string): string[] {
  const f = shellQuote(file);
  const html = shellQuote(`${file.replace(/\.ya?ml$/, '')}.html`);
  return [
    cx.expect !== undefined
      ? `npx lessor-sim run ${f}          # exits 1: the expect at line ${cx.expectLine} fails`
      : `npx lessor-sim check ${f} --property ${cx.violation.property}   # exits 1: the monitor finds it`,
    `npx lessor-sim explain ${f}      # why each lease ended when it did`,
    `npx lessor-sim render ${f} -o ${html}`,
  ];
}
