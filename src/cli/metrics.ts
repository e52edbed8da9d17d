/**
 * `lessor-sim metrics FILE`: a run's signals in the formats monitoring tools read. Prometheus text at
 * one instant (--at, inside the run), the whole scraped series as OpenMetrics or JSON, the lease log as
 * JSON lines, spans as OTLP/JSON, the alert timeline, or a `promtool test rules` directory.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatSeconds, seconds, type Micros } from '../clock/time.js';
import { parseDuration } from '../scenario/duration.js';
import type { RunResult } from '../scenario/replay/runner.js';
import type { Scenario } from '../scenario/types.js';
import { alertLeads } from '../report/alert-leads.js';
import { evaluateAlerts, type AlertTimeline } from '../signals/alerts/evaluate.js';
import { promtoolFiles } from '../signals/alerts/promtool-file.js';
import { logLines } from '../signals/export/log-lines.js';
import { openMetrics } from '../signals/export/openmetrics.js';
import { otlpJson } from '../signals/export/otlp.js';
import { prometheusText } from '../signals/export/prometheus-text.js';
import { seriesJson } from '../signals/export/series-json.js';
import { recordSignals } from '../signals/recorder.js';
import { scrape } from '../signals/sample.js';
import { shellCommand } from '../report/terminal-text.js';

export const METRICS_FORMATS = ['prometheus', 'openmetrics', 'json', 'logs', 'otlp', 'alerts'] as const;
export type MetricsFormat = (typeof METRICS_FORMATS)[number];

export interface MetricsOptions {
  readonly format: string | undefined;
  readonly at: string | undefined;
  /** Write promtool's rules.yml and test.yml here instead of printing. */
  readonly promtoolDir: string | undefined;
  /** Rename the one etcd metric promtool's linter refuses (--promtool-clean). */
  readonly promtoolClean?: boolean;
}

/**
 * etcd 3.4/3.5 name their lease-TTL histogram `etcd_debugging_lease_ttl_total`, which `promtool check
 * metrics` refuses ("non-counter metrics should not have _total suffix"). By default the exposition keeps
 * etcd's name, so queries written against real etcd work; --promtool-clean drops the suffix for lint gates.
 */
