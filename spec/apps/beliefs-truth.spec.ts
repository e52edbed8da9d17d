// Under the simulation, AppTruth reads the trace: a program (named by its app-start) that reports holding a
// lease gets holder-revoked under its name when the first member applies that lease's revoke, the truth the
// holder monitors judge its belief against. A program's belief arrives after its put was applied, and may
// arrive after the lease is already gone: then the revoke is dated at the belief.
import { describe, expect, it } from 'vitest';
import { AppTruth } from '../../src/apps/app-truth.js';
import { BeliefBook } from '../../src/apps/beliefs.js';
import { judgeApps } from '../../src/apps/judge.js';
import { formatEvent, Trace } from '../../src/trace/trace.js';

function setUp() {
  const trace = new Trace();
  const clock = { t: 0, now: () => clock.t };
  new AppTruth(trace);
  const book = new BeliefBook(trace, clock);
  trace.emit({ t: 0, member: 'app', kind: 'app-start', fields: { command: 'holder' } });
  return { trace, clock, book };
}

describe('BeliefBook with AppTruth', () => {
  it('turns the revoke of the lease a program named into its truth, once, and the monitors use it', () => {
    const { trace, clock, book } = setUp();
    trace.emit({ t: 900_000, member: 'n1', kind: 'kv-put', fields: { key: '/locks/x', rev: 7, lease: 0x2an } });
    clock.t = 1_000_000;
    book.report('app', { holding: true, lease: '0x2a', token: 7, key: '/locks/x' });
    trace.emit({ t: 5_000_000, member: 'n1', kind: 'lease-revoke', lease: 0x99n, fields: { keys: [] } });
    trace.emit({ t: 11_000_000, member: 'n1', kind: 'lease-revoke', lease: 0x2an, fields: { keys: ['/locks/x'] } });
    trace.emit({ t: 11_000_500, member: 'n2', kind: 'lease-revoke', lease: 0x2an, fields: { keys: ['/locks/x'] } });
    clock.t = 17_000_000;
    book.report('app', { holding: false, reason: 'keepalive channel closed' });
    expect(trace.events.filter((e) => e.member === 'app').map(formatEvent)).toEqual([
      '0.000000 app app-start - command=holder',
      '1.000000 app holder-acquired 2a key=/locks/x token=7',
      '11.000000 app holder-revoked 2a by=n1',
      '17.000000 app holder-stop 2a reason="keepalive channel closed"',
    ]);
    const [j] = judgeApps(trace.events, 20_000_000);
    expect(j!.violations.map((v) => v.message)).toEqual([
      "app's lease was revoked at 11.000000 but it stopped at 17.000000",
    ]);
  });

  it('dates the end of a lease already revoked when the belief arrives at the belief; ignores non-programs', () => {
    const { trace, clock, book } = setUp();
    trace.emit({ t: 2_000_000, member: 'n1', kind: 'lease-revoke', lease: 0x2an, fields: { keys: [] } });
    clock.t = 3_000_000;
    book.report('app', { holding: true, lease: '42', token: 7, key: '/locks/x' });
    book.report('other', { holding: true, lease: '43', token: 8, key: '/locks/y' });
    trace.emit({ t: 4_000_000, member: 'n1', kind: 'lease-revoke', lease: 0x2bn, fields: { keys: [] } });
    expect(trace.events.filter((e) => e.kind === 'holder-revoked').map(formatEvent)).toEqual([
      '3.000000 app holder-revoked 2a by=before-belief',
    ]);
  });
});
