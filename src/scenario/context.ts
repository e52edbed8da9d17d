/**
 * State shared by validators while one file is parsed: the error sink, the member count, and the names
 * earlier steps introduced (lease labels, locks, fenced resources), which later steps may only refer to.
 */
import { ErrorSink } from './errors.js';
import { LeaseLabels } from './lease-labels.js';
import type { SourcePos } from './types.js';

/** The documented default member count; the cluster table's default and the context's start value. */
export const DEFAULT_MEMBERS = 3;
export const MAX_MEMBERS = 7;

export class ParseContext {
  readonly errors = new ErrorSink();
  /** Set from the cluster section before steps are read. */
  members = DEFAULT_MEMBERS;
  readonly labels = new LeaseLabels();
  /** Lock name → clients that asked for it in an earlier `lock` step. */
  readonly locks = new Map<string, Set<string>>();
  /** Session name → the client it belongs to and its TTL, from earlier `session` steps. */
  readonly sessions = new Map<
    string,
    {
      readonly client: string;
      readonly ttlSeconds: number;
      readonly pos: SourcePos;
      /** Lock names earlier lock or trylock steps took on the session. */
      readonly locks: Set<string>;
      /** Elections earlier campaign steps ran on the session. */
      readonly campaigns: Set<string>;
    }
  >();
  /** Election names earlier campaign or observe steps used. */
  readonly elections = new Set<string>();
  /** Resources an earlier `fenced-write` wrote to. */
  readonly resources = new Set<string>();
  /** Alert names the `alerts` section defines, which expects may refer to. */
  readonly alerts = new Set<string>();
  /** Holder name → the lock key it holds, from earlier `holder` steps. */
  readonly holders = new Map<string, string>();
  /** Answer name → the step kind whose answer it names and where (`as:` on an earlier step). */
  readonly answers = new Map<string, { readonly op: string; readonly pos: SourcePos }>();

  constructor(
    readonly file: string,
    readonly knownBugs: readonly string[] | undefined,
  ) {}

  error(pos: SourcePos, message: string): void {
    this.errors.add(pos, message);
  }
}
