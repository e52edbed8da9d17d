/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The live view's page (`serve --playground`): no simulation runs here. Frames come from the serve process
 * as Server-Sent Events at the paced virtual instant; between two of them the picture moves on with the
 * wall clock (virtual time is paced to it), so messages travel and lease rings drain smoothly. A clicked
 * fault is posted to serve, which injects it into the served cluster at its current virtual instant.
 */
import { MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import { escapeHtml as h } from '../../report/render/escape.js';
import { FaultBook } from '../../playground/faults.js';
import { messageSvg, PICTURE_LAYERS, pictureFrame, pictureLayers } from '../../playground/picture.js';
import type { Snapshot } from '../../playground/snapshot.js';
import { keysHtml, leasesHtml, membersHtml } from '../../playground/view.js';
import type { ClientView } from '../../scenario/replay/runner.js';
import { decodeSnapshot, type LiveFrame } from '../../serve/live/frame.js';
import { formatLeaseId } from '../../trace/trace.js';
import { LiveWire } from './live-wire.js';

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

/** How far past the last frame the picture may run on by itself (a stalled stream freezes it soon after). */
const AHEAD_US = 400_000;
/**
 * The picture runs this far behind the newest frame, so every message it draws is known by then (a frame
 * carries the last 100 ms of traffic). On loopback a message flies for about a millisecond of virtual time,
 * paced to as much real time: too short to see, so each one stays drawn, fading, this long after it lands.
 */
const BEHIND_US = 200_000;
const LINGER_US = 600_000;
const STORY_LINES = 200;

const wire = new LiveWire();
let faults = new FaultBook([]);
let faultCount = -1;
let last: { frame: LiveFrame; snap: Snapshot; wallMs: number } | undefined;
let frames = 0;
let ended = false;
const story: string[] = [];

const pic = $('picture');
pic.innerHTML = pictureFrame();
const groups = new Map<string, Element>(PICTURE_LAYERS.map((l) => [l, pic.querySelector(`[data-layer="${l}"]`)!]));
const shown: Partial<Record<(typeof PICTURE_LAYERS)[number], string>> = {};

function setPanel(id: string, html: string): void {
  const el = $(id);
  // Only touched when it changed, so a button under the pointer survives frames that did not move it.
  if (el.dataset.html === html) return;
  el.innerHTML = html;
  el.dataset.html = html;
}

/** The real connections (and any scenario clients): who they talk to and which leases they keep alive. */
function clientViews(f: LiveFrame, snap: Snapshot): ClientView[] {
  const members = snap.members.map((m) => m.name);
  const byClient = wire.keepAlivesBy(f.t, members);
  const views: ClientView[] = [...snap.clients];
  for (const [name, leases] of byClient) {
    if (views.some((v) => v.name === name)) continue;
    views.push({ name, paused: false, keepAlives: [...leases].map((l) => ({ lease: BigInt(l), alive: true })) });
  }
  return views.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
}

function clientsHtml(views: readonly ClientView[], f: LiveFrame): string {
  if (views.length === 0)
    return '<p class="none">no client yet: run etcdctl or your program against the endpoints above</p>';
  return views
    .map((c) => {
      const conn = f.conns[c.name];
      const ka = c.keepAlives.map((k) => `<span class="ka alive">${h(formatLeaseId(k.lease))}</span>`).join(' ');
      return (
        `<div class="card client" data-client="${h(c.name)}"><b>${h(c.name)}</b>` +
        `${conn !== undefined ? ` → ${h(conn.to)}: ${h(conn.methods.join(', '))}` : ''}` +
        `${ka !== '' ? `<br>keeps alive ${ka}` : ''}</div>`
      );
    })
    .join('');
}

function onFrame(f: LiveFrame): void {
  frames++;
  wire.add(f);
  if (f.faults.length !== faultCount) {
    faults = new FaultBook(f.faults);
    faultCount = f.faults.length;
  }
  const base = decodeSnapshot(f.snap);
  const snap: Snapshot = { ...base, clients: clientViews(f, base) };
  last = { frame: f, snap, wallMs: performance.now() };
  for (const l of f.lines) story.push(l);
  if (story.length > STORY_LINES) story.splice(0, story.length - STORY_LINES);
  setPanel('members', membersHtml(snap));
  setPanel('leases', leasesHtml(snap));
  setPanel('keys', keysHtml(snap));
  setPanel('clients', clientsHtml(snap.clients, f));
  if (f.lines.length > 0) {
    setPanel('story', story.map((l) => `<li>${h(l)}</li>`).join(''));
    $('story').scrollTop = $('story').scrollHeight;
  }
  setPanel(
    'endpoints',
    `<code>export ETCDCTL_API=3 ETCDCTL_ENDPOINTS=${h(Object.values(f.endpoints).join(','))}</code>`,
  );
}

/** The last frame's snapshot moved on to `t`: lease deadlines stay, so the time left runs down. */
function at(s: Snapshot, t: Micros): Snapshot {
  const dt = t - s.t;
  return {
    ...s,
    t,
    leases: s.leases.map((l) => (l.remainingUs === undefined ? l : { ...l, remainingUs: l.remainingUs - dt })),
  };
}

function draw(): void {
  if (last !== undefined) {
    const elapsed = ended ? 0 : Math.round((performance.now() - last.wallMs) * 1000);
    const t = Math.max(0, last.frame.t + Math.min(AHEAD_US, elapsed) - BEHIND_US);
    const snap = at(last.snap, t);
    const layers = pictureLayers({
      snap,
      wire: wire.log,
      faults,
      lingerUs: LINGER_US,
      thinHeartbeats: false,
      tickUs: last.frame.tickUs,
    });
    for (const l of PICTURE_LAYERS) {
      // A live frame draws few messages (loopback traffic of a handful of clients): written whole each time.
      const layer = layers[l];
      const html = typeof layer === 'string' ? layer : layer.map(messageSvg).join('');
      if (shown[l] === html) continue;
      groups.get(l)!.innerHTML = html;
      shown[l] = html;
    }
    $('now').textContent =
      `${(t / MICROS_PER_SECOND).toFixed(3)} s` +
      (last.frame.endUs === null ? '' : ` / ${(last.frame.endUs / MICROS_PER_SECOND).toFixed(1)} s`);
    $('now').dataset.us = String(t);
  }
  requestAnimationFrame(draw);
}

const events = new EventSource('/events');
events.onmessage = (e) => {
  ended = false;
  $('status').textContent = 'live';
  $('status').className = 'live';
  onFrame(JSON.parse(e.data as string) as LiveFrame);
};
events.onerror = () => {
  ended = true;
  $('status').textContent = 'serve has stopped (or is unreachable): the picture is its last instant';
  $('status').className = 'stopped';
};

/** A clicked fault goes to serve; its refusal (a restart of a running member) shows under the header. */
async function post(action: string, member: string | undefined): Promise<void> {
  const res = await fetch('/fault', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(member === undefined ? { action } : { action, member }),
  }).catch(() => undefined);
  if (res === undefined) return void ($('errors').textContent = 'serve did not answer');
  const body = (await res.json().catch(() => ({}))) as { error?: string; t?: number };
  $('errors').textContent = res.ok ? '' : `${action}${member !== undefined ? ` ${member}` : ''}: ${body.error ?? ''}`;
}

function press(ev: Event): void {
  const b = (ev.target as HTMLElement).closest<HTMLElement>('button[data-act]');
  if (b === null) return;
  ev.preventDefault();
  const d = b.dataset;
  void post(d.act!, d.member ?? d.to);
}
// Pointer-down, not click: a panel redrawn between press and release would swallow the click. A click
// with no pointer (Enter or space on a focused button) counts too.
document.addEventListener('pointerdown', press);
document.addEventListener('click', (ev) => {
  if (ev.detail === 0) press(ev);
});

requestAnimationFrame(draw);

/** For the browser tests: the last frame's instant and how many frames came. */
(window as unknown as { live: unknown }).live = {
  t: () => last?.frame.t,
  frames: () => frames,
};
