/**
 * Which scenarios the real-etcd driver can replay faithfully. etcd 3.4.23 exposes only some of the
 * simulation's knobs as flags, and a loopback cluster without network namespaces cannot partition or
 * skew clocks; a file that needs any of that is refused up front, each reason naming the setting or the
 * step and its line, rather than replayed as something else.
 */
import { LineCounter, parseDocument, isMap, isScalar } from 'yaml';
import { formatDuration } from '../scenario/duration.js';
import type { Assertion, Scenario } from '../scenario/types.js';
import { realStep } from './real-steps.js';

/** The members the driver will run on a 2-core machine (the format allows up to 7). */
export const MAX_REAL_MEMBERS = 5;

/** etcd 3.4.23's fixed values for settings it has no flag for, with why each one is fixed. */
const FIXED: ReadonlyArray<{ key: string; ok: (s: Scenario) => boolean; shown: (s: Scenario) => string; why: string }> =
  [
    {
      key: 'checkpoint-interval',
      ok: (s) => s.cluster.checkpointIntervalUs === 300_000_000,
      shown: (s) => formatDuration(s.cluster.checkpointIntervalUs),
      why: 'etcd 3.4.23 has no flag for it; the lease checkpoint interval is fixed at 5m',
    },
    {
      key: 'revoke-rate',
      ok: (s) => s.cluster.revokeRatePerSecond === 1000,
      shown: (s) => String(s.cluster.revokeRatePerSecond),
      why: 'etcd 3.4.23 has no flag for it; leaseRevokeRate is fixed at 1000 per second',
    },
    {
      key: 'latency',
      ok: (s) => s.cluster.latencyUs === 1000,
      shown: (s) => formatDuration(s.cluster.latencyUs),
      why:
        'the members talk over loopback, whose delay cannot be set ' +
        'without network namespaces; only the default 1ms stands for it',
    },
    {
      key: 'fsync',
      ok: (s) => s.cluster.fsyncUs === 0,
      shown: (s) => formatDuration(s.cluster.fsyncUs),
      why: 'real etcd fsyncs to the real disk; an extra fsync delay cannot be injected',
    },
    {
      key: 'jitter',
      ok: (s) => s.cluster.jitterUs === 0,
      shown: (s) => formatDuration(s.cluster.jitterUs),
      why: 'network jitter cannot be injected on loopback without network namespaces',
    },
    {
      key: 'loss',
      ok: (s) => s.cluster.lossProbability === 0,
      shown: (s) => String(s.cluster.lossProbability),
      why: 'message loss cannot be injected on loopback without network namespaces',
    },
    {
      key: 'cluster-version',
      ok: (s) => s.cluster.clusterVersion === undefined,
      shown: (s) => s.cluster.clusterVersion ?? '',
      why: 'an etcd 3.4.23 cluster always runs at cluster version 3.4',
    },
    {
      key: 'expired-lease-retry',
      ok: (s) => s.cluster.expiredLeaseRetryUs === undefined,
      shown: (s) => formatDuration(s.cluster.expiredLeaseRetryUs ?? 0),
      why: 'etcd 3.4.23 has no flag for it',
    },
    {
      key: 'resume-order',
      ok: (s) => s.cluster.resumeOrder === 'seeded',
      shown: (s) => s.cluster.resumeOrder,
      why:
        "Go's scheduler picks the order on real etcd; declare `races: [{ race: resume-order, reason: … }]` " +
        'instead, and diff runs both branches',
    },
  ];

/** What the driver checks; any other assertion form is refused, as a step its table refuses is. */
const SUPPORTED_FORMS: ReadonlySet<string> = new Set<Assertion['form']>([
  'key-exists',
  'key-value',
  'key-revision',
  'key-create-revision',
  'key-version',
  'revision',
  'lease-exists',
  'lease-ttl',
  'lease-keys',
  'leader',
  'keepalive-alive',
  'leases-count',
  'answer',
]);

