// The runbook's steps on npm etcd3 1.1.2, as a Node program would write them: grant a lease, put the lock
// key with it (the put's header revision is the fencing token), let the client keep the lease alive (its
// own TTL/3 timer on one stream per lease) and call onLost when the lease emits `lost`. Writes to the
// fenced resource once per WRITE_EVERY_MS until then; it trusts the client to say when the lease is gone.
// Exits 0 after RUN_MS (1: could not reach the cluster, 2: bad settings). Run with node.
import { fail, Settings, say, sleep } from './holder-env.mjs';

const s = new Settings('node-runbook');
const client = s.client();
const lease = client.lease(s.ttl);
let lost = false;

function onLost(err) {
  if (lost) return;
  lost = true;
  say(`lost: ${err?.constructor?.name}: ${err?.message}`);
  void s.believe(false, { reason: 'lease lost' });
}
let id;
let token;
try {
  id = await lease.grant();
  lease.on('lost', onLost);
  // What the client does on its own, printed so that the harness's timeline shows it.
  lease.on('keepaliveFailed', (err) => say(`keepalive failed: ${err?.constructor?.name}: ${err?.message}`));
  lease.on('keepaliveSucceeded', (res) => say(`keepalive ttl=${res.TTL}`));
  const put = await lease.put(s.key).value(s.name).exec();
  token = Number(put.header.revision);
} catch (e) {
  fail(1, `cannot grant and put: ${e}`);
}
await s.believe(true, { lease: String(id), token, key: s.key });

const end = Date.now() + s.runMs;
for (let n = 1; Date.now() < end; n++) {
  await sleep(s.writeEveryMs);
  if (!lost) await s.write(token, `${s.name}-${n}`);
}
if (!lost) await s.believe(false, { reason: 'end' });
lease.release();
client.close();
say('done');
