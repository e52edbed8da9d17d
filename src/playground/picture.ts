/**
 * The cluster as a picture (after RaftScope): members as nodes in a ring, clients to their left, leases
 * as rings that drain and refill, and the messages of the instant travelling along the links, all as one
 * SVG string, a pure function of the instant. Each message element carries its endpoints and its send
 * and arrival times (`data-*`), so a test reads off the page exactly what the learner sees.
 */
import { MICROS_PER_SECOND, type Micros } from '../clock/time.js';
import { escapeHtml as h } from '../report/render/escape.js';
import { linked, type FaultBook } from './faults.js';
import type { LeaseState, MemberState, Snapshot } from './snapshot.js';
import type { WireLog, WireMessage } from './wire-log.js';

export interface PictureInput {
  readonly snap: Snapshot;
  readonly wire: WireLog;
  readonly faults: FaultBook;
  /** How long after its arrival a message stays drawn (fading), so fast play still shows the traffic. */
  readonly lingerUs: Micros;
  /** Drop heartbeats (at high speed they are a blur that hides the lease traffic). */
  readonly thinHeartbeats: boolean;
  /** Raft's tick (the heartbeat interval): the election clock counts these. */
  readonly tickUs: Micros;
  /** Every lease's share of its TTL left (-1: frozen), for the grid a storm of leases is drawn as. */
  readonly leaseFills?: Float32Array;
}

export const RUN_LOOP_US = 500_000;
/** At most this many messages drawn in one frame; per link and kind only the newest few. */
const MAX_DRAWN = 60;
const PER_LINK_KIND = 2;
const LEASE_RINGS = 6;

const W = 760;
const H = 330;
const CENTER = { x: 400, y: 178 };
const RING = 108;
const NODE_R = 44;

interface Point {
  readonly x: number;
  readonly y: number;
}

/** A message's colour and its label on the picture (a short name a learner can read). */
export function messageStyle(m: WireMessage): { readonly color: string; readonly label: string; readonly r: number } {
  const carries = (m.carries ?? []).filter((c) => c !== 'empty');
  switch (m.kind) {
    case 'keepalive':
      return { color: '#1a7f37', label: 'keep-alive', r: 6 };
    case 'keepalive-answer':
      return { color: '#4ac26b', label: 'TTL answer', r: 6 };
    case 'renew-forward':
      return { color: '#bf3989', label: 'renew → leader', r: 6 };
    case 'renew-forward-answer':
      return { color: '#e85aad', label: 'renewed', r: 6 };
    case 'proposal-forward':
      return { color: '#8250df', label: `${carries.join('+')} → leader`, r: 6 };
    case 'MsgApp':
      return carries.length > 0
        ? { color: '#8250df', label: carries.join('+'), r: 7 }
        : { color: '#0969da', label: 'append', r: 4 };
    case 'MsgAppResp':
      return { color: '#54aeff', label: '', r: 3 };
    case 'MsgHeartbeat':
    case 'MsgHeartbeatResp':
      return { color: '#8c959f', label: '', r: 3 };
    case 'MsgVote':
    case 'MsgPreVote':
      return { color: '#bc4c00', label: m.kind === 'MsgVote' ? 'vote for me?' : 'pre-vote?', r: 6 };
    case 'MsgVoteResp':
    case 'MsgPreVoteResp':
      return { color: '#fb8f44', label: 'vote', r: 5 };
    case 'MsgTimeoutNow':
      return { color: '#bc4c00', label: 'take over now', r: 6 };
    case 'request':
      return { color: '#57606a', label: carries.join('+'), r: 5 };
    case 'answer':
      return { color: '#8c959f', label: '', r: 4 };
    default:
      return { color: '#8c959f', label: '', r: 3 };
  }
}

/**
 * The picture's layers, bottom to top: each is redrawn only when its own text changes. The nodes (and
 * links) sit in a back SVG of their own, so redrawing what moves above them does not repaint them.
 */
export const BACK_LAYERS = ['nodes'] as const;
export const FRONT_LAYERS = ['timers', 'messages', 'leases'] as const;
export const PICTURE_LAYERS = [...BACK_LAYERS, ...FRONT_LAYERS] as const;
/** Each layer's markup, but for the messages: those come as marks, each element kept and moved frame to frame. */
export type PictureLayers = Record<Exclude<(typeof PICTURE_LAYERS)[number], 'messages'>, string> & {
  readonly messages: readonly MessageMark[];
};

