import { Trace, type TraceEvent } from '../../trace/trace.js';

/**
 * A Trace that records only the events a monitor reads. Emitters still build every event (they only
 * test `enabled`), but formatting, hashing and storing — the costly part — happen for the kept ones.
 */
export class KindTrace extends Trace {
  constructor(
    private readonly keepEvent: (e: TraceEvent) => boolean,
    /** false: listeners and the hash only, no event list (large runs). */
    keep = true,
  ) {
    super(true, keep);
  }

  static of(kinds: ReadonlySet<string>): KindTrace {
    return new KindTrace((e) => kinds.has(e.kind));
  }

  override emit(e: TraceEvent): void {
    if (this.keepEvent(e)) super.emit(e);
  }
}
