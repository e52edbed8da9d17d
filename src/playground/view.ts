/**
 * The state panels as HTML text: members, leases with their TTL bars, keys, clients. Pure functions of
 * a snapshot, so the page shows exactly what a test over the same snapshot reads. Buttons carry
 * `data-act` and the target's name; the page turns a click into an Action.
 */
import { MICROS_PER_SECOND, type Micros } from '../clock/time.js';
import { escapeHtml as h } from '../report/render/escape.js';
import { formatLeaseId } from '../trace/trace.js';
import type { RenewalInFlight } from './state-fold.js';
import { LISTED_LEASES, type LeaseState, type MemberState, type Snapshot } from './snapshot.js';

const secs = (us: Micros, digits = 1): string => `${(us / MICROS_PER_SECOND).toFixed(digits)} s`;
const btn = (act: string, attrs: Record<string, string>, label: string, title: string): string =>
  `<button data-act="${h(act)}"${Object.entries(attrs)
    .map(([k, v]) => ` data-${k}="${h(v)}"`)
    .join('')} title="${h(title)}">${h(label)}</button>`;

export function membersHtml(s: Snapshot): string {
  return s.members.map((m) => memberCard(m, s)).join('');
}

function memberCard(m: MemberState, s: Snapshot): string {
  const lessor =
    m.status === 'crashed' ? 'down' : m.primary ? 'primary lessor' : 'demoted lessor (every lease at forever)';
  const acts =
    m.status === 'crashed'
      ? btn('restart', { member: m.name }, 'restart', 'start it again from what it persisted')
      : [
          m.status === 'paused'
            ? btn('resume', { member: m.name }, 'resume', 'SIGCONT')
            : btn('pause', { member: m.name }, 'pause', 'SIGSTOP: the member stops doing anything'),
          btn('crash', { member: m.name }, 'crash', 'stop it; volatile state is lost'),
          m.role === 'leader'
            ? ''
            : btn('transfer-leader', { to: m.name }, 'make leader', 'etcdctl move-leader to this member'),
          btn('isolate', { member: m.name }, 'isolate', 'partition it from the other members'),
        ].join('');
  const select = `data-member="${h(m.name)}" data-select="member:${h(m.name)}"`;
  const role = h(m.status === 'crashed' ? 'crashed' : m.role);
  const tag = m.status === 'paused' ? ' <span class="tag">paused</span>' : '';
  return `<div class="card member ${h(m.status)} role-${h(m.role)}" ${select}>
<div class="title"><b>${h(m.name)}</b> <span class="role">${role}</span>${tag}</div>
<div class="facts">${m.status === 'crashed' ? 'last term' : 'term'} ${m.term}<br>${h(lessor)}\
${m.name === s.primary ? ' ★' : ''}</div>
<div class="acts">${acts}</div></div>`;
}

export function leasesHtml(s: Snapshot): string {
  if (s.leaseCount === 0) return '<p class="none">no leases</p>';
  const rows = s.leases.map((l) => leaseRow(l, s)).join('');
  const more =
    s.leaseCount > LISTED_LEASES ? `<p class="none">… and ${s.leaseCount - LISTED_LEASES} more leases</p>` : '';
  return rows + more;
}

