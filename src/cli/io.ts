/** Where a command writes: stdout lines, stderr lines, and an optional progress line on a terminal. */
export interface CliIO {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** Whether stderr is a terminal (then long commands draw a progress line on it). */
  readonly errIsTTY: boolean;
  /** Redraws the progress line in place. */
  readonly progress?: (line: string) => void;
}

/** A CliIO that collects everything, for tests and programmatic callers. */
export function bufferIO(): CliIO & { readonly stdout: string[]; readonly stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (l) => stdout.push(l), err: (l) => stderr.push(l), errIsTTY: false };
}
