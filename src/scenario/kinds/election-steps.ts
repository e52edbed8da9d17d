/** Extensions for concurrency.Election on a named session: Campaign, Resign and Observe. */
import { isRpcError } from '../../cluster/server/api.js';
import { answerAs } from '../answer-form.js';
import { lockName, sessionRef, text } from '../codecs.js';
import { req } from '../fields.js';
import { quote } from '../node.js';
import type { StepKindEntries } from './entry.js';
import { onSession } from './session-steps.js';

const election = req('election', lockName, 'Election prefix, e.g. /my-election.');
const session = req('session', sessionRef, 'Name of an earlier session step: the candidate or observer.');

export const ELECTION_STEPS: StepKindEntries<'campaign' | 'resign' | 'observe'> = {
  campaign: {
    description:
      "Extension: Election.Campaign on the session: write the candidate key (the session's lease) with the " +
      'value and wait, as Lock does, until every older candidate is gone.',
    fields: {
      election,
      session,
      value: req('value', text('a value', { anyScalar: true, allowEmpty: true }), "The candidate's value."),
      as: answerAs,
    },
    check: ({ value: v }, ctx) => {
      if (v.election === undefined) return true;
      ctx.elections.add(v.election);
      if (v.session !== undefined) ctx.sessions.get(v.session)?.campaigns.add(v.election);
      return true;
    },
    describe: (s) => `session ${s.session} campaigns in ${s.election} as ${JSON.stringify(s.value)}`,
    perform: (s, r) =>
      onSession(r, s.session, 'campaign', (ss, who) => {
        const named = r.answerTo(s.as, 'campaign');
        r.sessions.election(ss, s.session, s.election).campaign(s.value, (res) => {
          if (!isRpcError(res)) return named({ revision: res.revision });
          r.emit(who, 'client-error', { op: 'campaign', name: s.election, err: res.name });
          named({ error: res.name });
        });
      }),
  },
  resign: {
    description: "Extension: Election.Resign: the session's candidate withdraws, deleting its key.",
    fields: { election, session, as: answerAs },
    check: ({ value: v, posOf, pos }, ctx) => {
      if (v.election === undefined || v.session === undefined) return true;
      if (ctx.sessions.get(v.session)?.campaigns.has(v.election) !== false) return true;
      ctx.error(
        posOf.election ?? pos,
        `session ${quote(v.session)} campaigns in ${quote(v.election)} in no earlier campaign step`,
      );
      return false;
    },
    describe: (s) => `session ${s.session} resigns from ${s.election}`,
    perform: (s, r) =>
      onSession(r, s.session, 'resign', (ss, who) => {
        const named = r.answerTo(s.as, 'resign');
        r.sessions.election(ss, s.session, s.election).resign((res) => {
          if (!isRpcError(res)) return named(res === undefined ? {} : { revision: res.revision });
          r.emit(who, 'client-error', { op: 'resign', name: s.election, err: res.name });
          named({ error: res.name });
        });
      }),
  },
  observe: {
    description:
      'Extension: Election.Observe on the session: records the leader value it reports now and at each ' +
      'change (a Proclaim, or a new leader once the old one is gone).',
    fields: { election, session },
    check: ({ value: v }, ctx) => {
      if (v.election !== undefined) ctx.elections.add(v.election);
      return true;
    },
    describe: (s) => `session ${s.session} observes ${s.election}`,
    perform: (s, r) =>
      onSession(r, s.session, 'observe', (ss, who) => {
        const seen = r.sessions.observed(s.session, s.election)!;
        r.sessions.election(ss, s.session, s.election).observe(
          (v) => seen.push(v.value),
          (err) => r.emit(who, 'client-error', { op: 'observe', name: s.election, err: err.name }),
        );
      }),
  },
};
