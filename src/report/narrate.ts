import { formatSecondsShort, formatTimeColumn } from '../clock/time.js';
import type { RunResult } from '../scenario/replay/runner.js';
import type { Step } from '../scenario/types.js';
import { fieldsOf, formatExpiry, formatLeaseId, styledField, type TraceEvent } from '../trace/trace.js';
import { describeStep } from '../scenario/step-kinds.js';

export interface NarrateOptions {
  /** Also show client sends/receives, follower applies and the bootstrap before time 0. */
  readonly verbose?: boolean;
}

/** Events that happen on every member at apply time: narrated once, from the leader. */
const REPLICATED = new Set([
  'lease-grant',
  'lease-revoke',
  'lease-checkpoint',
  'kv-put',
  'kv-delete',
  'lease-attach',
  'lease-detach',
]);

/**
 * The replay as a story: one line per step, lease event, leadership change, fault and verdict, in time
 * order. Built from the trace only, so it tells what the simulation did, not what the file asked for.
 */
export function narrate(result: RunResult, opts: NarrateOptions = {}): string[] {
  const { labels } = result;
  const stepsByLine = new Map<number, Step>(result.scenario.steps.map((s) => [s.pos.line, s]));
  const name = (id: bigint | undefined): string => {
    if (id === undefined) return '?';
    const label = labels.labelOf(id);
    return label === undefined ? formatLeaseId(id) : `${label} (${formatLeaseId(id)})`;
  };
  const short = (id: bigint | undefined): string =>
    id === undefined ? '?' : (labels.labelOf(id) ?? formatLeaseId(id));
  let leader: string | undefined;
  const out: string[] = [];
  for (const e of result.trace.events) {
    if (e.kind === 'raft-leader' && e.member === e.fields.leader) leader = e.member;
    if (e.t < 0 && opts.verbose !== true) continue;
    if (REPLICATED.has(e.kind) && e.member !== leader && opts.verbose !== true) continue;
    const text = describe(e, stepsByLine, name, short, opts.verbose === true);
    if (text !== undefined) out.push(`${formatTimeColumn(e.t)}  ${e.member.padEnd(7)} ${text}`);
  }
  return out;
}

