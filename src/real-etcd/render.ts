/** The side-by-side report of one file's diff: assertions, lease events, notes, wall times, verdict. */
import { formatSecondsMs, type Micros } from '../clock/time.js';
import type { EventPair } from './compare.js';
import type { FileDiff } from './diff-file.js';
import { ALL_TOLERANCES, TTL_VALUE_SLACK_SECONDS } from './tolerances.js';

const signed = (us: Micros): string => `${us >= 0 ? '+' : '−'}${formatSecondsMs(Math.abs(us))}`;
const verdictText = (v: { pass: boolean; got: string } | undefined): string =>
  v === undefined ? '(not evaluated)' : `${v.pass ? 'PASS' : 'FAIL'} ${v.got}`;

/** Printed once per `diff` run: what "within tolerance" means. */
export function toleranceLines(): string[] {
  return [
    'tolerances (Δ = etcd − simulation, seconds):',
    ...ALL_TOLERANCES.map(([what, t]) => `  ${what.padEnd(24)} ±${formatSecondsMs(t.us)}  ${t.why}`),
    `  ${'TimeToLive values'.padEnd(24)} ±${TTL_VALUE_SLACK_SECONDS} s     whole seconds truncated toward zero`,
  ];
}

function eventLine(e: EventPair, expectedAt: number | undefined): string {
  const subject = `${e.subject}${e.nth > 1 || e.kind === 'renew' ? ` #${e.nth}` : ''}`;
  const at = (o: EventPair['sim']): string => (o === undefined ? '—' : formatSecondsMs(o.tUs));
  const value = (o: EventPair['sim']): string => (o?.value === undefined ? '' : `=${o.value}`);
  let status: string;
  if (e.sim === undefined) status = 'ONLY ON ETCD';
  else if (e.real === undefined) status = 'ONLY IN SIMULATION';
  else if (!e.valuesAgree) status = `VALUES DIFFER (${e.sim.value} vs ${e.real.value})`;
  else status = e.within ? 'ok' : 'OUTSIDE TOLERANCE';
  if (!e.within) status += expectedAt === undefined ? ': UNEXPECTED' : `: expected (line ${expectedAt})`;
  const cause = e.sim?.cause === 'expiry' ? ' (expiry)' : '';
  return (
    `  ${e.kind.padEnd(7)} ${subject.padEnd(28)} ${(at(e.sim) + value(e.sim)).padStart(14)}` +
    ` ${(at(e.real) + value(e.real)).padStart(14)} ` +
    `${(e.deltaUs === undefined ? '' : signed(e.deltaUs)).padStart(8)}` +
    `  ±${formatSecondsMs(e.tolerance.us)}  ${status}${cause}`
  );
}

const VERDICT_TEXT: Record<FileDiff['verdict'], string> = {
  agree: 'AGREE',
  disagree: 'DISAGREE',
  'timing-under-load': 'DISAGREE ON TIMING ONLY, HOST BUSY (exit 5; run again on a quiet host)',
};

