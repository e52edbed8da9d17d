/** Extension: application processes that hold a lock key through a lease (src/holder/, docs/holders.md). */
import { MICROS_PER_SECOND } from '../../clock/time.js';
import { HOLDER_STRATEGIES, HOLDER_STRATEGY_NAMES } from '../../holder/index.js';
import { client, duration, holderName, holderStrategy, int, member, oneOf, resourceName } from '../codecs.js';
import type { ParseContext } from '../context.js';
import { formatDuration } from '../duration.js';
import { def, opt, req, type Decoded } from '../fields.js';
import { quote } from '../node.js';
import type { StepFields, StepKindEntries } from './entry.js';
import { key } from './shared-fields.js';

export const HOLDER_STEPS: StepKindEntries<'holder'> = {
  holder: {
    description:
      'Extension: an application process that takes the lock key with a lease (grant, then put-if-absent), writes ' +
      'to a fenced resource with its token while it believes it holds ' +
      'the lock, and re-acquires after a loss. See docs/holders.md.',
    fields: {
      name: req('name', holderName, 'Holder name, unique in the file; its trace events carry it.'),
      strategy: req(
        'strategy',
        holderStrategy(HOLDER_STRATEGY_NAMES),
        `How it keeps the lease and notices its loss. ${HOLDER_STRATEGY_NAMES.map(
          (n) => `${n}: ${HOLDER_STRATEGIES[n]}`,
        ).join('. ')}. user:<name>: a holder written in TypeScript, given to runScenarioAsync.`,
      ),
      key: req('key', key, 'The lock key; holders naming the same key compete for it.'),
      ttlSeconds: req(
        'ttl',
        int(1, 9e15, 'a lease TTL in whole seconds (a positive integer)'),
        'TTL of each lease it grants, in whole seconds.',
      ),
      client: req(
        'client',
        client,
        'Client process it runs on (pausing the client pauses the holder); one holder per client.',
      ),
      writesPerSecond: def(
        'writes-per-second',
        int(0, 1000, 'writes per second, from 0 to 1000'),
        2,
        'Fenced writes per second while it believes it holds the lock; default 2.',
      ),
      marginUs: def(
        'margin',
        duration(),
        0,
        'How long before its computed deadline a deadline holder stops; must be below the TTL; default 0.',
      ),
      intervalUs: opt('interval', duration({ positive: true }), "runbook-python's refresh interval; default TTL/3."),
      ttlCheckIntervalUs: opt(
        'ttl-check-interval',
        duration({ positive: true }),
        'Extension: how often the holder asks TimeToLive for its lease while it holds the lock, which feeds ' +
          'the `lease_ttl_remaining_seconds` gauge (docs/signals.md); never when absent.',
      ),
      resource: def('resource', resourceName, 'resource', 'Fenced resource it writes to; default "resource".'),
      via: opt(
        'via',
        member,
        "Member the holder's client is pinned to when it first " +
          'connects (it fails over to the others in order); default n1.',
      ),
      fence: def(
        'fence',
        oneOf(['lower', 'strict'] as const),
        'lower',
        'lower: reject tokens below the highest accepted; strict: the ' +
          'runbook SQL `fencing_revision < $1`, which rejects equal ones too.',
      ),
    },
    check: holderCheck,
    describe: (s) =>
      `holder ${s.name} (${s.strategy}) on ${s.client} takes ${s.key} with TTL ` +
      `${s.ttlSeconds} s${s.marginUs > 0 ? `, margin ${formatDuration(s.marginUs)}` : ''}`,
    perform: (s, r) => r.onClient(s.client, s.via, (sc) => r.startHolder(s, sc)),
  },
};

function holderCheck({ value: v, posOf, pos }: Decoded<StepFields<'holder'>>, ctx: ParseContext): boolean {
  let ok = true;
  if (v.marginUs !== undefined && v.ttlSeconds !== undefined && v.marginUs >= v.ttlSeconds * MICROS_PER_SECOND) {
    ctx.error(
      posOf.marginUs ?? pos,
      `margin must be below the TTL (${v.ttlSeconds} s): a holder with that margin would never act`,
    );
    ok = false;
  }
  if (v.name !== undefined) {
    if (ctx.holders.has(v.name)) {
      ctx.error(posOf.name ?? pos, `holder ${quote(v.name)} is already started by an earlier holder step`);
      ok = false;
    } else ctx.holders.set(v.name, v.key ?? '');
  }
  if (v.resource !== undefined) ctx.resources.add(v.resource);
  return ok;
}
