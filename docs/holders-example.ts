// The worked example of docs/holders.md: a holder written by a user against the simulated clientv3, found
// unsafe by a property campaign, shrunk to a scenario file, fixed, and found safe. spec/holder/worked-
// example.spec.ts runs it; it imports only the library's public modules.
import fc from 'fast-check';
import type { HolderApi, UserHolderFn } from '../src/holder/index.js';
import { checkHolderRunAsync, holderRunArb } from '../src/properties/index.js';

const KEY = '/locks/example';
const TTL_SECONDS = 6;
const WRITE_EVERY_US = 500_000;

/** Grant, then put the key only if it is absent; the key's revision is the fencing token. */
async function acquire(api: HolderApi): Promise<{ lease: bigint; token: number; sentAt: number }> {
  for (;;) {
    const sentAt = api.now();
    const g = await api.grant(TTL_SECONDS);
    const t = await api.txn({
      compare: [{ key: KEY, target: 'CREATE', result: 'EQUAL', createRevision: 0 }],
      success: [{ op: 'Put', key: KEY, value: api.name, lease: g.id }],
      failure: [],
    });
    if (t.succeeded) return { lease: g.id, token: t.header.revision, sentAt };
    await api.revoke(g.id);
    await api.sleep(1_000_000);
  }
}

/**
 * The first try: keep the lease with KeepAlive and act while the channel is open, as the runbook's step 3
 * does. It believes it holds the lock for as long as it has not heard otherwise.
 */
export const naiveHolder: UserHolderFn = async (api) => {
  for (;;) {
    const { lease, token } = await acquire(api);
    api.acquired(lease, KEY, token);
    const ch = api.keepAlive(lease);
    let open = true;
    void (async () => {
      while ((await ch.next()) !== undefined);
      open = false;
    })();
    while (open) {
      api.write(token);
      await api.sleep(WRITE_EVERY_US);
    }
    api.stopped('keepalive channel closed');
  }
};

/** The fix: a deadline from the send time of the last acknowledged renewal, checked before every write. */
export const fixedHolder: UserHolderFn = async (api) => {
  const marginUs = 1_000_000;
  for (;;) {
    const { lease, token, sentAt } = await acquire(api);
    api.acquired(lease, KEY, token);
    let until = sentAt + TTL_SECONDS * 1_000_000 - marginUs;
    api.actsUntil(until);
    let lost = false;
    void (async () => {
      while (!lost) {
        await api.sleep((TTL_SECONDS * 1_000_000) / 3);
        const sent = api.now();
        try {
          const r = await api.keepAliveOnce(lease);
          until = Math.max(until, sent + r.ttl * 1_000_000 - marginUs);
          api.actsUntil(until);
        } catch {
          // ErrLeaseNotFound, or no answer in time: the deadline decides.
        }
      }
    })();
    while (api.now() < until) {
      api.write(token);
      await api.sleep(Math.min(WRITE_EVERY_US, Math.max(1, until - api.now())));
    }
    lost = true;
    api.stopped('deadline', until);
    await api.revoke(lease).catch(() => undefined);
  }
};

export const EXAMPLE_HOLDERS = { naive: naiveHolder, fixed: fixedHolder };

/** The campaign: two holders of one kind, generated faults (no clock jumps: the margin covers none). */
export const exampleRuns = (kind: 'naive' | 'fixed') =>
  holderRunArb({ strategy: `user:${kind}`, ttlSeconds: TTL_SECONDS, maxFaults: 3 });

/** Runs the campaign; returns the shrunk failing scenario text, or undefined if every run was safe. */
export async function findUnsafeRun(
  kind: 'naive' | 'fixed',
  numRuns: number,
  seed: number,
): Promise<string | undefined> {
  const out = await fc.check(
    fc.asyncProperty(
      exampleRuns(kind),
      async (text) => (await checkHolderRunAsync(text, EXAMPLE_HOLDERS)).violation === undefined,
    ),
    { numRuns, seed },
  );
  return out.failed ? out.counterexample![0] : undefined;
}
