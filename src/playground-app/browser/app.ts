/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The playground page: wires the DOM to a Session. All simulation is the deterministic src/ code; this
 * shell only turns clicks into Actions and frames into cursor moves.
 */
import { MICROS_PER_SECOND } from '../../clock/time.js';
import { BUG_NAMES } from '../../switches/bugs.js';
import { escapeHtml as h } from '../../report/render/escape.js';
import type { Action } from '../../playground/actions.js';
import { freshLabel, type SettingPath } from '../../playground/edit.js';
import { lessonOf, type Lesson } from '../../playground/lessons.js';
import { Session, type Opened } from '../../playground/session.js';
import { decodeShare, encodeShare } from '../../playground/share.js';
import { timeAt, timelineOf, type TimelineView } from '../../playground/timeline.js';
import { eventKind, eventLease, eventLine, eventMember, eventTime } from '../../playground/trace-adapter.js';
import { clientsHtml, flowHtml, keysHtml, leasesHtml, membersHtml } from '../../playground/view.js';
import { formatLeaseId } from '../../trace/trace.js';
import { COURSE, courseLesson, topics } from '../../playground/curriculum.js';
import { narratedLines, narratedUpTo, reflow, type NarratedLine } from '../../playground/narrated.js';
import { firstMoment } from '../../playground/picture.js';
import { RunFacts } from '../../playground/run-facts.js';
import { CourseView } from './course-view.js';
import { readBaked, type LibraryEntry } from './library.js';
import { PictureView } from './picture-view.js';
import { Player } from './player.js';

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;
const baked = readBaked();

/** What the primary does when it applies a raft entry for leases or keys. */
const COMMITTED = new Set(['lease-grant', 'lease-revoke', 'lease-checkpoint', 'kv-put', 'kv-delete']);

let session!: Session;
let timeline: TimelineView | undefined;
let lesson: Lesson | undefined;
let lessonStop = -1;
let selected: string | undefined;
let course: CourseView | undefined;
let story: NarratedLine[] = [];
/** A lesson's question waits for the run to reach this instant, then `done` gives the verdict. */
let reveal: { readonly t: number; readonly done: () => void } | undefined;
const picture = new PictureView($('picture'));

const player = new Player((dUs) => {
  session.seek(Math.min(reveal?.t ?? session.endUs, session.cursor + dUs));
  if (reveal !== undefined && session.cursor >= reveal.t) {
    const done = reveal.done;
    reveal = undefined;
    player.speed = Number($<HTMLSelectElement>('speed').value);
    done();
    return false;
  }
  return session.cursor < session.endUs;
}, draw);

/** Whether the panel changed. */
function setPanel(id: string, html: string): boolean {
  const el = $(id);
  // Only touched when it changed, so a button under the pointer survives frames that did not move it.
  if (el.dataset.html === html) return false;
  el.innerHTML = html;
  el.dataset.html = html;
  return true;
}

function show(o: Opened, why: string): boolean {
  if (!o.ok) {
    $('errors').textContent = `${why}:\n${o.messages.join('\n')}`;
    return false;
  }
  $('errors').textContent = '';
  adopt(o.session);
  return true;
}

function adopt(s: Session): void {
  session = s;
  const full = s.fullResult();
  timeline = full.setupError === undefined ? timelineOf(full) : undefined;
  $('timeline').innerHTML =
    timeline?.svg ??
    (full.setupError === undefined
      ? `<p class="none">This run has ${full.trace.events.length} events, too ` +
        `many to draw here; <code>lessor-sim render</code> draws its timeline.</p>`
      : '');
  $('hash').textContent = full.setupError === undefined ? full.trace.hash() : '';
  picture.adopt(s);
  story = full.setupError === undefined ? narratedLines(full) : [];
  $('errors').textContent = full.setupError ?? '';
  $('title').textContent = s.scenario.name;
  $('passed').textContent =
    full.setupError === undefined
      ? `${full.assertions.filter((a) => a.passed).length}/${full.assertions.length} assertions pass`
      : '';
  const scrub = $<HTMLInputElement>('scrub');
  scrub.max = String(Math.round(s.endUs / 1000));
  $<HTMLTextAreaElement>('yaml').value = s.text;
  syncSettings();
  draw();
}

function openText(text: string, file: string): boolean {
  lesson = undefined;
  course = undefined;
  reveal = undefined;
  lessonStop = -1;
  const ok = show(Session.open(text, file), `cannot open ${file}`);
  if (ok) drawLesson();
  return ok;
}

/** While playing, the text panels change faster than anyone reads them: redrawn at most every PANELS_MS. */
const PANELS_MS = 100;
let panelsAt = Number.NEGATIVE_INFINITY;

