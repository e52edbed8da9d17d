/**
 * The real process's output: stdout and stderr lines, a progress line redrawn in place on a terminal,
 * control characters in any line escaped (terminal-text.ts), and a closed stdout (`lessor-sim run … | head -1`)
 * ending the process quietly.
 */
import type { CliIO } from './io.js';
import { escapeControls } from '../report/terminal-text.js';

export function processIO(): CliIO {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    // The reader has gone: nobody is left to tell, so stop without a word.
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
  let drawn = false;
  const endProgress = (): void => {
    if (drawn) process.stderr.write('\n');
    drawn = false;
  };
  return {
    out: (line) => {
      endProgress();
      process.stdout.write(`${escapeControls(line)}\n`);
    },
    err: (line) => {
      endProgress();
      process.stderr.write(`${escapeControls(line)}\n`);
    },
    errIsTTY: process.stderr.isTTY === true,
    progress: (line) => {
      process.stderr.write(`\r\x1b[K${escapeControls(line)}`);
      drawn = true;
    },
  };
}
