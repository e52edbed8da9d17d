// The rendered page: escaping, determinism, self-containment, and robustness to events it does not know.
import { describe, expect, it } from 'vitest';
import { seconds } from '../../../src/clock/time.js';
import type { TraceEvent } from '../../../src/trace/trace.js';
import { renderTimelineHtml } from '../../../src/report/render/index.js';
import { runScenario } from '../../../src/scenario/replay/runner.js';
import { parseFixture, runFixture, syntheticRun } from './support.js';

const lc = runFixture('leader-change.yaml');
const html = renderTimelineHtml(lc);

/** The SVG element of the lane whose data-lane is `id` (its markup, up to the next lane). */
function laneMarkup(page: string, id: string): string {
  const start = page.indexOf(`data-lane="${id}"`);
  if (start < 0) throw new Error(`no lane ${id}`);
  const next = page.indexOf('data-lane="', start + 1);
  return page.slice(start, next < 0 ? undefined : next);
}

describe('renderTimelineHtml', () => {
  it('is one self-contained page: inline style and script, no URL fetched', () => {
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/<script[^>]+src=|<link|<img|@import|url\((?!#)/i);
    expect(html).not.toMatch(/\b(?:src|href)=/i);
    expect(html.match(/https?:\/\/[^"\s]*/g)).toEqual(['http://www.w3.org/2000/svg']);
    expect(html).toContain("default-src 'none'");
  });

  it('has a lane per member, lease and client, each with a readable label', () => {
    for (const id of ['member:n1', 'member:n2', 'member:n3', 'client:c1', 'client:c2', 'harness', 'ctl'])
      expect(html).toContain(`data-lane="${id}"`);
    for (const label of ['L1', 'L2', 'session of c2']) expect(html).toContain(`data-label="${label}"`);
    expect(laneMarkup(html, 'member:n1')).toContain('>n1</text>');
    expect(html).toMatch(/class="label"[^>]*>L1 · TTL 6 s<\/text>/);
  });

  it('shows the scenario name, description, seed, profile, trace hash and every assertion', () => {
    expect(html).toContain('<h1>timeline-leader-change ');
    expect(html).toContain('Fixture for the timeline renderer.');
    expect(html).toContain('<dt>seed</dt><dd>3</dd>');
    expect(html).toContain('<dt>profile</dt><dd>v3.5</dd>');
    expect(html).toContain(lc.trace.hash());
    expect(html).toContain('FAIL · 1 of 4 assertions');
    for (const a of lc.assertions) expect(html).toContain(a.text.replace(/'/g, '&#39;').replace(/"/g, '&quot;'));
  });

  it('puts the trace lines behind each mark in its tooltip (the revoke lists the deleted keys)', () => {
    const l2 = lc.labels.id('L2')!.toString(16);
    const lane = laneMarkup(html, `lease:${l2}`);
    const revoke = /<g class="mk lease-revoke" data-kind="lease-revoke"><title>([^<]*)<\/title>/.exec(lane);
    expect(revoke?.[1]).toContain('L2 revoked, deleting /svc/b');
    expect(revoke?.[1]).toMatch(/\n3\.50\d000 n1 lease-revoke [0-9a-f]+ keys=\/svc\/b/);
  });

  it('draws the axis in virtual seconds from the bootstrap to the end', () => {
    const labels = [...html.matchAll(/class="axis-label"[^>]*>([^<]*)</g)].map((m) => m[1]);
    expect(labels[0]).toBe('0s');
    expect(labels.at(-1)).toBe('22s');
    expect(labels).toContain('10s');
  });

  it('is deterministic: the same run, or a fresh replay of the same scenario, renders the same bytes', () => {
    expect(renderTimelineHtml(lc)).toBe(html);
    expect(renderTimelineHtml(runScenario(parseFixture('leader-change.yaml')))).toBe(html);
  });

  it('escapes user text: a <script> in the description or a key name stays text', () => {
    const evil = '</pre><script>alert("x")</script><img src=x onerror=alert(1)> & "quotes" \'too\'';
    const scenario = parseFixture(
      'evil.yaml',
      [
        'name: evil',
        `description: ${JSON.stringify(evil)}`,
        'steps:',
        '  - at: 0s',
        '    grant: { lease: L1, ttl: 3 }',
        '  - at: 0s',
        `    put: { key: "/k<script>x</script>", value: v, lease: L1 }`,
        '',
      ].join('\n'),
    );
    const page = renderTimelineHtml(runScenario(scenario), { title: '<b>t</b>' });
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(page).not.toContain('<img');
    expect(page).not.toContain('<b>t</b>');
    expect(page).toContain(
      '&lt;/pre&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img ' +
        'src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot; &#39;too&#39;',
    );
    expect(page).toContain('/k&lt;script&gt;x&lt;/script&gt;');
    expect(page).toContain('<title>&lt;b&gt;t&lt;/b&gt;</title>');
  });

  it('shows unknown kinds as ticks on their lanes, and a role it does not know as unknown', () => {
    const run = syntheticRun(
      [
        { t: -seconds(0.5), member: 'n2', kind: 'raft-role', fields: { role: 'learner', term: 2 } },
        { t: 0, member: 'n2', kind: 'quorum-wobble', fields: { how: 'much' } },
        { t: seconds(1), member: 'n1', kind: 'lease-grant', lease: 0xabcn, fields: { ttl: 9, expiry: seconds(10) } },
        { t: seconds(2), member: 'n1', kind: 'lease-renew', lease: 0xabcn, fields: { ttl: 9, expiry: seconds(11) } },
        { t: seconds(2), member: 'n1', kind: 'lease-teleport', lease: 0xabcn },
        { t: seconds(3), member: 'n3', kind: 'lease-revoke', lease: 0xdefn },
        { t: seconds(3), member: 'zz-9', kind: 'client-levitate', lease: 0xabcn },
        { t: seconds(4), member: 'sim', kind: 'net-partition', fields: { groups: [['n1'], ['n2', 'n3']] } },
        { t: seconds(5), member: 'sim', kind: 'step-sideways' },
        { t: seconds(6), member: 'ctl-n7', kind: 'ctl-mystery' },
        { t: seconds(99), member: 'n1', kind: 'member-clock-jump', fields: { delta: seconds(1) } },
        // Foreign input on purpose: kinds no emitter writes (known kinds carry their typed fields).
      ] as unknown as TraceEvent[],
      { labels: { Lx: 0xabcn } },
    );
    const page = renderTimelineHtml(run);
    expect(laneMarkup(page, 'member:n2')).toContain('data-kind="quorum-wobble"');
    expect(laneMarkup(page, 'member:n2')).toContain('data-state="unknown"');
    expect(laneMarkup(page, 'member:n3')).toContain('data-kind="lease-revoke"');
    expect(laneMarkup(page, 'lease:abc')).toContain('data-kind="lease-teleport"');
    expect(laneMarkup(page, 'client:zz-9')).toContain('data-kind="client-levitate"');
    expect(laneMarkup(page, 'harness')).toContain('data-kind="step-sideways"');
    expect(laneMarkup(page, 'ctl')).toContain('data-kind="ctl-mystery"');
    // The last event is past the scenario's end: the axis reaches it.
    expect(page).toMatch(/class="axis-label"[^>]*>(9\d|100)s</);
    expect(page).not.toMatch(/NaN|Infinity|undefined/);
  });

  it('renders a run with no trace at all (a setup error)', () => {
    const run = { ...syntheticRun([]), setupError: 'the cluster did not elect n1', passed: false };
    const page = renderTimelineHtml(run);
    expect(page).toContain('the cluster did not elect n1');
    expect(page).toContain('data-lane="member:n3"');
    expect(page).not.toMatch(/NaN|Infinity|undefined/);
  });

  it('draws at most maxLeaseLanes lease lanes and says how many more there are', () => {
    const events = Array.from({ length: 30 }, (_, i) => ({
      t: i * 1000,
      member: 'n1',
      kind: 'lease-grant' as const,
      lease: BigInt(i + 1),
      fields: { ttl: 5, expiry: seconds(5) },
    }));
    const page = renderTimelineHtml(syntheticRun(events), { maxLeaseLanes: 10 });
    expect(page.match(/data-lane="lease:/g)).toHaveLength(10);
    expect(page).toContain('… 20 more leases granted later are not drawn');
  });
});
