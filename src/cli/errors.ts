/** Errors the CLI reports as one line (or a JSON object under --json) and an exit code, never as a stack trace. */
import type { ScenarioError } from '../scenario/types.js';
import { EXIT } from './exit-codes.js';

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    /** Positioned problems in scenario files, one line each. */
    readonly problems: readonly ScenarioError[] = [],
  ) {
    super(message);
  }
}

/** Bad usage (exit 2): the synopsis of the command being run is printed after the message. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT.usage);
  }
}

/** One or more scenario files are invalid (exit 2); every problem is listed, and nothing ran. */
export class InvalidScenarioError extends CliError {
  constructor(problems: readonly ScenarioError[]) {
    const files = new Set(problems.map((p) => p.file)).size;
    super(`${files} invalid scenario file${files === 1 ? '' : 's'}; nothing was run`, EXIT.usage, problems);
  }
}
