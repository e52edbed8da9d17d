// The export formats, read by the tools that read them: promtool parses and lints the exposition and
// loads the OpenMetrics series into a TSDB; the OTLP/JSON decodes against OTLP's protobuf fields.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { afterAll, describe, expect, it } from 'vitest';
import { seconds } from '../../src/clock/time.js';
import { metricsCommand, metricsRequest, MetricsUsageError } from '../../src/cli/metrics.js';
import { logLines } from '../../src/signals/export/log-lines.js';
import { openMetrics } from '../../src/signals/export/openmetrics.js';
import { otlpJson } from '../../src/signals/export/otlp.js';
import { prometheusText } from '../../src/signals/export/prometheus-text.js';
import { seriesJson } from '../../src/signals/export/series-json.js';
import { scrape } from '../../src/signals/sample.js';
import { HAVE_PROMTOOL, promtool, replay, signalsOf } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'lessor-sim-exports-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** etcd's own TTL histogram is named ..._total, which promtool's linter flags; that is etcd's name, kept. */
const ETCD_NAME_LINT = /^etcd_debugging_lease_ttl_total non-counter metrics should not have "_total" suffix$/;

describe.skipIf(!HAVE_PROMTOOL)('Prometheus text exposition', () => {
  it.each([
    ['scenarios/seed-runbook.yaml', [0, 12, 16.6, 30]],
    ['scenarios/signals/frozen-leader-renewals.yaml', [5, 20, 35]],
    ['scenarios/promote-demote-timeline.yaml', [1, 7, 15]],
  ] as const)(
    "of %s parses with promtool check metrics, linting clean but for etcd's own histogram name",
    (file, instants) => {
      const s = signalsOf(replay(file));
      for (const t of instants) {
        const text = prometheusText(s.store, seconds(t));
        const { code, out } = promtool(['check', 'metrics'], text);
        const problems = out.split('\n').filter((l) => l.trim() !== '');
        expect(
          problems.filter((l) => !ETCD_NAME_LINT.test(l)),
          `${file} at ${t}s`,
        ).toEqual([]);
        // 3 is promtool's "lint problems" status; a parse error is 1.
        expect([0, 3]).toContain(code);
      }
    },
  );

  it('and the check can fail: promtool rejects a broken line', () => {
    expect(promtool(['check', 'metrics'], 'etcd_server_has_leader{member="n1" 1\n').code).toBe(1);
  });
});

