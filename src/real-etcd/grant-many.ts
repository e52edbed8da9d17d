/**
 * A `grant-many` on real etcd: `count` LeaseGrants spaced evenly over `spread` from `startUs`, as the
 * simulation sends them, without waiting for answers (a storm is concurrent), but with a bound on how
 * many are in flight so a slow cluster backs up in the driver rather than in thousands of streams.
 */
import type { Micros } from '../clock/time.js';
import { grantManyOffsetUs } from '../scenario/kinds/lease-extension-steps.js';
import type { GrantManyStep } from '../scenario/types.js';
import type { EtcdMember } from './etcd-member.js';
import { sleepUntil } from './wall-clock.js';
import { grantManyLabel } from '../scenario/lease-labels.js';

/** Enough to keep up with a few thousand grants per second on loopback. */
const IN_FLIGHT = 1024;

export interface GrantManyResult {
  readonly failures: number;
  readonly firstError: string;
}

export async function grantMany(
  s: GrantManyStep,
  m: EtcdMember,
  startUs: Micros,
  onGranted: (label: string, id: bigint, ttl: number) => void,
  onFailed: (label: string, why: string) => void,
): Promise<GrantManyResult> {
  let inFlight = 0;
  const slots: Array<() => void> = [];
  let failures = 0;
  let firstError = '';
  const grants: Promise<void>[] = [];
  for (let i = 1; i <= s.count; i++) {
    await sleepUntil(startUs + grantManyOffsetUs(s, i));
    while (inFlight >= IN_FLIGHT) await new Promise<void>((r) => slots.push(r));
    inFlight++;
    const label = grantManyLabel(s.prefix, i);
    grants.push(
      m.rpc
        .leaseGrant(s.ttlSeconds, 0n)
        .then(
          (r) => onGranted(label, r.id, r.ttl),
          (e: unknown) => {
            const why = e instanceof Error ? e.message : String(e);
            if (failures++ === 0) firstError = why;
            onFailed(label, why);
          },
        )
        .finally(() => {
          inFlight--;
          slots.shift()?.();
        }),
    );
  }
  await Promise.all(grants);
  return { failures, firstError };
}
