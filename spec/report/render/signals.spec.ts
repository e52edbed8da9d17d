// The signal panel under the lanes: alert bands where the rules fired, the series they read, and
// nothing at all for a scenario without rules.
import { describe, expect, it } from 'vitest';
import { seconds } from '../../../src/clock/time.js';
import { renderTimelineHtml } from '../../../src/report/render/index.js';
import { signalPanel } from '../../../src/report/render/signal-panel.js';
import { explain } from '../../../src/report/explain.js';
import { replay } from '../../signals/support.js';

describe('signal panel', () => {
  const r = replay('scenarios/signals/frozen-leader-renewals.yaml');

  it('bands each alert where it was pending and firing', () => {
    const panel = signalPanel(r)!;
    const down = panel.alerts.find((a) => a.name === 'EtcdMemberDown')!;
    expect(down.bands.map((b) => [b.fromUs, b.toUs, b.firing])).toEqual([
      [seconds(10), seconds(15), false],
      [seconds(15), seconds(30), true],
    ]);
    expect(panel.alerts.find((a) => a.name === 'LeaseRenewalFailures')!.bands).toEqual([]);
  });

  it('plots the series the rules read, moving ones first, with gaps for failed scrapes', () => {
    const panel = signalPanel(r)!;
    expect(panel.series[0]!.label).toBe('etcd_lease_renewal_failures_total{client="c1"}');
    const up = panel.series.find((s) => s.label === 'up{instance="n1",job="etcd"}')!;
    expect(up.points.find(([t]) => t === seconds(20))).toEqual([seconds(20), 0]);
    expect(panel.series.length + panel.hidden).toBeGreaterThan(panel.series.length);
  });

  it('draws an alert lane per rule and a lane per plotted series', () => {
    const html = renderTimelineHtml(r);
    for (const name of ['LeaseRenewalFailures', 'LeaseRenewalFailing', 'EtcdMemberDown', 'KeepAliveLeaseExpired'])
      expect(html).toContain(`data-lane="alert:${name}"`);
    expect(html).toContain('data-lane="series:etcd_lease_renewal_failures_total{client=&quot;c1&quot;}"');
  });

  it('is absent for a scenario without rules', () => {
    const plain = replay('scenarios/seed-runbook.yaml');
    expect(signalPanel(plain)).toBeUndefined();
    expect(renderTimelineHtml(plain)).not.toContain('data-lane="alert:');
  });
});

describe('explain', () => {
  it("states each alert's lead over the loss it warns of", () => {
    const lines = explain(replay('scenarios/signals/paused-client-renewals.yaml'));
    expect(lines).toContain(
      'alert ClientDown: fired at 12 s, 6.502 s before /locks/payment-42 was deleted at 18.502 s',
    );
    expect(lines).toContain(
      'alert LeaseRenewalFailing: fired at 22 s, only 3.498 s after /locks/payment-42 was deleted at 18.502 s',
    );
    expect(lines).toContain('alert LeaseRenewalFailures: never fired (/locks/payment-42 was deleted at 18.502 s)');
  });

  it('says nothing about alerts for a scenario without rules', () => {
    expect(explain(replay('scenarios/seed-runbook.yaml')).some((l) => l.startsWith('alert '))).toBe(false);
  });
});
