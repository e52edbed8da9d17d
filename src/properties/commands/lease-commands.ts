/** Workload commands: grants, revokes, puts, keep-alive clients, renewals and TimeToLive reads. */
import type { Micros } from '../../clock/time.js';
import type { CommandSpec } from './step-command.js';
import { pickOf, running, type SimModel } from './sim-model.js';
import { grantManyLabel } from '../../scenario/lease-labels.js';

/** A member index for `via`, resolved among running members; undefined sends to the leader. */
export type ViaPick = number | undefined;

function via(m: SimModel, pick: ViaPick): string | undefined {
  return pick === undefined ? undefined : pickOf(running(m), pick);
}

const leaseAt = (m: SimModel, pick: number): string => pickOf(m.leases, pick)!.label;
const hasLease = (m: Readonly<SimModel>): boolean => m.leases.length > 0;

export const grant: CommandSpec<{ ttl: number; via: ViaPick }> = {
  name: 'grant',
  check: () => true,
  step(m, p) {
    const label = `L${m.leases.length + 1}`;
    m.leases.push({ label, ttlSeconds: p.ttl });
    return { kind: 'grant', atUs: m.now, lease: label, ttlSeconds: p.ttl, ...opt('via', via(m, p.via)) };
  },
};

export const grantMany: CommandSpec<{ count: number; ttl: number; spreadUs: Micros }> = {
  name: 'grant-many',
  check: () => true,
  step(m, p) {
    const prefix = `S${++m.grantBatches}-`;
    for (let i = 1; i <= p.count; i++) m.leases.push({ label: grantManyLabel(prefix, i), ttlSeconds: p.ttl });
    return { kind: 'grant-many', atUs: m.now, prefix, count: p.count, ttlSeconds: p.ttl, spreadUs: p.spreadUs };
  },
};

export const revoke: CommandSpec<{ lease: number; via: ViaPick }> = {
  name: 'revoke',
  check: hasLease,
  step: (m, p) => ({ kind: 'revoke', atUs: m.now, lease: leaseAt(m, p.lease), ...opt('via', via(m, p.via)) }),
};

/** `key` 0 writes a new key; otherwise it rewrites an earlier one. `lease` undefined writes without one. */
export const put: CommandSpec<{ key: number; lease: number | undefined; via: ViaPick }> = {
  name: 'put',
  check: (m, p) => p.lease === undefined || hasLease(m),
  step(m, p) {
    let key = p.key === 0 ? undefined : pickOf(m.keys, p.key - 1);
    if (key === undefined) {
      key = `/k${m.keys.length + 1}`;
      m.keys.push(key);
    }
    const lease = p.lease === undefined ? undefined : leaseAt(m, p.lease);
    return {
      kind: 'put',
      atUs: m.now,
      key,
      value: `v${Math.round(m.now / 1000)}`,
      ...opt('lease', lease),
      ...opt('via', via(m, p.via)),
    };
  },
};

export const del: CommandSpec<{ key: number; via: ViaPick }> = {
  name: 'delete',
  check: (m) => m.keys.length > 0,
  step: (m, p) => ({ kind: 'delete', atUs: m.now, key: pickOf(m.keys, p.key)!, ...opt('via', via(m, p.via)) }),
};

export const keepAlive: CommandSpec<{ lease: number; client: number; via: ViaPick }> = {
  name: 'keepalive',
  check: (m, p) =>
    hasLease(m) && !m.keepAlives.has(`${pickOf(m.clients, p.client)} ${leaseAt(m as SimModel, p.lease)}`),
  step(m, p) {
    const client = pickOf(m.clients, p.client)!;
    const lease = leaseAt(m, p.lease);
    m.keepAlives.add(`${client} ${lease}`);
    return { kind: 'keepalive', atUs: m.now, lease, client, ...opt('via', via(m, p.via)) };
  },
};

export const keepAliveStop: CommandSpec<{ pick: number }> = {
  name: 'keepalive-stop',
  check: (m) => m.keepAlives.size > 0,
  step(m, p) {
    const pair = pickOf([...m.keepAlives], p.pick)!;
    m.keepAlives.delete(pair);
    const [client, lease] = pair.split(' ') as [string, string];
    return { kind: 'keepalive-stop', atUs: m.now, lease, client };
  },
};

export const keepAliveOnce: CommandSpec<{ lease: number; via: ViaPick }> = {
  name: 'keepalive-once',
  check: hasLease,
  step: (m, p) => ({ kind: 'keepalive-once', atUs: m.now, lease: leaseAt(m, p.lease), ...opt('via', via(m, p.via)) }),
};

export const timeToLive: CommandSpec<{ lease: number; via: ViaPick }> = {
  name: 'timetolive',
  check: hasLease,
  step: (m, p) => ({
    kind: 'timetolive',
    atUs: m.now,
    lease: leaseAt(m, p.lease),
    keys: false,
    ...opt('via', via(m, p.via)),
  }),
};

/** `{ [k]: v }` when v is defined, else nothing: optional step fields stay absent, as the parser leaves them. */
function opt<K extends string, V>(k: K, v: V | undefined): { [P in K]?: V } {
  return (v === undefined ? {} : { [k]: v }) as { [P in K]?: V };
}