/** The two SVGs, stacked, with an empty group per layer; only the back one defines the hatch pattern. */
export function pictureFrame(): string {
  const label = 'role="img" aria-label="the cluster: members, clients, leases and the messages between them"';
  const svg = (cls: string, defs: string, layers: readonly string[]): string =>
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" class="${cls}" ` +
    `${cls === 'back' ? label : 'aria-hidden="true"'}>` +
    defs +
    layers.map((l) => `<g data-layer="${l}"></g>`).join('') +
    '</svg>';
  return (
    '<div class="pic-stack">' +
    svg(
      'back',
      '<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">' +
        '<rect width="6" height="6" fill="#e6e6e6"/><rect width="3" height="6" fill="#d0d0d0"/></pattern></defs>',
      BACK_LAYERS,
    ) +
    svg('front', '', FRONT_LAYERS) +
    '</div>'
  );
}

export function pictureLayers(p: PictureInput): PictureLayers {
  const s = p.snap;
  const members = s.members.map((m) => m.name);
  const clients = [...p.wire.endpoints].filter((e) => !members.includes(e)).sort();
  const at = new Map<string, Point>();
  members.forEach((name, i) => {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / members.length;
    at.set(name, { x: CENTER.x + RING * Math.cos(a), y: CENTER.y + RING * Math.sin(a) });
  });
  clients.forEach((name, i) => {
    at.set(name, { x: 70, y: 40 + ((H - 80) * (i + 0.5)) / Math.max(1, clients.length) });
  });

  const groups = p.faults.groupsAt(s.t);
  const nodes: string[] = [];
  // Links between members: cut (red, dashed) where a partition separates them.
  for (let i = 0; i < members.length; i++)
    for (let j = i + 1; j < members.length; j++) {
      const a = at.get(members[i]!)!;
      const b = at.get(members[j]!)!;
      const ok = linked(groups, members[i]!, members[j]!);
      nodes.push(
        `<line class="link${ok ? '' : ' cut'}" data-a="${members[i]}" data-b="${members[j]}" x1="${f(a.x)}" ` +
          `y1="${f(a.y)}" x2="${f(b.x)}" y2="${f(b.y)}" stroke="${ok ? '#d0d7de' : '#cf222e'}" stroke-width="2"` +
          `${ok ? '' : ' stroke-dasharray="6 5"'}/>`,
      );
      if (!ok) nodes.push(text((a.x + b.x) / 2, (a.y + b.y) / 2 + 5, '✂ cut', 13, '#cf222e', 'middle'));
    }
  // Many clients share the column: their boxes shrink to fit (and drop their second line) instead of overlapping.
  const boxH = Math.min(32, Math.floor((H - 80) / Math.max(1, clients.length)) - 3);
  for (const c of clients) nodes.push(clientNode(c, at.get(c)!, s, boxH));
  for (const m of s.members) nodes.push(memberNode(m, at.get(m.name)!, s, p));
  if (p.wire.truncated)
    nodes.push(text(W - 8, H - 8, 'too many messages: only the first part is drawn', 11, '#82071e', 'end'));
  const timers = s.members.map((m) => timerRing(m, at.get(m.name)!, s, p));
  timers.push(text(8, H - 8, `${(s.t / MICROS_PER_SECOND).toFixed(3)} s`, 12, '#57606a', 'start'));
  return {
    nodes: nodes.join(''),
    timers: timers.join(''),
    messages: messageMarks(p, at),
    leases: leaseRings(s, p.leaseFills),
  };
}