const UNSUPPORTED_FORMS: Partial<Record<Assertion['form'], string>> = {
  'lock-held': 'lock sessions are not driven on real etcd',
  'session-lock-held': 'concurrency sessions are not driven on real etcd',
  'election-leader': 'elections are not driven on real etcd',
  'election-observed': 'elections are not driven on real etcd',
  'lock-contenders': 'lock sessions are not driven on real etcd, so no lock keys are there to count',
  'session-done': 'concurrency sessions are not driven on real etcd',
  'resource-accepted': 'fenced resources exist only in the simulation',
  'resource-rejected': 'fenced resources exist only in the simulation',
  'expiry-queue': "a lessor's internal expiry queue is not observable from outside etcd",
  'keepalive-channel':
    "a named KeepAlive call is a clientv3 channel in the simulation's client; the driver's clients " +
    'are etcdctl lease keep-alive processes, which expose no channel',
  'alert-firing':
    "alerts are evaluated on the simulation's signals; the driver scrapes no metrics from the real cluster",
  'alert-lead': "alerts are evaluated on the simulation's signals; the driver scrapes no metrics from the real cluster",
  'metric-value': "metrics are the simulation's signals; the driver scrapes no metrics from the real cluster",
};

/** Every reason the driver refuses the scenario, as `file:line: ...`; empty when it can replay it. */
export function refusals(s: Scenario, text: string): string[] {
  const out: string[] = [];
  const where = settingLines(text);
  const at = (key: string): string => `${s.file}:${where.get(key) ?? 1}`;
  if (s.cluster.members > MAX_REAL_MEMBERS) {
    out.push(
      `${at('members')}: members: ${s.cluster.members} — the ` +
        `real-etcd driver runs at most ${MAX_REAL_MEMBERS} members`,
    );
  }
  for (const f of FIXED) {
    if (!f.ok(s))
      out.push(`${at(f.key)}: cluster setting ${f.key}: ${f.shown(s)} cannot be replayed on real etcd: ${f.why}`);
  }
  if (s.bugs.length > 0) {
    out.push(
      `${at('bugs')}: bugs: [${s.bugs.join(', ')}] cannot be replayed on ` +
        `real etcd: etcd 3.4.23 has the bugs it has, none can be switched on`,
    );
  }
  if ((s.fixes ?? []).length > 0) {
    out.push(
      `${at('fixes')}: fixes: [${s.fixes!.join(', ')}] cannot be replayed ` +
        `on real etcd: they are proposals, etcd 3.4.23 has none of them`,
    );
  }
  for (const step of s.steps) {
    if (step.kind !== 'expect') {
      const entry = realStep(step.kind);
      const why = 'refused' in entry ? entry.refused : entry.refuse?.(step);
      if (why !== undefined)
        out.push(`${s.file}:${step.pos.line}: step ${step.kind} cannot be replayed on real etcd: ${why}`);
    } else if (!SUPPORTED_FORMS.has(step.assertion.form)) {
      const why = UNSUPPORTED_FORMS[step.assertion.form] ?? 'the real-etcd driver has no request that answers it';
      out.push(`${s.file}:${step.pos.line}: expect ${step.assertion.form} cannot be checked on real etcd: ${why}`);
    }
  }
  return out;
}

/** Line of each key under `cluster:` (and of top-level `bugs`), for pointing at a refused setting. */
function settingLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc });
  const note = (key: unknown, prefix: string): void => {
    if (isScalar(key) && key.range !== undefined && key.range !== null)
      lines.set(`${prefix}${String(key.value)}`, lc.linePos(key.range[0]).line);
  };
  if (!isMap(doc.contents)) return lines;
  for (const item of doc.contents.items) {
    note(item.key, '');
    if (isScalar(item.key) && item.key.value === 'cluster' && isMap(item.value))
      for (const c of item.value.items) note(c.key, '');
  }
  return lines;
}