function draw(): void {
  const s = session.snapshot();
  const t = session.cursor;
  $('now').textContent =
    `${(t / MICROS_PER_SECOND).toFixed(3)} s / ${(session.endUs / MICROS_PER_SECOND).toFixed(1)} s`;
  $('now').dataset.us = String(t);
  $<HTMLInputElement>('scrub').value = String(Math.round(t / 1000));
  $('play').textContent = player.playing ? '❚❚ pause' : '▶ play';
  picture.draw(session, s, player.speed);
  const c = $('cursor');
  c.style.display = timeline === undefined ? 'none' : '';
  if (timeline !== undefined) c.style.left = `${timeline.scale.x(t)}px`;
  // The panels' layout is most of a frame's cost: at most 10 times a second while playing, at once otherwise.
  const now = performance.now();
  if (player.playing && now - panelsAt < PANELS_MS) return;
  panelsAt = now;
  if (s !== undefined) {
    setPanel('members', membersHtml(s));
    setPanel('leases', leasesHtml(s));
    setPanel('keys', keysHtml(s));
    setPanel('clients', clientsHtml(s));
    const committed = session.recent(6, (e) => eventMember(e) === s.primary && COMMITTED.has(eventKind(e)));
    setPanel('flow', flowHtml(s, session.inFlight(), committed.map(eventLine)));
  }
  const told = narratedUpTo(story, t, 12)
    .map((l) => `<li>${h(l.text)}</li>`)
    .join('');
  // The newest sentence in view.
  if (setPanel('story', told)) $('story').scrollTop = $('story').scrollHeight;
  setPanel('recent', h(session.recent(14).map(eventLine).join('\n')));
  if (selected !== undefined) {
    const [kind, name] = selected.split(':') as [string, string];
    const mine = session.recent(30, (e) =>
      kind === 'member'
        ? eventMember(e) === name
        : eventLease(e) !== undefined && formatLeaseId(eventLease(e)!) === name,
    );
    setPanel('detail', h(`${selected}\n${mine.map(eventLine).join('\n') || '(nothing traced yet)'}`));
  }
}

function act(a: Action): void {
  show(session.act(a), 'that action does not fit the scenario');
}

function actionOf(b: HTMLElement): Action | undefined {
  const d = b.dataset;
  const members = session.scenario.cluster.members;
  const names = Array.from({ length: members }, (_, i) => `n${i + 1}`);
  switch (d.act) {
    case 'pause':
    case 'resume':
    case 'crash':
    case 'restart':
      return { kind: d.act, member: d.member! };
    case 'transfer-leader':
      return { kind: 'transfer-leader', to: d.to! };
    case 'isolate':
      return { kind: 'isolate', member: d.member!, members: names };
    case 'heal':
      return { kind: 'heal' };
    case 'pause-client':
      return { kind: 'pause-client', client: d.client!, forUs: 12 * MICROS_PER_SECOND };
    case 'resume-client':
      return { kind: 'resume-client', client: d.client! };
    case 'keepalive':
    case 'keepalive-stop':
      return { kind: d.act, lease: d.lease!, client: 'c1' };
    case 'revoke':
      return { kind: 'revoke', lease: d.lease! };
    case 'put':
      return { kind: 'put', lease: d.lease!, key: `/play/${d.lease!.toLowerCase()}`, value: 'v' };
    case 'grant':
      return {
        kind: 'grant',
        lease: freshLabel(session.scenario),
        ttl: Math.max(1, Number($<HTMLInputElement>('grant-ttl').value) || 10),
      };
    default:
      return undefined;
  }
}

// Pointer-down, not click: a panel redrawn between press and release would swallow the click.
document.addEventListener('pointerdown', (ev) => {
  const target = ev.target as HTMLElement;
  const b = target.closest<HTMLElement>('button[data-act]');
  if (b !== null) {
    const a = actionOf(b);
    if (a !== undefined) act(a);
    ev.preventDefault();
    return;
  }
  const sel = target.closest<HTMLElement>('[data-select]');
  if (sel !== null) {
    selected = sel.dataset.select;
    draw();
  }
});

$('play').addEventListener('click', () => {
  if (player.playing) player.pause();
  else {
    if (session.cursor >= session.endUs) session.seek(0);
    player.play();
  }
  draw();
});
$('step').addEventListener('click', () => {
  player.pause();
  session.stepToNextEvent();
  draw();
});
$<HTMLSelectElement>('speed').addEventListener('change', (e) => {
  player.speed = Number((e.target as HTMLSelectElement).value);
});
$<HTMLInputElement>('scrub').addEventListener('input', (e) => {
  player.pause();
  session.seek(Number((e.target as HTMLInputElement).value) * 1000);
  draw();
});
$('timeline').addEventListener('click', (e) => {
  if (timeline === undefined) return;
  const box = $('timeline').getBoundingClientRect();
  player.pause();
  session.seek(timeAt(timeline.scale, e.clientX - box.left));
  draw();
});

