// A Node holder (npm etcd3 1.1.2) that stops acting at its own deadline instead of waiting for the
// client's `lost`. The lease is granted without the client's automatic keep-alive; each renewal is one
// keepaliveOnce given TTL/3 to answer (a gRPC deadline), and a renewal sent at S and answered with TTL T
// lets it act until S+T-margin on its monotonic clock. Before every write it checks that deadline, so a
// stall past it ends its acting however late it wakes; an answer with TTL 0 (the client throws
// EtcdLeaseInvalidError) ends it at once. It takes the lock only when the key is free (a transaction on
// the key's create revision). Exits 0 after RUN_MS (1: could not reach the cluster, 2: bad settings).
import { EtcdLeaseInvalidError } from 'etcd3';
import { monotonicMs, Settings, say, sleep } from './holder-env.mjs';

const s = new Settings('node-correct');
const client = s.client();
const end = monotonicMs() + s.runMs;
const deadline = (ms) => ({ deadline: new Date(Date.now() + ms) });

async function acquire() {
  while (monotonicMs() < end) {
    const sent = monotonicMs();
    const lease = client.lease(s.ttl, { autoKeepAlive: false, ...deadline(5000) });
    try {
      const id = await lease.grant();
      const txn = await client
        .if(s.key, 'Create', '==', 0)
        .then(client.put(s.key).value(s.name).lease(id))
        .options(deadline(5000))
        .commit();
      if (txn.succeeded) return { lease, id, token: Number(txn.header.revision), until: sent + s.ttl * 1000 };
      await lease.revoke();
    } catch (e) {
      say(`acquire failed: ${e}`);
      lease.release();
    }
    await sleep(300);
  }
  return undefined;
}

const got = await acquire();
if (got === undefined) {
  say(`never acquired ${s.key}`);
  client.close();
  process.exit(0);
}
const { lease, id, token } = got;
const state = { until: got.until - s.marginMs, done: false };
const validForMs = () => Math.floor(state.until - monotonicMs());
const acting = () => !state.done && monotonicMs() < state.until;

async function stop(why) {
  if (state.done) return;
  state.done = true;
  const late = Math.max(0, monotonicMs() - state.until);
  say(`stopped: ${why}`);
  await s.believe(false, { reason: why, stoppedAgoMs: Math.floor(late) });
}

await s.believe(true, { lease: String(id), token, key: s.key, validForMs: validForMs() });

async function renew() {
  const every = (s.ttl * 1000) / 3;
  while (monotonicMs() < end && !state.done) {
    await sleep(every);
    if (state.done) return;
    const sent = monotonicMs();
    let ttl;
    try {
      ttl = Number((await lease.keepaliveOnce(deadline(every))).TTL);
    } catch (e) {
      if (e instanceof EtcdLeaseInvalidError) return stop('lease expired');
      say(`renewal failed: ${e}`);
      continue;
    }
    if (!state.done) state.until = Math.max(state.until, sent + ttl * 1000 - s.marginMs);
    say(`renewed ttl=${ttl}`);
    if (acting()) await s.believe(true, { lease: String(id), token, key: s.key, validForMs: validForMs() });
  }
}

const renewing = renew();
for (let n = 1; monotonicMs() < end; n++) {
  await sleep(s.writeEveryMs);
  if (acting()) await s.write(token, `${s.name}-${n}`);
  else await stop('own deadline passed');
}
await stop('end');
await renewing;
try {
  await lease.revoke();
} catch {
  // The lease may be gone already.
}
client.close();
say('done');
