/** Lock commands: clients take and release concurrency.Mutex locks and write to a fenced resource. */
import type { CommandSpec } from './step-command.js';
import { pickOf, type SimModel } from './sim-model.js';

export const LOCK_NAMES = ['/locks/a', '/locks/b'] as const;
export const RESOURCE = 'db';

const lockPairs = (m: Readonly<SimModel>): string[] => [...m.locks];
const split = (pair: string): [client: string, name: string] => pair.split(' ') as [string, string];

export const lock: CommandSpec<{ client: number; name: number; ttl: number }> = {
  name: 'lock',
  check: (m, p) => !m.locks.has(`${pickOf(m.clients, p.client)} ${pickOf(LOCK_NAMES, p.name)}`),
  step(m, p) {
    const client = pickOf(m.clients, p.client)!;
    const name = pickOf(LOCK_NAMES, p.name)!;
    m.locks.add(`${client} ${name}`);
    return { kind: 'lock', atUs: m.now, name, client, sessionTtlSeconds: p.ttl };
  },
};

export const unlock: CommandSpec<{ pick: number }> = {
  name: 'unlock',
  check: (m) => m.locks.size > 0,
  step(m, p) {
    const pair = pickOf(lockPairs(m), p.pick)!;
    m.locks.delete(pair);
    const [client, name] = split(pair);
    return { kind: 'unlock', atUs: m.now, name, client };
  },
};

export const fencedWrite: CommandSpec<{ pick: number }> = {
  name: 'fenced-write',
  check: (m) => m.locks.size > 0,
  step(m, p) {
    const [client, lockName] = split(pickOf(lockPairs(m), p.pick)!);
    return { kind: 'fenced-write', atUs: m.now, client, resource: RESOURCE, lock: lockName };
  },
};