// ---- Lessons -----------------------------------------------------------------------------------------

function drawLesson(): void {
  if (course !== undefined) return course.render();
  if (lesson === undefined) {
    $('lesson-text').innerHTML =
      '<p>New here? Pick a lesson above: they start with the runbook’s Steps 1–2, and ask you to predict ' +
      'before the run shows you. Or play, scrub, and click faults on the members: this is a free playground.</p>';
    return;
  }
  const stop = lesson.stops[lessonStop];
  const body =
    lessonStop < 0
      ? `<div class="intro">${reflow(lesson.intro)
          .map((p) => `<p>${h(p)}</p>`)
          .join('')}</div><p>Press <b>next</b> to play to the first moment worth a look.</p>`
      : stop === undefined
        ? '<p>That was the whole scenario. Now it is a free playground: ' +
          'scrub back, click a fault, and see what changes.</p>'
        : `<p class="stop">step ${lessonStop + 1} of ${lesson.stops.length}</p><pre>${h(stop.lines.join('\n'))}</pre>`;
  $('lesson-text').innerHTML = `<h3>${h(lesson.title)}</h3>${body}`;
}

function openCourse(id: string): void {
  const l = courseLesson(id);
  const entry = baked.library.find((e) => e.file === l?.file);
  if (l === undefined || entry === undefined) return;
  player.pause();
  if (!openText(entry.text, entry.file)) return;
  const host = {
    seek: (t: number) => {
      session.seek(t);
      draw();
    },
    playTo: (t: number, done: () => void) => {
      reveal = { t, done };
      // About three seconds of real time for whatever stretch the question spans.
      player.speed = Math.max(0.01, (t - session.cursor) / 3_000_000);
      player.play();
      draw();
    },
  };
  course = new CourseView(l, new RunFacts(session.fullResult(), session.wire), host, $('lesson-text'));
  course.start();
}

$<HTMLSelectElement>('lessons').addEventListener('change', (e) => {
  const file = (e.target as HTMLSelectElement).value;
  if (file.startsWith('lesson:')) return openCourse(file.slice('lesson:'.length));
  const entry = baked.library.find((l) => l.file === file);
  if (entry === undefined) return;
  player.pause();
  if (!openText(entry.text, entry.file)) return;
  lesson = lessonOf(session.fullResult());
  lessonStop = -1;
  session.seek(0);
  drawLesson();
  draw();
});
$('next').addEventListener('click', nextStep);

function nextStep(): void {
  if (course !== undefined) return course.next();
  if (lesson === undefined) return;
  player.pause();
  lessonStop = Math.min(lessonStop + 1, lesson.stops.length);
  const stop = lesson.stops[lessonStop];
  session.seek(stop?.atUs ?? session.endUs);
  drawLesson();
  draw();
}

// ---- Settings ----------------------------------------------------------------------------------------

function syncSettings(): void {
  const s = session.scenario;
  $<HTMLSelectElement>('set-profile').value = s.profile;
  $<HTMLInputElement>('set-checkpoint').checked = s.cluster.leaseCheckpoint;
  $<HTMLInputElement>('set-election').value = String(s.cluster.electionTimeoutUs / 1000);
  $<HTMLInputElement>('set-rate').value = String(s.cluster.revokeRatePerSecond);
  $<HTMLInputElement>('set-seed').value = String(s.seed);
  for (const b of document.querySelectorAll<HTMLInputElement>('#set-bugs input')) b.checked = s.bugs.includes(b.value);
}

$('set-bugs').innerHTML = BUG_NAMES.map((b) => `<label><input type="checkbox" value="${h(b)}"> ${h(b)}</label>`).join(
  '',
);

$('apply-settings').addEventListener('click', () => {
  const changes: Array<[SettingPath, unknown]> = [
    [['profile'], $<HTMLSelectElement>('set-profile').value],
    [['seed'], Number($<HTMLInputElement>('set-seed').value)],
    [['cluster', 'lease-checkpoint'], $<HTMLInputElement>('set-checkpoint').checked],
    [['cluster', 'election-timeout'], `${Number($<HTMLInputElement>('set-election').value)}ms`],
    [['cluster', 'revoke-rate'], Number($<HTMLInputElement>('set-rate').value)],
    [['bugs'], [...document.querySelectorAll<HTMLInputElement>('#set-bugs input:checked')].map((b) => b.value)],
  ];
  let o: Opened = { ok: true, session };
  for (const [path, value] of changes) if (o.ok) o = o.session.withSetting(path, value);
  player.pause();
  show(o, 'those settings do not make a valid scenario');
});
$('extend').addEventListener('click', () => {
  show(
    session.withSetting(['duration'], `${Math.round(session.endUs / MICROS_PER_SECOND) + 30}s`),
    'cannot extend the run',
  );
});