describe('Prometheus text at an instant', () => {
  const r = replay('scenarios/seed-runbook.yaml');
  const text = prometheusText(signalsOf(r).store, seconds(12));

  it('shows each family once with HELP and TYPE, and cumulative histogram buckets', () => {
    expect(text.match(/^# TYPE etcd_server_has_leader gauge$/gm)).toHaveLength(1);
    expect(text).toContain('etcd_debugging_lease_renewed_total{member="n1"} 4\n');
    expect(text).toContain('etcd_debugging_lease_ttl_total_bucket{member="n1",le="8"} 0\n');
    expect(text).toContain('etcd_debugging_lease_ttl_total_bucket{member="n1",le="16"} 1\n');
    expect(text).toContain('etcd_debugging_lease_ttl_total_bucket{member="n1",le="+Inf"} 1\n');
    expect(text).toContain('up{instance="c1",job="client"} 0\n');
  });

  it('leaves out the series of a stopped process', () => {
    expect(text).not.toContain('etcd_lease_renewal_failures_total{client="c1"}');
    expect(prometheusText(signalsOf(r).store, seconds(23))).toContain(
      'etcd_lease_renewal_failures_total{client="c1"} 1\n',
    );
  });

  it('is refused outside the run by the metrics command, from the file alone (before any replay)', () => {
    expect(() => metricsRequest(r.scenario, { format: undefined, at: '99s', promtoolDir: undefined })).toThrow(
      MetricsUsageError,
    );
    expect(() => metricsRequest(r.scenario, { format: undefined, at: '99s', promtoolDir: undefined })).toThrow(
      /outside the run, which ends at 25\.000000 s/,
    );
    expect(() => metricsRequest(r.scenario, { format: 'csv', at: undefined, promtoolDir: undefined })).toThrow(
      /--format takes one of/,
    );
    const at12 = metricsRequest(r.scenario, { format: undefined, at: '12s', promtoolDir: undefined });
    expect(metricsCommand(r, at12)).toBe(text);
  });
});

describe('whole series', () => {
  const r = replay('scenarios/signals/frozen-leader-renewals.yaml');
  const s = signalsOf(r);
  const scraped = scrape(s.store, seconds(1), r.scenario.durationUs);

  it.skipIf(!HAVE_PROMTOOL)('as OpenMetrics load into a Prometheus TSDB with promtool', () => {
    const file = join(dir, 'series.om.txt');
    writeFileSync(file, openMetrics(scraped));
    const { code, out } = promtool(['tsdb', 'create-blocks-from', 'openmetrics', file, join(dir, 'tsdb')]);
    expect(out).not.toMatch(/error/i);
    expect(code).toBe(0);
  });

  it('as OpenMetrics name counter families without _total and end with # EOF', () => {
    const om = openMetrics(scraped);
    expect(om).toContain('# TYPE etcd_lease_renewal_failures counter\n');
    expect(om).toMatch(/^etcd_lease_renewal_failures_total\{client="c1"\} 1 40\.000$/m);
    expect(om.endsWith('# EOF\n')).toBe(true);
  });

  it('as JSON mark staleness where a stopped member missed its scrapes', () => {
    const j = JSON.parse(seriesJson(scraped, seconds(1))) as {
      series: { name: string; labels: Record<string, string>; samples: [number, number | string][] }[];
    };
    const n1 = j.series.find((x) => x.name === 'etcd_server_has_leader' && x.labels.member === 'n1')!;
    expect(n1.samples.find(([t]) => t === 10)).toEqual([10, 'stale']);
    expect(n1.samples.find(([t]) => t === 20)).toBeUndefined();
    expect(n1.samples.find(([t]) => t === 30)).toEqual([30, 1]);
  });

  it('logs as one JSON object per line', () => {
    const lines = logLines(s.store.logs).trimEnd().split('\n');
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    // The frozen leader's revoke is truncated: the lease is renewed throughout and never lost.
    expect(parsed.map((p) => p.event)).toContain('renewed');
    expect(parsed.map((p) => p.event)).not.toContain('lost');
    for (const p of parsed) expect(Object.keys(p)).toEqual(expect.arrayContaining(['ts', 'event', 'lease_id']));
  });
});

describe('spans as OTLP/JSON', () => {
  const root = protobuf.loadSync(join(__dirname, 'otlp-trace-subset.proto'));
  const request = root.lookupType('otlp.ExportTraceServiceRequest');

  /** Every key of `json` must be a field of `type` (in lowerCamelCase); bytes fields are hex in OTLP/JSON. */
  function conform(json: unknown, type: protobuf.Type, path: string): unknown {
    if (json === null || typeof json !== 'object') throw new Error(`${path}: expected an object`);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(json)) {
      const field = Object.values(type.fields).find((f) => f.name === k || protobuf.util.camelCase(f.name) === k);
      if (field === undefined) throw new Error(`${path}.${k} is not a field of ${type.name}`);
      field.resolve();
      const conv = (x: unknown, i?: number): unknown => {
        const p = `${path}.${k}${i === undefined ? '' : `[${i}]`}`;
        if (field.resolvedType instanceof protobuf.Type) return conform(x, field.resolvedType, p);
        if (field.type === 'bytes') {
          if (typeof x !== 'string' || !/^([0-9a-f]{2})+$/.test(x)) throw new Error(`${p}: expected lower-case hex`);
          return Buffer.from(x, 'hex');
        }
        return x;
      };
      out[k] = field.repeated ? (v as unknown[]).map(conv) : conv(v);
    }
    return out;
  }

  it("decodes against OTLP's fields, with 16- and 8-byte IDs and an error status for a lost lease", () => {
    const s = signalsOf(replay('scenarios/seed-runbook.yaml'));
    const json = JSON.parse(otlpJson(s.store.spans)) as unknown;
    const msg = request.fromObject(conform(json, request, 'request') as Record<string, unknown>);
    expect(request.verify(msg)).toBeNull();
    const back = request.toObject(request.decode(request.encode(msg).finish()), {
      longs: String,
      enums: String,
      bytes: String,
    }) as {
      resourceSpans: {
        scopeSpans: {
          spans: {
            traceId: string;
            spanId: string;
            kind: string;
            startTimeUnixNano: string;
            endTimeUnixNano: string;
            status?: { code: string };
          }[];
        }[];
      }[];
    };
    const spans = back.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((x) => x.spans));
    expect(spans.length).toBeGreaterThan(0);
    const c1 = spans[0]!;
    expect(Buffer.from(c1.traceId, 'base64')).toHaveLength(16);
    expect(Buffer.from(c1.spanId, 'base64')).toHaveLength(8);
    expect(c1.kind).toBe('SPAN_KIND_INTERNAL');
    expect(c1.startTimeUnixNano).toBe('4000000');
    expect(c1.endTimeUnixNano).toBe('22000000000');
    expect(c1.status?.code).toBe('STATUS_CODE_ERROR');
  });

  it("carries a holder's lease.heartbeat span with its lease, TTL and fencing revision, decoding as OTLP", () => {
    const s = signalsOf(replay('scenarios/signals/paused-holder-renewals.yaml'));
    const json = JSON.parse(otlpJson(s.store.spans)) as unknown;
    const msg = request.fromObject(conform(json, request, 'request') as Record<string, unknown>);
    expect(request.verify(msg)).toBeNull();
    const back = request.toObject(request.decode(request.encode(msg).finish()), { longs: String, enums: String }) as {
      resourceSpans: {
        scopeSpans: {
          spans: {
            name: string;
            endTimeUnixNano: string;
            attributes: { key: string; value: Record<string, unknown> }[];
            status?: { code: string };
          }[];
        }[];
      }[];
    };
    const hb = back.resourceSpans.flatMap((r) =>
      r.scopeSpans.flatMap((x) => x.spans.filter((sp) => sp.name === 'lease.heartbeat')),
    );
    expect(hb).toHaveLength(2);
    expect(hb[0]!.attributes).toEqual([
      { key: 'lease.id', value: { stringValue: '19b76daa41801' } },
      { key: 'lease.ttl_s', value: { intValue: '9' } },
      { key: 'lease.fencing_revision', value: { intValue: '2' } },
    ]);
    expect(hb[0]!.endTimeUnixNano).toBe('17000000000');
    expect(hb[0]!.status?.code).toBe('STATUS_CODE_ERROR');
  });

  it('and the check can fail: an unknown key is refused', () => {
    expect(() =>
      conform({ resourceSpans: [{ scopeSpans: [{ spans: [{ spanName: 'x' }] }] }] }, request, 'request'),
    ).toThrow(/spanName is not a field of Span/);
  });
});
