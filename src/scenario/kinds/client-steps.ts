/** Extensions for a scenario client's own lifecycle: cancelling one KeepAlive call, closing the client. */
import { answerRef } from '../codecs.js';
import type { ParseContext } from '../context.js';
import { req, type Decoded } from '../fields.js';
import { quote } from '../node.js';
import type { StepFields, StepKindEntries } from './entry.js';
import { lockClient } from './shared-fields.js';

export const CLIENT_STEPS: StepKindEntries<'keepalive-cancel' | 'client-close'> = {
  'keepalive-cancel': {
    description:
      'Extension: the caller cancels the context of a named KeepAlive call: its channel closes, the ' +
      "lease's other channels go on.",
    fields: { channel: req('channel', answerRef, 'Name a keepalive step gave its call with "as".') },
    check: namesKeepAlive,
    describe: (s) => `cancel keep-alive ${s.channel}`,
    // The call may still be waiting for its lease's grant, or for its client's process: cancel once made.
    perform: (s, r) => r.channel(s.channel, (c) => r.onClient(c.client, undefined, () => c.ch.close())),
  },
  'client-close': {
    description:
      'Extension: the scenario client is closed (clientv3 Client.Close): its keep-alive channels close, ' +
      'calls in flight fail with context.Canceled, later calls with ErrClientClosed, a later KeepAlive ' +
      'with ErrKeepAliveHalted.',
    fields: { client: { ...lockClient, description: 'Client to close.' } },
    describe: (s) => `close client ${s.client}`,
    perform: (s, r) => r.onClient(s.client, undefined, (sc) => sc.client.close()),
  },
};

function namesKeepAlive({ value, posOf }: Decoded<StepFields<'keepalive-cancel'>>, ctx: ParseContext): boolean {
  const named = value.channel === undefined ? undefined : ctx.answers.get(value.channel);
  if (named === undefined || named.op === 'keepalive') return true;
  ctx.error(
    posOf.channel ?? named.pos,
    `${quote(value.channel ?? '')} names a ${named.op} (line ${named.pos.line}), not a keepalive call`,
  );
  return false;
}