function memberNode(m: MemberState, c: Point, s: Snapshot, p: PictureInput): string {
  const crashed = m.status === 'crashed';
  const paused = m.status === 'paused';
  const fill = crashed
    ? '#d0d7de'
    : paused
      ? 'url(#hatch)'
      : m.role === 'leader'
        ? '#dafbe1'
        : m.role === 'candidate'
          ? '#fff1e5'
          : '#ddf4ff';
  const stroke =
    crashed || paused ? '#8c959f' : m.role === 'leader' ? '#1a7f37' : m.role === 'candidate' ? '#bc4c00' : '#0969da';
  const out: string[] = [`<g class="node member ${h(m.status)} role-${h(m.role)}" data-node="${h(m.name)}">`];
  out.push(
    `<circle cx="${f(c.x)}" cy="${f(c.y)}" r="${NODE_R}" fill="${fill}" stroke="${stroke}" ` +
      `stroke-width="${m.name === s.primary ? 4 : 2}"` +
      `${crashed ? ' opacity="0.6"' : ''}/>`,
  );
  const ink = crashed || paused ? '#57606a' : '#1f2328';
  const lines = crashed
    ? ['crashed', `last term ${m.term}`]
    : [paused ? `${m.role}, paused` : m.role, `term ${m.term}`, m.primary ? 'primary lessor' : 'demoted lessor'];
  out.push(text(c.x, c.y - 14, m.name, 15, ink, 'middle', true));
  lines.forEach((l, i) => {
    out.push(text(c.x, c.y + 2 + i * 12, l, 9.5, ink, 'middle'));
  });
  if (paused) {
    const since = p.faults.pausedSince(m.name, s.t);
    const backlog = since === undefined ? 0 : p.wire.arrivedBetween(m.name, since, s.t);
    out.push(
      `<text class="backlog" x="${f(c.x)}" y="${f(c.y + NODE_R + 26)}" font-size="11" fill="#82071e" ` +
        `text-anchor="middle" data-backlog="${backlog}">${backlog} messages waiting</text>`,
    );
  }
  out.push('</g>');
  return out.join('');
}

/**
 * Around the primary: its run loop's 500 ms, filling up to the next pass (a flash right after one).
 * Around a running follower or candidate: raft's election clock, the ticks elapsed since it last heard a
 * leader (or started campaigning) against the timeout it drew at random, running on between ticks.
 */
function timerRing(m: MemberState, c: Point, s: Snapshot, p: PictureInput): string {
  if (m.status !== 'running') return '';
  const r = NODE_R + 8;
  if (m.name === s.primary) {
    const last = p.wire.lastPass(m.name, s.t);
    if (last === undefined) return '';
    const since = s.t - last;
    const flash = since < 60_000;
    return (
      ring(
        c,
        r,
        Math.min(1, since / RUN_LOOP_US),
        flash ? '#fb8500' : '#d4a72c',
        4,
        'runloop',
        `data-since="${since}"`,
      ) +
      text(
        c.x,
        c.y - r - 6,
        flash ? 'run loop: looking for expired leases' : 'run loop (500 ms)',
        10,
        '#9a6700',
        'middle',
      )
    );
  }
  if (m.role === 'leader') return '';
  const clock = p.wire.electionClockAt(m.name, s.t);
  if (clock === undefined) return '';
  const ticks = clock.elapsedTicks + Math.min(1, (s.t - clock.t) / Math.max(1, p.tickUs));
  const left = Math.max(0, 1 - ticks / clock.timeoutTicks);
  return ring(
    c,
    r,
    left,
    left < 0.3 ? '#cf222e' : '#54aeff',
    3,
    'election',
    `data-member="${h(m.name)}" data-elapsed="${clock.elapsedTicks}" data-timeout="${clock.timeoutTicks}" ` +
      `data-at="${clock.t}"`,
  );
}

/** A ring filled to `share`, from 12 o'clock clockwise; `attrs` are its data-* attributes, written as they are. */
function ring(c: Point, r: number, share: number, color: string, width: number, cls: string, attrs: string): string {
  const len = 2 * Math.PI * r;
  return (
    `<circle class="${cls}" ${attrs} cx="${f(c.x)}" cy="${f(c.y)}" r="${r}" fill="none" ` +
    `stroke="${color}" ` +
    `stroke-width="${width}" stroke-dasharray="${f(share * len)} ${f(len)}" ` +
    `transform="rotate(-90 ${f(c.x)} ${f(c.y)})"/>`
  );
}

