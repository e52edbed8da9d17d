/** Who led in which term, from the raft-role events of a run. */
import type { Micros } from '../../clock/time.js';
import type { RunView } from './run-view.js';

export interface LeaderTerm {
  readonly member: string;
  readonly term: number;
  readonly atUs: Micros;
  readonly index: number;
}

const cache = new WeakMap<RunView, readonly LeaderTerm[]>();

/** Every time a member became leader, in trace order. */
export function leaderTerms(view: RunView): readonly LeaderTerm[] {
  let terms = cache.get(view);
  if (terms === undefined) {
    const led: LeaderTerm[] = [];
    for (const index of view.ofKind('raft-role')) {
      const e = view.eventOf(index, 'raft-role');
      if (e.fields.role === 'leader') led.push({ member: e.member, term: e.fields.term, atUs: e.t, index });
    }
    terms = led;
    cache.set(view, terms);
  }
  return terms;
}

/** The term in which `member` last became leader at or before trace index `i`. */
export function termLedAt(view: RunView, member: string, i: number): LeaderTerm | undefined {
  let out: LeaderTerm | undefined;
  for (const l of leaderTerms(view)) {
    if (l.index > i) break;
    if (l.member === member) out = l;
  }
  return out;
}

/** Another member elected in a higher term than `term`, at or before trace index `i`. */
export function deposedBy(view: RunView, member: string, term: number, i: number): LeaderTerm | undefined {
  return leaderTerms(view).find((l) => l.index <= i && l.member !== member && l.term > term);
}