function describe(
  e: TraceEvent,
  steps: Map<number, Step>,
  name: (id: bigint | undefined) => string,
  short: (id: bigint | undefined) => string,
  verbose: boolean,
): string | undefined {
  switch (e.kind) {
    case 'step': {
      const s = steps.get(e.fields.line);
      return `▶ line ${e.fields.line}: ${s === undefined ? e.fields.action : describeStep(s)}`;
    }
    case 'step-error':
      return `✗ step ${e.fields.op} could not run: ${e.fields.message}`;
    case 'expect-pass':
      return `✔ PASS line ${e.fields.line}: ${e.fields.expect} (${e.fields.got})`;
    case 'expect-fail':
      return `✘ FAIL line ${e.fields.line}: ${e.fields.expect} — got ${e.fields.got}`;
    case 'ctl-granted':
      return `granted ${name(e.lease)}, TTL ${e.fields.ttl} s`;
    case 'ctl-error':
      return `${e.fields.op} failed: ${e.fields.err}`;
    case 'ctl-answer':
      return (
        `answer ${e.fields.name} (${e.fields.op}): ${e.fields.err ?? 'ok'}` +
        ` after ${formatSecondsShort(e.fields.took)} s`
      );
    case 'app-start':
      return `program started: ${e.fields.command}`;
    case 'app-output':
      return `${e.fields.stream === 'stderr' ? '!' : '|'} ${e.fields.text}`;
    case 'app-exit': {
      const f = e.fields;
      const how = f.signal !== undefined ? `killed by ${f.signal}` : `exited with code ${String(f.code)}`;
      return `program ${how}${f.by === 'harness' ? ' (ended by the harness)' : ''}`;
    }
    case 'app-signal':
      return `program gets ${e.fields.signal}`;
    case 'app-restart':
      return 'program restarts (killed if running, then started again)';
    case 'app-cut':
      return `program cut off from ${e.fields.from.join(', ')}`;
    case 'app-heal':
      return `program reaches ${e.fields.to.join(', ')} again`;
    case 'served-call':
      return `${e.fields.method} to ${e.fields.to} (served call ${e.fields.call})`;
    case 'served-answer':
      return `${e.fields.method} answered${e.fields.err !== undefined ? `: ${e.fields.err}` : ''}`;
    case 'served-fault':
      return `▶ live view: ${e.fields.action}${e.fields.member !== undefined ? ` ${e.fields.member}` : ''}`;
    case 'ctl-ok':
      return e.fields.op === 'put'
        ? `put ${e.fields.key} done at revision ${e.fields.rev} (the fencing token)`
        : `${e.fields.op} ok${fieldsText(fieldsOf(e), ['op'])}`;
    case 'lease-grant': {
      const expires = formatExpiry(e.fields.expiry);
      return `lease ${short(e.lease)} granted with TTL ${e.fields.ttl} s, expires at ${expires} s`;
    }
    case 'lease-renew': {
      const expires = formatExpiry(e.fields.expiry);
      return `lease ${short(e.lease)} renewed: TTL ${e.fields.ttl} s, now expires at ${expires} s`;
    }
    case 'lease-renew-wait':
      return `renew of ${short(e.lease)} waits: the lease has expired and its revoke is pending`;
    case 'lease-checkpoint':
      return `lease ${short(e.lease)} checkpointed: ${e.fields.remaining} s remaining (used by the next Promote)`;
    case 'lease-expired':
      return (
        `lease ${short(e.lease)} expired (expiry ${formatExpiry(e.fields.expiry)}` +
        ` s); the run loop offers it for revocation`
      );
    case 'lease-revoke': {
      const keys = e.fields.keys;
      return `lease ${short(e.lease)} revoked${keys.length > 0 ? `: deleted ${keys.join(', ')}` : ' (no keys)'}`;
    }
    case 'server-expired-revoke':
      return e.fields.ok
        ? undefined
        : `revoke of expired lease ${short(e.lease)} failed: ${e.fields.err} (retried after the retry interval)`;
    case 'server-expired-revoke-skipped':
      return `skipped revoking ${e.fields.count} expired leases: leadership not confirmed`;
    case 'server-checkpoint-refused':
      return `refused to checkpoint ${e.fields.count} leases: leadership not confirmed`;
    case 'lessor-promote':
      return (
        `lessor promoted: ${e.fields.leases} leases get remaining TTL + ` +
        `${formatSecondsShort(e.fields.extend)} s${
          e.fields.spread > 0 ? `; ${e.fields.spread} spread out to avoid a revoke storm` : ''
        }`
      );
    case 'lessor-demote':
      return `lessor demoted: its ${e.fields.leases} leases no longer expire here`;
    case 'lessor-expired-dropped':
      return `expired batch of ${e.fields.count} dropped: the revoke channel is full`;
    case 'raft-leader':
      return e.member === e.fields.leader
        ? `became leader (term ${e.fields.term})`
        : verbose
          ? `follows ${e.fields.leader} (term ${e.fields.term})`
          : undefined;
    case 'raft-step-down':
      return `stepped down (${e.fields.reason})`;
    case 'member-crash':
      return 'crashed (SIGKILL): volatile state lost';
    case 'member-restart':
      return 'restarted from its WAL and backend';
    case 'server-tick-advance':
      return `fast-forwarded ${e.fields.ticks} election ticks (${e.fields.peers} active peers)`;
    case 'member-pause':
      return 'paused (SIGSTOP)';
    case 'member-resume':
      return e.fields.order === 'input-first'
        ? 'resumed (SIGCONT): held timers fire now; the raft loop reads the waiting peer messages before ' +
            'their proposals'
        : 'resumed (SIGCONT): held timers fire now, and what they propose before the raft loop reads the ' +
            'waiting peer messages';
    case 'member-clock-jump':
      return `wall clock jumped ${formatSecondsShort(e.fields.delta)} s (monotonic clock unchanged)`;
    case 'net-partition':
      return `network partitioned: ${e.fields.groups.map((g) => `{${g.join(',')}}`).join(' ')}`;
    case 'net-heal':
      return 'network healed';
    case 'client-pause':
      return 'client paused (GC pause / SIGSTOP)';
    case 'client-resume':
      return 'client resumed';
    case 'client-keepalive-closed':
      return `keep-alive channel for ${short(e.lease)} closed (${e.fields.reason})`;
    case 'client-keepalive-recv':
      return verbose ? `keep-alive answer for ${short(e.lease)}: TTL ${e.fields.ttl}` : undefined;
    case 'client-keepalive-send':
      return verbose ? `keep-alive sent for ${short(e.lease)}` : undefined;
    case 'client-lock-acquired':
      return `acquired lock ${e.fields.name} (fencing token ${e.fields.rev})`;
    case 'client-elected':
      return `elected in ${e.fields.name} (candidate revision ${e.fields.rev})`;
    case 'client-observed':
      return `observed the leader of ${e.fields.name}: ${JSON.stringify(e.fields.value)}`;
    case 'client-unlock':
      return `released lock ${e.fields.name}`;
    case 'client-fenced-write':
      return (
        `write to ${e.fields.resource} with token ${e.fields.token}` +
        `: ${e.fields.accepted ? 'accepted' : 'REJECTED (stale token)'}`
      );
    case 'client-error':
      return `${e.fields.op} failed: ${e.fields.err}`;
    case 'holder-acquired':
      return `holder acquired ${e.fields.key} with lease ${short(e.lease)} (fencing token ${e.fields.token}): it acts`;
    case 'holder-noticed':
      return `holder noticed ${e.fields.signal}: ${e.fields.verdict}`;
    case 'holder-stop':
      return `holder stops acting (${e.fields.reason})`;
    case 'holder-revoked':
      return `truth: the holder's lease ${short(e.lease)} is revoked`;
    case 'holder-failed':
      return `holder threw: ${e.fields.error}`;
    case 'client-session-done':
      return `session for ${short(e.lease)} ended (${e.fields.reason})`;
    default:
      return verbose ? `${e.kind}${fieldsText(fieldsOf(e), [])}` : undefined;
  }
}

function fieldsText(f: Readonly<Record<string, unknown>>, skip: readonly string[]): string {
  const parts = Object.entries(f)
    .filter(([k]) => !skip.includes(k))
    .map(([k, v]) => `${k}=${styledField(k, v) ?? (Array.isArray(v) ? v.join(',') : String(v))}`);
  return parts.length === 0 ? '' : ` (${parts.join(' ')})`;
}
