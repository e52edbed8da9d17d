// Under the simulation, a program's reported acquisition is handed to HolderTruth, so the cluster's own
// put and revoke of its lease become holder-owns and holder-revoked under the program's name: the
// truth the holder monitors judge its belief against.
import { describe, expect, it } from 'vitest';
import { BeliefBook } from '../../src/apps/beliefs.js';
import { judgeApps } from '../../src/apps/judge.js';
import { HolderTruth } from '../../src/holder/truth.js';
import { formatEvent, Trace } from '../../src/trace/trace.js';

describe('BeliefBook with HolderTruth', () => {
  it('turns the cluster events of the lease a program named into its truth, and the monitors use it', () => {
    const trace = new Trace();
    const clock = { t: 0, now: () => clock.t };
    const truth = new HolderTruth(trace);
    const book = new BeliefBook(trace, clock, (holder, lease, key) => truth.watch(holder, lease, key));
    clock.t = 1_000_000;
    book.report('app', { holding: true, lease: '0x2a', token: 7, key: '/locks/x' });
    trace.emit({ t: 1_000_000, member: 'n1', kind: 'kv-put', fields: { key: '/locks/x', rev: 7, lease: 0x2an } });
    trace.emit({ t: 11_000_000, member: 'n1', kind: 'lease-revoke', lease: 0x2an, fields: { keys: ['/locks/x'] } });
    clock.t = 17_000_000;
    book.report('app', { holding: false, reason: 'keepalive channel closed' });
    expect(trace.events.map(formatEvent)).toEqual([
      '1.000000 app holder-acquired 2a key=/locks/x token=7',
      '1.000000 n1 kv-put - key=/locks/x rev=7 lease=2a',
      '1.000000 app holder-owns 2a key=/locks/x by=n1',
      '11.000000 n1 lease-revoke 2a keys=/locks/x',
      '11.000000 app holder-revoked 2a by=n1',
      '17.000000 app holder-stop 2a reason="keepalive channel closed"',
    ]);
    const [j] = judgeApps(trace.events, 20_000_000);
    expect(j!.violations.map((v) => v.message)).toEqual([
      "app's lease was revoked at 11.000000 but it stopped at 17.000000",
    ]);
  });
});
