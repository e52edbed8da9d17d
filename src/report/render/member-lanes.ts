import { formatTime, type Micros } from '../../clock/time.js';
import type { Mark, MemberLane, RoleState, Span } from './model.js';
import type { TraceView } from './trace-view.js';

const ROLES: readonly RoleState[] = ['leader', 'follower', 'candidate', 'pre-candidate'];

/** What one member is doing, folded from its raft-role, crash/restart and pause/resume events. */
class MemberState {
  role: RoleState = 'follower';
  term = 0;
  crashed = false;
  paused = false;
  since: Micros;
  sinceLines: string[] = [];
  readonly roles: Span<RoleState>[] = [];
  readonly terms: { t: Micros; term: number; line: string }[] = [];
  readonly lessor: Mark[] = [];

  constructor(
    readonly name: string,
    startUs: Micros,
  ) {
    this.since = startUs;
  }

  get state(): RoleState {
    return this.crashed ? 'crashed' : this.paused ? 'paused' : this.role;
  }

  /** Ends the current span at `t` (the closing line joins its tooltip) and starts the next. */
  cut(t: Micros, line: string | undefined): void {
    if (t > this.since) {
      const state = this.state;
      const what = state === 'paused' ? `paused (${this.role})` : state;
      const term = state === 'crashed' ? '' : `, term ${this.term}`;
      this.roles.push({
        startUs: this.since,
        endUs: t,
        state,
        summary: `${this.name} ${what}${term}: ${formatTime(this.since)} → ${formatTime(t)}`,
        lines: line === undefined ? this.sinceLines : [...this.sinceLines, line],
      });
    }
    // A span of no length is not drawn: its lines go with the next one, so no line is lost.
    const carried = t > this.since ? [] : this.sinceLines;
    this.since = t;
    this.sinceLines = line === undefined ? carried : [...carried, line];
  }

  /** Closes the last span at the end of the timeline; lines of a change at that very end join it. */
  finish(endUs: Micros): void {
    this.cut(endUs, undefined);
    const last = this.roles.at(-1);
    if (last !== undefined && this.sinceLines.length > 0)
      this.roles[this.roles.length - 1] = { ...last, lines: [...last.lines, ...this.sinceLines] };
  }
}

/** One lane per member: role over time, term labels where it takes the lead, lessor promote/demote. */
export function extractMemberLanes(view: TraceView): MemberLane[] {
  const states = new Map(view.members.map((m) => [m, new MemberState(m, view.startUs)]));
  view.events.forEach((e, i) => {
    const s = states.get(e.member);
    if (s === undefined) return;
    const line = view.lines[i]!;
    switch (e.kind) {
      case 'raft-role': {
        const role = e.fields.role;
        s.cut(e.t, line);
        s.role = (ROLES as readonly string[]).includes(role) ? (role as RoleState) : 'unknown';
        s.term = e.fields.term;
        if (s.role === 'leader') s.terms.push({ t: e.t, term: s.term, line });
        break;
      }
      case 'raft-term':
        s.term = e.fields.term;
        return; // a term change alone does not split the span; the tick shows it
      case 'member-crash':
        s.cut(e.t, line);
        s.crashed = true;
        s.paused = false;
        break;
      case 'member-restart':
        s.cut(e.t, line);
        s.crashed = false;
        s.role = 'follower';
        break;
      case 'member-pause':
        s.cut(e.t, line);
        s.paused = true;
        break;
      case 'member-resume':
        s.cut(e.t, line);
        s.paused = false;
        break;
      case 'lessor-promote':
      case 'lessor-demote':
        s.lessor.push(view.mark(i));
        break;
      default:
        return;
    }
    view.claim(i);
  });
  return view.members.map((m) => {
    const s = states.get(m)!;
    s.finish(view.endUs);
    return { name: m, roles: s.roles, terms: s.terms, lessor: s.lessor, ticks: [] };
  });
}
