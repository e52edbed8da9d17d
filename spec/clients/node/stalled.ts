// An npm `etcd3` 1.1.2 lease holder whose own process stalls past its TTL (the runbook's fault): a 4 s
// lease with the client's automatic keep-alive; the harness stops the whole process (SIGSTOP) 2 s after
// the start and continues it 7 s later. The lease emits `lost` after the stall. Run with
// `node --import tsx`; endpoints come from ETCDCTL_ENDPOINTS.
import { Etcd3 } from 'etcd3';

const say = (...parts: unknown[]): void => console.log(parts.map(String).join(' '));
const nameOf = (e: unknown): string => (e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e));

async function main(): Promise<void> {
  const start = Date.now();
  const client = new Etcd3({ hosts: (process.env.ETCDCTL_ENDPOINTS ?? '').split(',') });
  try {
    const lease = client.lease(4);
    const lost = new Promise<unknown>((resolve) => lease.once('lost', resolve));
    const id = await lease.grant();
    await lease.put('node/stall/k').value('held').exec();
    say(`lease ${BigInt(id).toString(16).padStart(16, '0')} granted with TTL(4); node/stall/k put with it`);
    say('# the process is stopped from 2 s to 9 s');
    const outcome = await Promise.race([
      lost.then((e) => `lost: ${nameOf(e)}`),
      new Promise<string>((r) => setTimeout(() => r('no lost event by 14 s'), 14_000 - (Date.now() - start))),
    ]);
    say(outcome);
    say('node/stall/k after the stall:', await client.get('node/stall/k').string());
  } finally {
    client.close();
  }
}

main().catch((e) => {
  say('error:', nameOf(e));
  process.exitCode = 1;
});