export function renderFileDiff(d: FileDiff): string[] {
  const out: string[] = [];
  out.push(
    `== ${d.name} (${d.file}): ${d.members} member${d.members === 1 ? '' : 's'}` +
      `, simulation profile v3.4 vs etcd ${d.etcdVersion}`,
  );
  for (const n of d.simNotes) out.push(`   note: ${n}`);
  if (d.race !== undefined) {
    const r = d.race;
    const others = r.others
      .map((o) => {
        const how = o.agree ? 'agrees too' : `${o.assertionsAgreeing} of ${d.assertions.length} assertions agree`;
        return `${o.branch}: ${how}`;
      })
      .join('; ');
    out.push(
      `   race ${r.declared.race} (declared at line ${r.declared.line}): the simulation ran every branch; ` +
        `${d.agree ? 'etcd matched' : 'none agrees; closest is'} the ${r.branch} branch, compared below (${others})`,
    );
    out.push(`     reason: ${r.declared.reason}`);
  }
  out.push('assertions (at, line, what: simulation | etcd):');
  for (const a of d.assertions) {
    const late =
      a.real !== undefined && a.real.lateUs > 50_000 ? ` (read ${formatSecondsMs(a.real.lateUs)} s late)` : '';
    out.push(`  ${formatSecondsMs(a.atUs).padStart(8)} s  line ${String(a.line).padEnd(4)} ${a.text}`);
    out.push(
      `      simulation: ${verdictText(a.sim).padEnd(40)} etcd: ` +
        `${verdictText(a.real)}${late}  ${a.agree ? 'agree' : 'DISAGREE'}`,
    );
  }
  out.push('lease events (seconds since time 0, =value: TTL, revision or count):');
  out.push(
    `  ${'kind'.padEnd(7)} ${'subject'.padEnd(28)} ${'simulation'.padStart(14)}` +
      ` ${'etcd'.padStart(14)} ${'Δ'.padStart(8)}  tolerance`,
  );
  const declaredAt = new Map(d.expected.map((x) => [x.event, x.difference.line]));
  for (const e of d.events) out.push(eventLine(e, declaredAt.get(e)));
  if (d.events.length === 0) out.push('  (none)');
  const shown = [...new Set(d.expected.map((x) => x.difference))];
  if (shown.length > 0 || d.unmatched.length > 0) {
    out.push('expected differences (declared in the file):');
    for (const x of shown)
      out.push(`  line ${x.line}: ${x.kind} ${x.subject}${x.nth !== undefined ? ` #${x.nth}` : ''}: ${x.reason}`);
    for (const x of d.unmatched)
      out.push(
        `  line ${x.line}: ${x.kind} ${x.subject}${x.nth !== undefined ? ` #${x.nth}` : ''}: did not differ this run`,
      );
  }
  if (d.realNotes.length > 0) {
    out.push('notes from the etcd run:');
    for (const n of d.realNotes) out.push(`  ${n}`);
  }
  const ratio = d.simWallUs > 0 ? (d.clusterStartUs + d.realReplayUs) / d.simWallUs : Infinity;
  out.push(
    `wall time: etcd ${formatSecondsMs(d.clusterStartUs + d.realReplayUs)} s (cluster start ` +
      `${formatSecondsMs(d.clusterStartUs)} s + replay ${formatSecondsMs(d.realReplayUs)} s), ` +
      `simulation ${formatSecondsMs(d.simWallUs)} s: etcd/simulation ` +
      `${Number.isFinite(ratio) ? ratio.toFixed(0) : '∞'}×`,
  );
  const l = d.load;
  out.push(
    `host load (the driver's 50 ms timer while etcd ran): lag p50 ${formatSecondsMs(l.p50LagUs)} s, ` +
      `p95 ${formatSecondsMs(l.p95LagUs)} s, max ${formatSecondsMs(l.maxLagUs)} s over ${l.samples} samples; ` +
      `load average ${l.loadAverage.toFixed(1)} on ${l.cores} cores: ${l.busy ? 'BUSY' : 'quiet'}`,
  );
  const agreeing = d.assertions.filter((a) => a.agree).length;
  const largest =
    d.largest === undefined
      ? 'no paired events'
      : `largest |Δ| ${formatSecondsMs(Math.abs(d.largest.deltaUs!))} s (${d.largest.kind} ${d.largest.subject})`;
  const n = (k: number, what: string): string => `${k} ${what}${k === 1 ? '' : 's'}`;
  out.push(
    `result: ${VERDICT_TEXT[d.verdict]}: ${agreeing} of ${d.assertions.length} assertions agree; ${largest}; ` +
      `${n(d.eventsOutside.length, 'event')} outside tolerance or unpaired (` +
      `${d.unexpected.length} unexpected, ${d.expected.length} declared expected)`,
  );
  return out;
}