function leaseRow(l: LeaseState, s: Snapshot): string {
  const name = l.label !== undefined ? `${l.label} (${l.hex})` : l.hex;
  const ttlUs = l.ttl * MICROS_PER_SECOND;
  let bar: string;
  let left: string;
  if (l.remainingUs === undefined) {
    bar = '<div class="bar forever"></div>';
    left = 'forever: no primary lessor';
  } else {
    const share = Math.max(0, Math.min(1, l.remainingUs / ttlUs));
    bar =
      `<div class="bar"><div class="fill${share < 0.34 ? ' low' : ''}" ` +
      `style="width:${(share * 100).toFixed(1)}%"></div>`;
    if (l.beforeLeaderChangeUs !== undefined) {
      const was = Math.max(0, Math.min(1, (l.beforeLeaderChangeUs - s.t) / ttlUs));
      bar +=
        `<div class="was" style="left:${(was * 100).toFixed(1)}%" title="deadline before the leader ` +
        `change"></div>`;
    }
    bar += '</div>';
    left =
      l.remainingUs > 0
        ? `${secs(l.remainingUs)} left, expires at ${secs(l.expiryUs!, 3)}`
        : `expired ${secs(-l.remainingUs)} ago, awaiting the run loop`;
    if (l.beforeLeaderChangeUs !== undefined)
      left += `; before the leader change it was ${secs(l.beforeLeaderChangeUs, 3)}`;
  }
  const label = l.label ?? l.hex;
  const acts =
    btn('keepalive', { lease: label }, 'keep alive (c1)', 'c1 starts a KeepAlive stream') +
    btn('keepalive-stop', { lease: label }, 'stop keep-alive', 'c1 cancels its keep-alive') +
    btn('put', { lease: label }, 'attach key', 'put a key with this lease') +
    btn('revoke', { lease: label }, 'revoke', 'LeaseRevoke');
  return `<div class="lease" data-lease="${h(label)}" data-select="lease:${h(formatLeaseId(l.id))}">
<div class="lname"><b>${h(name)}</b> TTL ${l.ttl} s${l.keys.length > 0 ? ` · keys ${h(l.keys.join(', '))}` : ''}</div>
${bar}<div class="left">${h(left)}</div>
<div class="acts">${acts}</div></div>`;
}

export function keysHtml(s: Snapshot): string {
  if (s.keys.length === 0) return `<p class="none">no keys (revision ${s.revision})</p>`;
  const rows = s.keys
    .map(
      (k) =>
        `<tr data-key="${h(k.key)}"><td>${h(k.key)}</td><td>` +
        `${k.lease === 0n ? '-' : h(k.label ?? formatLeaseId(k.lease))}</td><td>${k.modRevision}</td></tr>`,
    )
    .join('');
  return (
    `<table><tr><th>key</th><th>lease</th><th>mod rev</th></tr>${rows}</table><p class="none">revision ` +
    `${s.revision}</p>`
  );
}

export function clientsHtml(s: Snapshot): string {
  if (s.clients.length === 0) return '<p class="none">no clients yet</p>';
  return s.clients
    .map((c) => {
      const streams = c.keepAlives
        .map(
          (k) =>
            `<span class="ka ${k.alive ? 'alive' : 'lost'}">${h(formatLeaseId(k.lease))} ` +
            `${k.alive ? 'alive' : 'closed'}</span>`,
        )
        .join(' ');
      const act = c.paused
        ? btn('resume-client', { client: c.name }, 'resume', 'SIGCONT')
        : btn('pause-client', { client: c.name }, 'GC pause 12 s', 'kill -STOP for 12 s');
      return (
        `<div class="card client${c.paused ? ' paused' : ''}" ` +
        `data-client="${h(c.name)}"><b>${h(c.name)}</b>${c.paused ? ' <span class="tag">paused</span>' : ''} ` +
        `${streams || 'no keep-alives'} <span class="acts">${act}</span></div>`
      );
    })
    .join('');
}

/** Renewals in flight, and the lease and key writes the primary applied last (raft entries as they commit). */
export function flowHtml(s: Snapshot, inFlight: readonly RenewalInFlight[], commits: readonly string[]): string {
  const shown = inFlight.slice(0, 12);
  const more = inFlight.length > shown.length ? `<li>… ${inFlight.length - shown.length} more</li>` : '';
  const renewals =
    shown.length === 0
      ? '<p class="none">no renewal in flight</p>'
      : `<ul class="flow">${shown
          .map((f) => {
            const via =
              s.primary !== undefined && f.endpoint !== s.primary ? ` → forwarded to the leader ${s.primary}` : '';
            return (
              `<li>${h(f.client)} → ${h(f.endpoint)}${h(via)}: renew ` +
              `${h(f.label ?? formatLeaseId(f.lease))}, sent ${secs(s.t - f.sentUs, 3)} ago</li>`
            );
          })
          .join('')}${more}</ul>`;
  const applied =
    commits.length === 0 ? '<p class="none">nothing applied yet</p>' : `<pre>${h(commits.join('\n'))}</pre>`;
  return `<h3>renewals in flight</h3>${renewals}<h3>applied on the primary (raft entries)</h3>${applied}`;
}