function clientNode(name: string, c: Point, s: Snapshot, boxH: number): string {
  const v = s.clients.find((x) => x.name === name);
  const paused = v?.paused === true;
  const label = name.startsWith('ctl-') ? `etcdctl → ${name.slice(4)}` : name;
  const alive = v?.keepAlives.filter((k) => k.alive).length ?? 0;
  const sub =
    v === undefined
      ? ''
      : paused
        ? 'paused'
        : alive > 0
          ? `${alive} keep-alive${alive > 1 ? 's' : ''}`
          : v.keepAlives.length > 0
            ? 'keep-alive closed'
            : '';
  return (
    `<g class="node client${paused ? ' paused' : ''}" data-node="${h(name)}">` +
    `<rect x="${f(c.x - 52)}" y="${f(c.y - boxH / 2)}" width="104" height="${boxH}" rx="${boxH < 28 ? 4 : 8}" ` +
    `fill="${paused ? 'url(#hatch)' : '#fff'}" ` +
    `stroke="#8c959f"/>` +
    (boxH < 28
      ? text(c.x, c.y + 4, label, 11, '#1f2328', 'middle', true)
      : text(c.x, c.y - 2, label, 12, '#1f2328', 'middle', true) + text(c.x, c.y + 11, sub, 9, '#57606a', 'middle')) +
    '</g>'
  );
}

/** Where a message on the a→b link starts and ends: the nodes' rims, not their centres. */
function rim(a: Point, b: Point, isMember: (p: Point) => boolean): [Point, Point] {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const d = Math.max(1, Math.hypot(dx, dy));
  const ra = isMember(a) ? NODE_R : 50;
  const rb = isMember(b) ? NODE_R : 50;
  return [
    { x: a.x + (dx * ra) / d, y: a.y + (dy * ra) / d },
    { x: b.x - (dx * rb) / d, y: b.y - (dy * rb) / d },
  ];
}

/** One message as drawn at the instant: where its trail starts, where it is now, how faded, and its label. */
export interface MessageMark {
  readonly message: WireMessage;
  readonly x1: number;
  readonly y1: number;
  readonly x: number;
  readonly y: number;
  readonly fade: number;
  readonly flying: boolean;
}

function messageMarks(p: PictureInput, at: Map<string, Point>): MessageMark[] {
  const t = p.snap.t;
  const all = p.wire.around(t, p.lingerUs);
  const perKey = new Map<string, number>();
  const kept: WireMessage[] = [];
  // Newest first, so a crowded link shows its latest messages.
  for (let i = all.length - 1; i >= 0 && kept.length < MAX_DRAWN; i--) {
    const m = all[i]!;
    if (p.thinHeartbeats && (m.kind === 'MsgHeartbeat' || m.kind === 'MsgHeartbeatResp')) continue;
    const key = `${m.from}>${m.to}>${m.kind}`;
    const n = perKey.get(key) ?? 0;
    if (n >= PER_LINK_KIND) continue;
    perKey.set(key, n + 1);
    kept.push(m);
  }
  const memberPoints = new Set(p.snap.members.map((m) => at.get(m.name)));
  const out: MessageMark[] = [];
  for (const m of kept.reverse()) {
    const a = at.get(m.from);
    const b = at.get(m.to);
    if (a === undefined || b === undefined) continue;
    const [ra, rb] = rim(a, b, (q) => memberPoints.has(q));
    // Requests and answers between the same pair travel side by side, not on top of each other.
    const side = m.from < m.to ? -5 : 5;
    const d = Math.max(1, Math.hypot(rb.x - ra.x, rb.y - ra.y));
    const nx = (-(rb.y - ra.y) / d) * side;
    const ny = ((rb.x - ra.x) / d) * side;
    const dropped = m.arriveUs === undefined;
    const end = m.arriveUs ?? m.sentUs + 1;
    const progress = dropped ? 0.5 : Math.min(1, Math.max(0, (t - m.sentUs) / Math.max(1, end - m.sentUs)));
    const flying = !dropped && t <= end;
    out.push({
      message: m,
      x1: ra.x + nx,
      y1: ra.y + ny,
      x: ra.x + (rb.x - ra.x) * progress + nx,
      y: ra.y + (rb.y - ra.y) * progress + ny,
      fade: flying ? 1 : Math.max(0.15, 1 - (t - end) / Math.max(1, p.lingerUs)),
      flying,
    });
  }
  return out;
}

