/**
 * Why the real-etcd side of a diff could not run. The message is complete on its own (one line, says
 * what failed and what to do), because `diff` prints it as is and exits; nothing is left running.
 */
export class DriverError extends Error {
  override readonly name = 'DriverError';
}

/** A scenario the driver cannot replay faithfully on real etcd; each reason names the setting or step. */
export class RefusedError extends Error {
  override readonly name = 'RefusedError';
  constructor(readonly reasons: readonly string[]) {
    super(reasons.join('; '));
  }
}
