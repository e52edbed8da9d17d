import { Trace, type EventOf, type TraceEvent, type TraceKind } from '../../trace/trace.js';

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

  override emit<K extends TraceKind>(e: EventOf<K>): void {
    if (this.keepEvent(e as TraceEvent)) super.emit(e);
  }
}
