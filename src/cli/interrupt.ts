/**
 * Ctrl-C (SIGINT) or SIGTERM during long work: the first one asks the work to finish with what it has (a
 * campaign keeps its counterexamples and writes its report, marked partial); a second one ends the process
 * at once, as a user pressing Ctrl-C twice expects.
 */
import { constants } from 'node:os';

export type Interruption = 'SIGINT' | 'SIGTERM';

/** The exit code of work ended by `signal`, as a shell reports a process killed by it: 128 + its number. */
export const interruptedExitCode = (signal: Interruption): number => 128 + constants.signals[signal];

/** Calls `onFirst` on the first SIGINT or SIGTERM until the returned function releases the handlers. */
export function catchInterrupt(onFirst: (signal: Interruption) => void): () => void {
  let caught = false;
  const handler = (signal: Interruption): void => {
    if (caught) process.exit(interruptedExitCode(signal));
    caught = true;
    onFirst(signal);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