/** A message's element when it first appears: its trail, its dot (a cross when dropped) and its label. */
export function messageSvg(k: MessageMark): string {
  const m = k.message;
  const st = messageStyle(m);
  const dropped = m.arriveUs === undefined;
  const attrs =
    `class="${messageClass(k)}" data-kind="${h(m.kind)}" ` +
    `data-from="${h(m.from)}" data-to="${h(m.to)}" data-sent="${m.sentUs}" data-arrive="${m.arriveUs ?? ''}"` +
    `${m.carries !== undefined ? ` data-carries="${h(m.carries.join(','))}"` : ''}`;
  const label = text(k.x, k.y - st.r - 3, st.label, 10, st.color, 'middle', true);
  // Opacity on each shape, not on the group: a group's opacity costs an offscreen pass per message.
  return (
    `<g ${attrs}>` +
    `<line x1="${f(k.x1)}" y1="${f(k.y1)}" x2="${f(k.x)}" y2="${f(k.y)}" stroke="${st.color}" ` +
    `stroke-width="1.5" stroke-opacity="${(k.fade / 2).toFixed(2)}"/>` +
    (dropped
      ? text(k.x, k.y + 4, '✕', 14, '#cf222e', 'middle', true)
      : `<circle cx="${f(k.x)}" cy="${f(k.y)}" r="${st.r}" fill="${st.color}" fill-opacity="${k.fade.toFixed(2)}"/>`) +
    (st.label === '' ? '' : label.replace('<text ', `<text visibility="${k.flying ? 'visible' : 'hidden'}" `)) +
    '</g>'
  );
}

export function messageClass(k: MessageMark): string {
  return `msg${k.flying ? ' flying' : ' arrived'}${k.message.arriveUs === undefined ? ' dropped' : ''}`;
}

/**
 * A drawn message's attributes at a later instant, child by child (trail, dot, label), as `messageSvg`
 * would write them: the page moves an element it has instead of parsing a new one each frame.
 */
export function messageMoves(k: MessageMark): ReadonlyArray<Readonly<Record<string, string>>> {
  const r = messageStyle(k.message).r;
  const x = f(k.x);
  const y = f(k.y);
  const dot: Readonly<Record<string, string>> =
    k.message.arriveUs === undefined ? { x, y: f(k.y + 4) } : { cx: x, cy: y, 'fill-opacity': k.fade.toFixed(2) };
  // The label shows only while the message flies.
  return [
    { x2: x, y2: y, 'stroke-opacity': (k.fade / 2).toFixed(2) },
    dot,
    { x, y: f(k.y - r - 3), visibility: k.flying ? 'visible' : 'hidden' },
  ];
}

function leaseRings(s: Snapshot, fills: Float32Array | undefined): string {
  const x = 612;
  const out: string[] = ['<g class="leases">', text(x - 14, 22, 'leases (primary’s view)', 11, '#57606a', 'start')];
  if (s.leaseCount === 0) out.push(text(x - 14, 42, 'no leases', 11, '#57606a', 'start'));
  // More leases than rings: the first few as rings, and every one of them as a bar in a grid below.
  const grid = fills !== undefined && s.leaseCount > LEASE_RINGS;
  const rings = grid ? GRID_RINGS : LEASE_RINGS;
  s.leases.slice(0, rings).forEach((l, i) => {
    out.push(leaseRing(l, { x, y: 52 + i * 42 }));
  });
  if (grid) out.push(leaseGrid(fills, 52 + GRID_RINGS * 42 - 12));
  else if (s.leaseCount > LEASE_RINGS)
    out.push(text(x - 14, 52 + LEASE_RINGS * 42, `+ ${s.leaseCount - LEASE_RINGS} more`, 11, '#57606a', 'start'));
  out.push('</g>');
  return out.join('');
}

const GRID_RINGS = 3;
/** The grid's buckets, each drawn as one path of all its bars: a frame parses four paths, not a thousand rings. */
const GRID_BUCKETS = [
  { name: 'full', color: '#4053c4' },
  { name: 'low', color: '#e16f24' },
  { name: 'expired', color: '#cf222e' },
  { name: 'frozen', color: '#8c959f' },
] as const;

