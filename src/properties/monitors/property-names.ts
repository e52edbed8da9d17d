/** The properties the toolkit checks, each with the bug-catalogue §K entry it comes from (docs/bugs.md). */
export const PROPERTIES = {
  'no-early-expiry': {
    catalogue: 'K1',
    summary: 'a lease is not revoked before its last acknowledged grant or renewal plus its TTL',
  },
  'no-renew-after-revoke': { catalogue: 'K2', summary: 'no member renews a lease after it applied its revoke' },
  'key-lease-atomicity': {
    catalogue: 'K3',
    summary: "a revoke deletes exactly the lease's keys, at one revision, the same on every member",
  },
  'no-resurrection': { catalogue: 'K4', summary: 'a member that applied a revoke never holds the lease again' },
  'single-acting-primary': {
    catalogue: 'K5',
    summary: 'a lessor-originated revoke that applies was proposed by a leader nobody had deposed',
  },
  'promotion-ordering': {
    catalogue: 'K6',
    summary: 'a lessor is promoted only after applying the entries of earlier terms',
  },
  'read-your-grant': {
    catalogue: 'K7',
    summary: 'after a grant is acknowledged, nothing reports the lease missing until it is revoked',
  },
  'member-agreement': {
    catalogue: 'K8',
    summary: 'members at the same applied index hold the same leases, TTLs, checkpoints and keys',
  },
  'timetolive-sanity': {
    catalogue: 'K9',
    summary: 'TimeToLive answers -1 or 0..TTL + election timeout (+ spreading), never 9223372036',
  },
  'bounded-extension': {
    catalogue: 'K10',
    summary: 'a promotion extends a lease by at most the election timeout over its last applied checkpoint (or TTL)',
  },
  'checkpoint-scheduling': {
    catalogue: 'K11',
    summary: 'a primary checkpoints every lease with more than an interval left, once per interval',
  },
  'resource-invariants': {
    catalogue: 'K12',
    summary: 'non-primaries hold no expiry or checkpoint queue entries; at most one entry per lease',
  },
  'grant-bounds': {
    catalogue: 'K13',
    summary: 'a grant gets max(requested, minimum TTL), and TTLs above MaxLeaseTTL are refused',
  },
  'wall-clock-independence': { catalogue: 'K14', summary: 'wall-clock jumps do not move when leases are revoked' },
  'fenced-locks': {
    catalogue: 'K15',
    summary: "Lock returns only while the caller's key exists; a resource accepts no stale fencing token",
  },
  'eventual-revocation': {
    catalogue: 'K16',
    summary: 'an expired lease is revoked within the retry interval once a leader is stable',
  },
  'bounded-drift': {
    catalogue: 'K17',
    summary: 'after k promotions a lease is revoked by last ack + TTL + k·(checkpoint interval + 3·ET + 1 s)',
  },
  'renewing-client-keeps-lease': {
    catalogue: 'K18',
    summary: 'a lease kept alive by an unpaused client is not revoked while the cluster is fault-free',
  },
  'rate-limits': {
    catalogue: 'K19',
    summary: 'a lessor offers at most rate/2 expired leases per tick; a promotion spreads piled-up deadlines',
  },
  'holder-stops-before-revoke': { catalogue: 'H1', summary: 'a lock holder stops acting before its lease is revoked' },
  'no-overlap': { catalogue: 'H1', summary: 'no two lock holders believe they hold the lock at the same instant' },
  'no-stale-write-accepted': {
    catalogue: 'H1',
    summary: 'a fenced resource accepts no write from a holder whose lease was revoked',
  },
} as const;

export type PropertyName = keyof typeof PROPERTIES;

export const PROPERTY_NAMES = Object.keys(PROPERTIES) as PropertyName[];

export function isPropertyName(s: string): s is PropertyName {
  return Object.hasOwn(PROPERTIES, s);
}
