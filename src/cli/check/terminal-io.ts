/** The check command's output on the real process: stdout, stderr, and a progress line redrawn in place on a terminal. */
import type { CheckIO } from './run-check.js';

export function processCheckIO(): CheckIO {
  const tty = process.stderr.isTTY === true;
  let drawn = false;
  const endProgress = (): void => {
    if (drawn) process.stderr.write('\n');
    drawn = false;
  };
  return {
    out: (line) => {
      endProgress();
      process.stdout.write(`${line}\n`);
    },
    err: (line) => {
      endProgress();
      process.stderr.write(`${line}\n`);
    },
    errIsTTY: tty,
    progress: (line) => {
      process.stderr.write(`\r\x1b[K${line}`);
      drawn = true;
    },
  };
}