const ETCD_TTL_HISTOGRAM = /\betcd_debugging_lease_ttl_total(?=_bucket|_sum|_count|_created|[\s{])/g;
export const PROMTOOL_CLEAN_TTL_HISTOGRAM = 'etcd_debugging_lease_ttl';

/** A refused option: the message for the user. */
export class MetricsUsageError extends Error {}

const DEFAULT_SCRAPE_US = seconds(1);

/** What the flags ask of a scenario's signals, checked against the file before it is replayed. */
export interface MetricsRequest {
  readonly format: MetricsFormat;
  /** The instant of a Prometheus exposition. */
  readonly atUs: Micros;
  readonly promtoolDir: string | undefined;
  readonly promtoolClean: boolean;
}

/** The flags checked against the scenario, before anything runs; a MetricsUsageError says what is wrong. */
export function metricsRequest(s: Scenario, opts: MetricsOptions): MetricsRequest {
  const format = (opts.format ?? 'prometheus') as MetricsFormat;
  if (!METRICS_FORMATS.includes(format))
    throw new MetricsUsageError(
      `--format takes one of ${METRICS_FORMATS.join(', ')}, got ${JSON.stringify(opts.format)}`,
    );
  if (opts.at !== undefined && format !== 'prometheus')
    throw new MetricsUsageError('--at goes with --format prometheus (the other formats cover the whole run)');
  if (opts.promtoolDir !== undefined && s.alerts === undefined)
    throw new MetricsUsageError(`--promtool: ${s.file} has no alerts section`);
  if (format === 'alerts' && s.alerts === undefined)
    throw new MetricsUsageError(`--format alerts: ${s.file} has no alerts section`);
  const promtoolClean = opts.promtoolClean === true;
  if (promtoolClean && ((format !== 'prometheus' && format !== 'openmetrics') || opts.promtoolDir !== undefined))
    throw new MetricsUsageError('--promtool-clean goes with --format prometheus or openmetrics, not --promtool');
  return { format, atUs: instant(opts.at, s.durationUs), promtoolDir: opts.promtoolDir, promtoolClean };
}

/** The output text (or the files written, for --promtool) of a replay the request was checked against. */
export function metricsCommand(r: RunResult, req: MetricsRequest): string {
  const { format } = req;
  const endUs = r.scenario.durationUs;
  const signals = recordSignals(r.trace.events, endUs);
  const scrapeUs = r.scenario.alerts?.scrapeIntervalUs ?? DEFAULT_SCRAPE_US;
  const group = r.scenario.alerts;
  if (req.promtoolDir !== undefined && group !== undefined) {
    const files = promtoolFiles(scrape(signals.store, group.scrapeIntervalUs, endUs), evaluateAlerts(signals, group));
    mkdirSync(req.promtoolDir, { recursive: true });
    writeFileSync(join(req.promtoolDir, 'rules.yml'), files.rules);
    writeFileSync(join(req.promtoolDir, 'test.yml'), files.test);
    return (
      `wrote ${join(req.promtoolDir, 'rules.yml')} and ${join(req.promtoolDir, 'test.yml')}` +
      `; check them with: ${shellCommand(['promtool', 'test', 'rules', join(req.promtoolDir, 'test.yml')])}\n`
    );
  }
  switch (format) {
    case 'prometheus':
      return clean(prometheusText(signals.store, req.atUs), req);
    case 'openmetrics':
      return clean(openMetrics(scrape(signals.store, scrapeUs, endUs)), req);
    case 'json':
      return `${seriesJson(scrape(signals.store, scrapeUs, endUs), scrapeUs)}\n`;
    case 'logs':
      return logLines(signals.store.logs);
    case 'otlp':
      return `${otlpJson(signals.store.spans)}\n`;
    case 'alerts':
      return group === undefined ? '' : alertReport(evaluateAlerts(signals, group), r);
  }
}

const clean = (text: string, req: MetricsRequest): string =>
  req.promtoolClean ? text.replace(ETCD_TTL_HISTOGRAM, PROMTOOL_CLEAN_TTL_HISTOGRAM) : text;

function instant(at: string | undefined, endUs: Micros): Micros {
  if (at === undefined) return endUs;
  const d = parseDuration(at);
  if (!d.ok) throw new MetricsUsageError(`--at: ${d.message}`);
  if (d.us > endUs)
    throw new MetricsUsageError(`--at ${at} is outside the run, which ends at ${formatSeconds(endUs)} s`);
  return d.us;
}

/** Each alert instance's life, then each rule's lead over every deleted key. */
function alertReport(tl: AlertTimeline, r: RunResult): string {
  const lines: string[] = [];
  for (const rule of tl.group.rules) {
    const mine = tl.instances.filter((a) => a.rule === rule.name);
    const err = tl.errors.get(rule.name);
    if (err !== undefined) lines.push(`${rule.name}: evaluation error: ${err}`);
    if (mine.length === 0) lines.push(`${rule.name}: never active`);
    for (const a of mine) {
      const { alertname: _, ...labels } = a.labels;
      const fired = a.firedAt === undefined ? 'never fired' : `fired ${formatSeconds(a.firedAt)} s`;
      const resolved =
        a.resolvedAt === undefined ? 'still active at the end' : `resolved ${formatSeconds(a.resolvedAt)} s`;
      lines.push(`${rule.name}${JSON.stringify(labels)}: active ${formatSeconds(a.activeAt)} s, ${fired}, ${resolved}`);
    }
  }
  lines.push(...alertLeads(r, tl));
  return lines.map((l) => `${l}\n`).join('');
}
