/** Fields that several step kinds (and assertion forms) share, described once. */
import { client, leaseRef, member, text } from '../codecs.js';
import { def, opt, req } from '../fields.js';

export const key = text('a key', { anyScalar: true });
export const via = opt('via', member, 'Member that receives the client request; default: the current leader.');
export const value = text('a value', { anyScalar: true, allowEmpty: true });
export const lease = req('lease', leaseRef, 'Label of a lease granted by an earlier step.');
export const clientC1 = def('client', client, 'c1', 'Client process; default c1.');
export const lockClient = req('client', client, 'Client process holding the lock session.');

/** ` via n2`, or nothing when the request goes to the leader. */
export const viaText = (v: string | undefined): string => (v === undefined ? '' : ` via ${v}`);