// ---- Export, share, load -----------------------------------------------------------------------------

$('export').addEventListener('click', () => {
  $<HTMLTextAreaElement>('yaml').value = session.text;
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([session.text], { type: 'text/yaml' }));
  a.download = session.file
    .split('/')
    .pop()!
    .replace(/(\.ya?ml)?$/, '.playground.yaml');
  a.click();
});
$('share').addEventListener('click', () => {
  history.replaceState(null, '', `#s=${encodeShare(session.text)}&t=${session.cursor}`);
  $<HTMLInputElement>('share-url').value = location.href;
});
document.addEventListener('dragover', (e) => e.preventDefault());
document.addEventListener('drop', (e) => {
  e.preventDefault();
  const f = e.dataTransfer?.files[0];
  if (f === undefined) return;
  void f.text().then((text) => {
    player.pause();
    openText(text, f.name);
  });
});

/** What the URL asks to open, and why a shared scenario in it could not be read. */
function fromUrl(): { entry: LibraryEntry; t: number | undefined; problem?: string } {
  const params = new URLSearchParams(location.hash.slice(1));
  const t = params.has('t') ? Number(params.get('t')) || 0 : undefined;
  const shared = params.get('s');
  if (shared !== null) {
    const text = decodeShare(shared);
    if (text !== undefined) return { entry: { file: 'shared.yaml', text }, t };
    return { entry: baked.initial, t: 0, problem: 'the link holds no scenario this page can read (#s= is damaged)' };
  }
  const file = params.get('file');
  const entry = baked.library.find((l) => l.file === file);
  return { entry: entry ?? baked.initial, t };
}

$('lessons').innerHTML =
  '<option value="">lessons…</option>' +
  topics()
    .map(
      (topic) =>
        `<optgroup label="${h(topic)}">${COURSE.filter((l) => l.topic === topic)
          .map((l) => `<option value="lesson:${h(l.id)}">${h(l.title)}</option>`)
          .join('')}</optgroup>`,
    )
    .join('') +
  `<optgroup label="every scenario file, as a guided tour">${baked.library
    .map((l) => `<option value="${h(l.file)}">${h(l.file.replace(/^scenarios\//, ''))}</option>`)
    .join('')}</optgroup>`;
const start = fromUrl();
// A link's scenario that does not open still leaves a running page: the first lesson, under the reason.
let problem = start.problem;
if (problem === undefined && !openText(start.entry.text, start.entry.file)) problem = $('errors').textContent ?? '';
if (problem !== undefined) {
  openText(baked.initial.text, baked.initial.file);
  $('errors').textContent = `${problem}\nshowing ${baked.initial.file} instead`;
}
// With no instant asked for, open where something is happening: the first lease message in flight.
session.seek(problem === undefined && start.t !== undefined ? start.t : firstMoment(session.wire));
draw();

// Space plays and pauses; the arrows step (through a lesson when one is open); shift-arrows jump a second.
document.addEventListener('keydown', (e) => {
  const t = e.target as HTMLElement;
  if (t.closest('input, textarea, select') !== null || e.ctrlKey || e.metaKey || e.altKey) return;
  // A focused button takes space as its own click.
  if (e.key === ' ' && t.closest('button') !== null) return;
  if (e.key === ' ') $('play').click();
  else if (e.key === 'ArrowRight' && e.shiftKey) seekBy(MICROS_PER_SECOND);
  else if (e.key === 'ArrowLeft' && e.shiftKey) seekBy(-MICROS_PER_SECOND);
  else if (e.key === 'ArrowRight') course !== undefined && !course.blocked ? nextStep() : $('step').click();
  else if (e.key === 'ArrowLeft') stepBack();
  else return;
  e.preventDefault();
});

function seekBy(dUs: number): void {
  player.pause();
  session.seek(session.cursor + dUs);
  draw();
}

/** Back to the last instant before the cursor at which something was traced. */
function stepBack(): void {
  player.pause();
  const prev = session.recent(1, (e) => eventTime(e) < session.cursor)[0];
  session.seek(prev === undefined ? 0 : eventTime(prev));
  draw();
}

/** For the browser tests and the benchmark: read-only views plus the frame counter. */
(window as unknown as { playground: unknown }).playground = {
  cursor: () => session.cursor,
  hash: () => session.hash(),
  text: () => session.text,
  frames: () => player.frames,
  frameMs: () => player.frameMs,
  setSpeed: (x: number) => {
    player.speed = x;
  },
};
