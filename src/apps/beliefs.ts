/**
 * What a real program reports it believes (`POST /beliefs/NAME`), turned into the holder events the
 * built-in holders emit, under the program's name: `holder-acquired` when it starts holding a lease
 * (with the lease, lock key and fencing token it names), `holder-deadline` when it declares how long it
 * will act without another renewal, `holder-stop` when it stops (`lateUs`: how long ago it really
 * stopped, for a holder that noticed its own deadline had passed only after a stall). The holder
 * monitors then read a program's belief exactly as a built-in holder's.
 */
import type { Micros } from '../clock/time.js';
import type { Trace } from '../trace/trace.js';

/** A belief as a program sends it (JSON); every field but `holding` is optional. */
export interface BeliefReport {
  readonly holding: boolean;
  /** The lease ID as a decimal or 0x-hex string (64-bit IDs do not fit a JSON number). */
  readonly lease?: string;
  readonly token?: number;
  readonly key?: string;
  /** It will act at most this much longer without another renewal. */
  readonly validForMs?: number;
  /** Why it stopped holding. */
  readonly reason?: string;
  /** It really stopped this long before it said so. */
  readonly stoppedAgoMs?: number;
}

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const LEASE = /^(?:0x[0-9a-fA-F]{1,16}|[0-9]{1,20})$/;

/** Checks a decoded JSON body; the error names the first field that is wrong. */
export function parseBelief(body: unknown): Parsed<BeliefReport> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { ok: false, error: 'expected a JSON object like {"holding": true}' };
  const b = body as Record<string, unknown>;
  if (typeof b.holding !== 'boolean') return { ok: false, error: '"holding" must be true or false' };
  if (b.lease !== undefined && (typeof b.lease !== 'string' || !LEASE.test(b.lease)))
    return { ok: false, error: '"lease" must be a lease ID as a decimal or 0x-hex string' };
  for (const f of ['token', 'validForMs', 'stoppedAgoMs'] as const)
    if (b[f] !== undefined && !(isNumber(b[f]) && Number.isInteger(b[f]) && (b[f] as number) >= 0))
      return { ok: false, error: `"${f}" must be a whole number >= 0` };
  for (const f of ['key', 'reason'] as const)
    if (b[f] !== undefined && typeof b[f] !== 'string') return { ok: false, error: `"${f}" must be a string` };
  return { ok: true, value: b as unknown as BeliefReport };
}

interface Held {
  readonly lease: bigint | undefined;
  readonly token: number;
}

export class BeliefBook {
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly trace: Trace,
    private readonly clock: { now(): Micros },
  ) {}

  /** Records one report from `holder`, arriving now. */
  report(holder: string, r: BeliefReport): void {
    const t = this.clock.now();
    const lease = r.lease === undefined ? undefined : BigInt(r.lease);
    const was = this.held.get(holder);
    const withLease = (l: bigint | undefined) => (l === undefined ? {} : { lease: l });
    if (r.holding) {
      const token = r.token ?? 0;
      // The same lease and token again: a renewal's new deadline, not a new acquisition.
      if (was === undefined || was.lease !== lease || was.token !== token) {
        if (was !== undefined) this.stop(holder, was, t, 'replaced', 0);
        this.held.set(holder, { lease, token });
        this.trace.emit({
          t,
          member: holder,
          kind: 'holder-acquired',
          ...withLease(lease),
          fields: { key: r.key ?? '', token },
        });
      }
      if (r.validForMs !== undefined)
        this.trace.emit({
          t,
          member: holder,
          kind: 'holder-deadline',
          ...withLease(lease),
          fields: { untilUs: t + r.validForMs * 1000 },
        });
    } else if (was !== undefined) {
      this.stop(holder, was, t, r.reason ?? 'stopped', (r.stoppedAgoMs ?? 0) * 1000);
    }
  }

  /** Whether `holder` last said it holds a lease. */
  holding(holder: string): boolean {
    return this.held.has(holder);
  }

  private stop(holder: string, was: Held, t: Micros, reason: string, lateUs: Micros): void {
    this.held.delete(holder);
    this.trace.emit({
      t,
      member: holder,
      kind: 'holder-stop',
      ...(was.lease === undefined ? {} : { lease: was.lease }),
      fields: { reason, ...(lateUs > 0 ? { lateUs } : {}) },
    });
  }
}