/** Every lease as a bar that drains and refills, in grant order, packed into the lower right of the picture. */
function leaseGrid(fills: Float32Array, top: number): string {
  const left = 598;
  const w = W - left - 4;
  const h = H - top - 18;
  const cell = Math.max(3, Math.min(12, Math.floor(Math.sqrt((w * h) / fills.length))));
  const cols = Math.floor(w / cell);
  const shown = Math.min(fills.length, cols * Math.floor(h / cell));
  const track: string[] = [];
  const paths: string[][] = GRID_BUCKETS.map(() => []);
  for (let i = 0; i < shown; i++) {
    const cx = left + (i % cols) * cell;
    const cy = top + 14 + Math.floor(i / cols) * cell;
    const bar = cell - 1;
    track.push(`M${cx} ${cy}h${bar}v${bar}h-${bar}z`);
    const share = fills[i]!;
    const b = share < 0 ? 3 : share === 0 ? 2 : share < 0.34 ? 1 : 0;
    // A bar fills from the bottom by its share; an expired one keeps a sliver, a frozen one is full grey.
    const fill = share < 0 ? bar : Math.max(1, Math.round(bar * share * 10) / 10);
    paths[b]!.push(`M${cx} ${f(cy + bar - fill)}h${bar}v${fill}h-${bar}z`);
  }
  const caption = `all ${fills.length} leases, each a bar${shown < fills.length ? ` (first ${shown} drawn)` : ''}`;
  return (
    `<g class="lease-grid" data-count="${fills.length}" data-shown="${shown}">` +
    text(left, top + 8, caption, 10, '#57606a', 'start') +
    `<path d="${track.join('')}" fill="#eaeef2"/>` +
    GRID_BUCKETS.map(
      (bk, i) =>
        `<path data-bucket="${bk.name}" data-bars="${paths[i]!.length}" d="${paths[i]!.join('')}" fill="${bk.color}"/>`,
    ).join('') +
    '</g>'
  );
}

function leaseRing(l: LeaseState, c: Point): string {
  const name = l.label ?? l.hex;
  const ttlUs = l.ttl * MICROS_PER_SECOND;
  const forever = l.remainingUs === undefined;
  const share = forever ? 1 : Math.max(0, Math.min(1, l.remainingUs! / ttlUs));
  const left = forever
    ? 'no primary: frozen'
    : l.remainingUs! > 0
      ? `${(l.remainingUs! / MICROS_PER_SECOND).toFixed(1)} s of ${l.ttl} s`
      : 'expired, awaiting revoke';
  const color = forever ? '#8c959f' : share < 0.34 ? '#e16f24' : '#4053c4';
  return (
    `<g class="lease-ring" data-lease="${h(name)}" data-share="${share.toFixed(3)}">` +
    `<circle cx="${f(c.x)}" cy="${f(c.y)}" r="15" fill="none" stroke="#eaeef2" stroke-width="6"/>` +
    (forever
      ? `<circle cx="${f(c.x)}" cy="${f(c.y)}" r="15" fill="none" stroke="${color}" stroke-width="6" ` +
        'stroke-dasharray="3 3"/>'
      : ring(c, 15, share, color, 6, 'fill', '')) +
    text(
      c.x + 24,
      c.y - 2,
      `${name}${l.keys.length > 0 ? ` · ${l.keys.join(', ')}` : ''}`,
      11,
      '#1f2328',
      'start',
      true,
    ) +
    text(c.x + 24, c.y + 12, left, 10, '#57606a', 'start') +
    '</g>'
  );
}

function text(x: number, y: number, s: string, size: number, color: string, anchor: string, bold = false): string {
  return (
    `<text x="${f(x)}" y="${f(y)}" font-size="${size}" fill="${color}" text-anchor="${anchor}"` +
    `${bold ? ' font-weight="600"' : ''}>${h(s)}</text>`
  );
}

const f = (n: number): string => (Math.round(n * 10) / 10).toString();

/** Kinds of message that are about leases: the first of them is where a first view has something to show. */
const LEASE_TRAFFIC = new Set(['keepalive', 'renew-forward', 'proposal-forward', 'request', 'MsgApp']);

/**
 * Halfway along the first keep-alive sent at or after 0 (the runbook's heartbeat), else along the first
 * lease message of any kind; 0 when the run has none.
 */
export function firstMoment(wire: WireLog): Micros {
  const sent = wire.messages.filter((x) => x.sentUs >= 0 && x.arriveUs !== undefined);
  const m =
    sent.find((x) => x.kind === 'keepalive') ??
    sent.find(
      (x) => LEASE_TRAFFIC.has(x.kind) && (x.kind !== 'MsgApp' || (x.carries ?? []).some((c) => c.startsWith('Lease'))),
    );
  return m === undefined ? 0 : Math.round((m.sentUs + m.arriveUs!) / 2);
}
