/** The exit codes of every lessor-sim command, in one place: help text and README quote this table. */
export const EXIT = {
  /** Every assertion held; no property was violated; the model and etcd agree. */
  ok: 0,
  /** An assertion failed, a property was violated, or the model and etcd disagree (or etcd could not run). */
  failed: 1,
  /**
   * Bad usage: an unknown command or flag, a bad value, an invalid scenario file, an output path that cannot be
   * written. Nothing ran.
   */
  usage: 2,
  /** A replay was stopped by --max-events, --timeout or the livelock guard (check: and no run violated a property). */
  stopped: 3,
  /**
   * An output could not be written after the work was done, or an unexpected error inside lessor-sim (a bug): one line,
   * the stack trace with --debug.
   */
  internal: 4,
  /**
   * diff: the only differences are event times outside tolerance, and the driver measured its host busy
   * while etcd ran (its own timer's lag): judge again on a quiet host. Never agreement.
   */
  timingUnderLoad: 5,
} as const;

export const EXIT_CODES_HELP = `exit codes:
  0  every assertion held (check: no property violated; diff: model and etcd agree)
  1  an assertion failed (check: a property was violated; diff: a verdict differs or etcd could not run)
  2  bad usage: unknown command or flag, bad value, invalid scenario file, unwritable output path;
     reported before anything runs
  3  a replay was stopped by --max-events, --timeout or the livelock guard (check: a run was
     stopped and none violated a property)
  4  an output could not be written once the work was done, or an unexpected error inside
     lessor-sim (rerun with --debug for the stack trace)
  5  diff: every assertion agrees and the only differences are event times outside tolerance, while
     the driver measured its host busy (its own timer's lag): run it again on a quiet host`;
