// npm `etcd3` 1.1.2 against an etcd v3 endpoint, for the client conformance suite: a lease with its
// automatic keep-alive, keepaliveOnce, the `lost` event when another client revokes the lease, put/get,
// a lock that a second client fails to take while it is held, and an election with a second candidate
// and an observer. One line per outcome a caller observes, lease IDs in hex. Run with
// `node --import tsx`; endpoints come from ETCDCTL_ENDPOINTS (host:port or URLs, comma-separated).
import { Etcd3 } from 'etcd3';

const STEP_MS = 10_000;

function say(...parts: unknown[]): void {
  console.log(parts.map(String).join(' '));
}

const hex = (id: string | number | Long | null | undefined): string =>
  BigInt(String(id ?? 0))
    .toString(16)
    .padStart(16, '0');

interface Long {
  toString(): string;
}

/** Resolves with `p`, or rejects naming `what` after STEP_MS: a server that never answers ends the run. */
function bounded<T>(what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no outcome within ${STEP_MS} ms`)), STEP_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

const nameOf = (e: unknown): string => (e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e));

async function main(): Promise<void> {
  const hosts = (process.env.ETCDCTL_ENDPOINTS ?? '').split(',');
  const a = new Etcd3({ hosts });
  const b = new Etcd3({ hosts });
  try {
    await leaseTopic(a, b);
    await lockTopic(a, b);
    await electionTopic(a, b);
  } finally {
    a.close();
    b.close();
  }
}

async function leaseTopic(a: Etcd3, b: Etcd3): Promise<void> {
  const lease = a.lease(6);
  const succeeded = new Promise((resolve) => lease.once('keepaliveSucceeded', resolve));
  const lost = new Promise<unknown>((resolve) => lease.once('lost', resolve));
  const id = await bounded('grant', lease.grant());
  say(`lease ${hex(id)} granted with TTL(6)`);
  await bounded('put', lease.put('node/a').value('1').exec());
  await bounded('put', a.put('node/b').value('2').exec());
  say('get node/a:', await bounded('get', a.get('node/a').string()));
  say('get node/missing:', await bounded('get', a.get('node/missing').string()));
  say('getAll prefix node/:', JSON.stringify(await bounded('getAll', a.getAll().prefix('node/').strings())));
  const once = await bounded('keepaliveOnce', lease.keepaliveOnce());
  say(`keepaliveOnce: lease ${hex(once.ID)} TTL(${once.TTL})`);
  await bounded('keepaliveSucceeded', succeeded);
  say('keepaliveSucceeded fired');
  const ttl = await bounded('leaseTimeToLive', a.leaseClient.leaseTimeToLive({ ID: id, keys: true }));
  const keys = (ttl.keys ?? []).map((k) => Buffer.from(k).toString()).sort();
  say(`time to live: lease ${hex(ttl.ID)} granted with TTL(${ttl.grantedTTL}s), remaining(${ttl.TTL}s), keys ${keys}`);
  const leases = await bounded('leaseLeases', a.leaseClient.leaseLeases({}));
  say('leases:', leases.leases.map((l) => hex(l.ID)).join(' '));

  await bounded('revoke', b.leaseClient.leaseRevoke({ ID: id }));
  say('revoked by the second client');
  say('lost:', nameOf(await bounded('lost', lost)));
  say('get node/a after the revoke:', await bounded('get', a.get('node/a').string()));
  try {
    await bounded('revoke', lease.revoke());
    say('lease.revoke() after lost: no error');
  } catch (e) {
    say('lease.revoke() after lost:', nameOf(e));
  }
}

async function lockTopic(a: Etcd3, b: Etcd3): Promise<void> {
  const first = a.lock('node-lock').ttl(6);
  await bounded('acquire', first.acquire());
  say('lock 1 acquired; its lease', hex(await first.leaseId()));
  const second = b.lock('node-lock').ttl(6);
  try {
    await bounded('acquire', second.acquire());
    say('lock 2 acquired while lock 1 holds it');
  } catch (e) {
    say('lock 2 while lock 1 holds it:', nameOf(e));
  }
  await bounded('release', first.release());
  say('lock 1 released');
  await bounded('acquire', second.acquire());
  say('lock 2 acquired after the release');
  await bounded('release', second.release());
  say('lock 2 released; keys under node-lock:', await bounded('count', a.getAll().prefix('node-lock').count()));
}

async function electionTopic(a: Etcd3, b: Etcd3): Promise<void> {
  const alpha = a.election('node-elect', 6).campaign('alpha');
  await bounded('campaign alpha', alpha.wait());
  say('alpha elected');
  const observer = await bounded('observe', a.election('node-elect', 6).observe());
  say('observer sees leader:', observer.leader());
  const changes: string[] = [];
  observer.on('change', (v) => changes.push(String(v)));

  const beta = b.election('node-elect', 6).campaign('beta');
  let betaElected = false;
  const elected = new Promise<void>((resolve) =>
    beta.on('elected', () => {
      betaElected = true;
      resolve();
    }),
  );
  await new Promise((r) => setTimeout(r, 1500));
  say('beta elected while alpha leads:', betaElected);
  await bounded('proclaim', alpha.proclaim('alpha-2'));
  say('alpha proclaimed alpha-2; leader is', await bounded('leader', a.election('node-elect').leader()));
  await bounded('resign', alpha.resign());
  say('alpha resigned');
  await bounded('beta elected', elected);
  say('beta elected; leader is', await bounded('leader', a.election('node-elect').leader()));
  await bounded(
    'observer change',
    waitFor(() => changes.includes('beta')),
  );
  say('observer changes:', changes.join(' '));
  await observer.cancel();
  await bounded('resign', beta.resign());
  say('beta resigned; leader is', await bounded('leader', a.election('node-elect').leader()));
}

async function waitFor(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 50));
}

main().catch((e) => {
  say('error:', nameOf(e));
  process.exitCode = 1;
});
