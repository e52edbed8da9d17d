// The picture and the topic lessons in a real headless Chromium (playwright-core driving /usr/bin/chromium):
// a lesson with a prediction played end to end, the messages drawn in flight between the right nodes at
// the virtual instants the trace and the side channel give, raft's election clocks, a paused member's
// backlog, the rest of the walk-through (first view, narrated panel, named buttons, lessons by topic,
// reflowed descriptions, keys, a damaged share link) and the page at 390 px. It writes
// docs/playground-lesson.png and docs/playground-picture.png (the README shows them), so they cannot go stale.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPlayground } from '../../src/playground-app/bundle.js';
import { topics } from '../../src/playground/curriculum.js';
import { firstMoment } from '../../src/playground/picture.js';
import { Session } from '../../src/playground/session.js';
import type { WireMessage } from '../../src/playground/wire-log.js';
import type { TraceEvent } from '../../src/trace/trace.js';
import { colorStats, decodePng } from '../report/render/png.js';
import { CHROMIUM_MISSING, launchChromium } from '../support/chromium.js';

const ROOT = resolve(__dirname, '../..');
const DOCS = join(ROOT, 'docs');

const missing = CHROMIUM_MISSING;
if (missing !== undefined) console.warn(`[playground lesson.spec] skipping the headless Chromium tests: ${missing}`);
const SKIPPED = missing === undefined ? '' : ` (SKIPPED: ${missing})`;

/** The little of playwright-core these tests use. */
interface Page {
  goto(url: string, opts?: { timeout?: number }): Promise<unknown>;
  click(selector: string, opts?: { timeout?: number }): Promise<void>;
  selectOption(selector: string, value: string): Promise<unknown>;
  textContent(selector: string): Promise<string | null>;
  getAttribute(selector: string, name: string): Promise<string | null>;
  locator(selector: string): { count(): Promise<number> };
  evaluate<R, A>(fn: (arg: A) => R, arg: A): Promise<R>;
  waitForSelector(selector: string, opts?: { timeout?: number }): Promise<unknown>;
  screenshot(opts: { path?: string }): Promise<Uint8Array>;
  setViewportSize(size: { width: number; height: number }): Promise<void>;
  keyboard: { press(key: string): Promise<void> };
  on(event: 'pageerror', fn: (e: Error) => void): void;
}
interface BrowserContext {
  pages(): Page[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/** A library scenario run as the page runs it, with the side channel the picture draws from. */
function session(file: string): Session {
  const o = Session.open(readFileSync(join(ROOT, file), 'utf8'), file);
  if (!o.ok) throw new Error(o.messages.join('\n'));
  o.session.fullResult();
  return o.session;
}

interface Drawn {
  readonly kind: string;
  readonly from: string;
  readonly to: string;
  readonly sent: number;
  readonly arrive: number;
  readonly flying: boolean;
}

describe.skipIf(missing !== undefined)('playground lessons and picture in headless Chromium', () => {
  let work: string;
  let ctx: BrowserContext;
  let page: Page;
  let url: string;
  const errors: string[] = [];

  const now = async (): Promise<number> => Number(await page.getAttribute('#now', 'data-us'));
  const drawn = (): Promise<Drawn[]> =>
    page.evaluate(
      () =>
        [...document.querySelectorAll<SVGGElement>('#picture g.msg')].map((g) => ({
          kind: g.dataset.kind!,
          from: g.dataset.from!,
          to: g.dataset.to!,
          sent: Number(g.dataset.sent),
          arrive: Number(g.dataset.arrive),
          flying: g.classList.contains('flying'),
        })),
      undefined,
    );
  const shot = async (file: string): Promise<void> => {
    const png = decodePng(await page.screenshot({ path: file }));
    expect(png.width).toBe(1400);
    const stats = colorStats(png);
    expect(stats.distinct).toBeGreaterThan(50);
    expect(stats.dominantShare).toBeLessThan(0.9);
  };

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'lessor-sim-lesson-'));
    writeFileSync(join(work, 'index.html'), await buildPlayground());
    url = pathToFileURL(join(work, 'index.html')).href;
    ctx = await launchChromium<BrowserContext>(join(work, 'profile'));
    page = ctx.pages()[0] ?? (await ctx.newPage());
    page.on('pageerror', (e) => errors.push(String(e)));
  }, 30_000);

  afterAll(async () => {
    await ctx?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it(`the forwarding lesson: renewals travel c1 → n3 → n1 and back when the trace says, and the verdict comes ` +
    `from the run${SKIPPED}`, async () => {
    const s = session('scenarios/renew-forwarding.yaml');
    const ev = s.fullResult().trace.events;
    const after = (t: number) => (m: WireMessage) => m.sentUs >= t;
    const ka = s.wire.messages.find((m) => after(1_000_000)(m) && m.kind === 'keepalive' && m.from === 'c1')!;
    const fwd = s.wire.messages.find((m) => after(ka.sentUs)(m) && m.kind === 'renew-forward')!;
    const answer = s.wire.messages.find((m) => after(fwd.sentUs)(m) && m.kind === 'keepalive-answer')!;
    const traced = (kind: string, member: string, from: number): TraceEvent =>
      ev.find((e) => e.kind === kind && e.member === member && e.t >= from)!;
    // The side channel agrees with the trace: the send, the leader's renewal, the client's receipt.
    expect(ka.sentUs).toBe(traced('client-keepalive-send', 'c1', 1_000_000).t);
    expect(fwd.arriveUs).toBe(traced('lease-renew', 'n1', ka.sentUs).t);
    expect(answer.arriveUs).toBe(traced('client-keepalive-recv', 'c1', ka.sentUs).t);

    await page.goto(url, { timeout: 10_000 });
    await page.selectOption('#lessons', 'lesson:article-forwarding');
    expect(await page.textContent('#lesson-text')).toContain('step 1 of 2');
    // The first step stands halfway along c1's renewal to the follower n3, drawn there.
    expect(await now()).toBe((ka.sentUs + ka.arriveUs!) / 2);
    expect(await drawn()).toContainEqual({
      kind: 'keepalive',
      from: 'c1',
      to: 'n3',
      sent: ka.sentUs,
      arrive: ka.arriveUs,
      flying: true,
    });
    // `next` waits for the prediction.
    await page.click('#next');
    expect(await page.textContent('#lesson-text')).toContain('step 1 of 2');

    // A wrong prediction ("n3"): the run plays to the answer's arrival, and the verdict names n1 and the
    // instant of its renewal, both read off the run.
    await page.click('button.choice[data-choice="0"]');
    await page.waitForSelector('#lesson-text .verdict', { timeout: 20_000 });
    expect(await now()).toBe(answer.arriveUs);
    const verdict = await page.textContent('#lesson-text .verdict');
    expect(verdict).toContain('did not hold');
    expect(verdict).toContain('n1, the leader');
    expect(verdict).toContain(`renewed it at ${(fwd.arriveUs! / 1e6).toFixed(3)} s`);
    // Right after the run reached the answer, the renewal's hops were still drawn, fading, on their links.
    const after1 = await drawn();
    expect(after1.map((d) => `${d.from}>${d.to} ${d.kind}`)).toEqual(
      expect.arrayContaining([
        'c1>n3 keepalive',
        'n3>n1 renew-forward',
        'n1>n3 renew-forward-answer',
        'n3>c1 keepalive-answer',
      ]),
    );

    // The next step shows a later forwarded renewal in flight from n3 to the leader n1.
    await page.keyboard.press('ArrowRight');
    expect(await page.textContent('#lesson-text')).toContain('step 2 of 2');
    const t = await now();
    const fwd2 = s.wire.messages.find((m) => m.kind === 'renew-forward' && m.sentUs <= t && t <= m.arriveUs!)!;
    expect(await drawn()).toContainEqual({
      kind: 'renew-forward',
      from: 'n3',
      to: 'n1',
      sent: fwd2.sentUs,
      arrive: fwd2.arriveUs,
      flying: true,
    });
    await shot(join(DOCS, 'playground-picture.png'));
    expect(errors).toEqual([]);
  }, 40_000);

  it(`the runbook's Step 5 lesson: the lock is gone while c1 sleeps, judged from the run${SKIPPED}`, async () => {
    const s = session('scenarios/seed-runbook.yaml');
    const deleted = s.fullResult().trace.events.find((e) => e.kind === 'kv-delete' && e.member === 'n1')!.t;
    await page.goto('about:blank');
    await page.goto(url, { timeout: 10_000 });
    await page.selectOption('#lessons', 'lesson:runbook-step5');
    await page.click('#next');
    expect(await page.textContent('#lesson-text')).toContain('Predict:');
    // c1 paused: grey in the picture.
    expect(await page.locator('#picture [data-node="c1"].paused').count()).toBe(1);
    await page.click('button.choice[data-choice="1"]');
    await page.waitForSelector('#lesson-text .verdict.held', { timeout: 20_000 });
    expect(await page.textContent('#lesson-text .verdict')).toContain(
      `the key was deleted at ${(deleted / 1e6).toFixed(3)} s`,
    );
    await shot(join(DOCS, 'playground-lesson.png'));
    await page.click('#next');
    expect(await now()).toBeGreaterThan(deleted - 10_000);
    await page.click('#next');
    expect(await page.textContent('#lesson-text')).toContain('could not notice the loss in time');
    expect(errors).toEqual([]);
  }, 40_000);

  it(`a paused leader greys out with its backlog growing; space plays and pauses${SKIPPED}`, async () => {
    await page.goto('about:blank');
    await page.goto(`${url}#file=scenarios/holders/fault4-frozen-leader.runbook.yaml&t=8000000`, { timeout: 10_000 });
    expect(await page.locator('#picture [data-node="n1"].paused').count()).toBe(1);
    const backlog = async (): Promise<number> =>
      Number(await page.getAttribute('#picture [data-node="n1"] .backlog', 'data-backlog'));
    const early = await backlog();
    expect(early).toBeGreaterThan(0);
    await page.evaluate(() => {
      const el = document.getElementById('scrub') as HTMLInputElement;
      el.value = '11000';
      el.dispatchEvent(new Event('input'));
    }, undefined);
    expect(await backlog()).toBeGreaterThan(early);
    // n3 leads by then, and its lessor is the primary.
    expect(await page.locator('#picture [data-node="n3"].role-leader').count()).toBe(1);

    await page.click('#picture-box');
    const t0 = await now();
    await page.keyboard.press(' ');
    await page.waitForSelector('#play:has-text("pause")', { timeout: 5_000 });
    await page.keyboard.press(' ');
    expect(await page.textContent('#play')).toContain('play');
    expect(await now()).toBeGreaterThanOrEqual(t0);
    expect(errors).toEqual([]);
  }, 40_000);

  it(`a crashed member keeps its last term, greyed; isolating a member cuts its links${SKIPPED}`, async () => {
    await page.goto('about:blank');
    await page.goto(`${url}#file=scenarios/promote-demote-timeline.yaml&t=9000000`, { timeout: 10_000 });
    expect(await page.textContent('#picture [data-node="n1"].crashed')).toContain('last term 1');
    expect(await page.textContent('#picture [data-node="n2"].role-leader')).toContain('term 2');
    expect(await page.locator('#picture .link.cut').count()).toBe(0);
    await page.click('[data-member="n3"] button[data-act="isolate"]');
    // n3 is cut off from both others.
    expect(await page.locator('#picture .link.cut[data-b="n3"]').count()).toBe(2);
    expect(await page.locator('#picture .link.cut').count()).toBe(2);
    expect(errors).toEqual([]);
  });

  it(`a follower's election ring is raft's clock: the ticks elapsed of the timeout it drew${SKIPPED}`, async () => {
    // n1 crashed at 6 s; at 7.45 s n2 is one tick from campaigning (it does at 7.5 s), n3 further off.
    const s = session('scenarios/promote-demote-timeline.yaml');
    const t = 7_450_000;
    await page.goto('about:blank');
    await page.goto(`${url}#file=scenarios/promote-demote-timeline.yaml&t=${t}`, { timeout: 10_000 });
    for (const member of ['n2', 'n3']) {
      const clock = s.wire.electionClockAt(member, t)!;
      const ring = `#picture [data-layer="timers"] .election[data-member="${member}"]`;
      expect(Number(await page.getAttribute(ring, 'data-elapsed'))).toBe(clock.elapsedTicks);
      expect(Number(await page.getAttribute(ring, 'data-timeout'))).toBe(clock.timeoutTicks);
    }
    expect(s.wire.electionClockAt('n2', t)).toMatchObject({ elapsedTicks: 14, timeoutTicks: 15 });
    // The leader-to-be's ring is nearly run out, so drawn red.
    expect(await page.getAttribute('#picture .election[data-member="n2"]', 'stroke')).toBe('#cf222e');
    expect(errors).toEqual([]);
  });

  it(
    `the walk-through's rest: opens where something happens, narrates with raw lines on demand, names every ` +
      `button, lists lessons by topic, reflows descriptions, steps by keys, says why a share link is damaged` +
      SKIPPED,
    async () => {
      const s = session('scenarios/seed-runbook.yaml');
      const first = firstMoment(s.wire);
      const ka = s.wire.messages.find((m) => m.kind === 'keepalive')!;
      await page.goto('about:blank');
      await page.goto(url, { timeout: 10_000 });
      // The first view: halfway along the runbook's first keep-alive, drawn in flight.
      expect(first).toBe((ka.sentUs + ka.arriveUs!) / 2);
      expect(await now()).toBe(first);
      expect(await drawn()).toContainEqual({
        kind: 'keepalive',
        from: ka.from,
        to: ka.to,
        sent: ka.sentUs,
        arrive: ka.arriveUs,
        flying: true,
      });
      // The story in sentences; the raw trace lines folded away until asked for.
      const story = await page.evaluate(
        () => [...document.querySelectorAll('#story li')].map((li) => li.textContent ?? ''),
        undefined,
      );
      expect(story.length).toBeGreaterThan(0);
      for (const line of story) expect(line).not.toMatch(/ n\d [a-z]+-[a-z-]+ /);
      expect(
        await page.evaluate(
          () => (document.querySelector('#recent')!.closest('details') as HTMLDetailsElement).open,
          undefined,
        ),
      ).toBe(false);
      await page.click('summary:has-text("raw trace lines")');
      expect(await page.textContent('#recent')).toMatch(/ n1 lease-grant /);
      // Every button says what it does, in its text or its label.
      const unnamed = await page.evaluate(
        () =>
          [...document.querySelectorAll('button')]
            .filter((b) => (b.getAttribute('aria-label') ?? b.textContent ?? '').trim() === '')
            .map((b) => b.outerHTML),
        undefined,
      );
      expect(unnamed).toEqual([]);
      // Lessons by topic first (in the curriculum's order), then every file as a guided tour.
      const groups = await page.evaluate(
        () => [...document.querySelectorAll('#lessons optgroup')].map((g) => g.getAttribute('label')),
        undefined,
      );
      expect(groups).toEqual([...topics(), 'every scenario file, as a guided tour']);
      // A file's description reads as paragraphs: the YAML's hard line breaks joined.
      await page.selectOption('#lessons', 'scenarios/seed-runbook.yaml');
      const intro = await page.evaluate(
        () => [...document.querySelectorAll('#lesson-text .intro p')].map((p) => p.textContent ?? ''),
        undefined,
      );
      expect(intro[0]).toContain('A client grants a 9 s lease, takes the lock');
      expect(intro.every((p) => !p.includes('\n'))).toBe(true);
      await page.goto('about:blank');
      await page.goto(url, { timeout: 10_000 });
      // ← goes back to the last traced instant before the cursor, shift-→ a second on.
      await page.click('#picture-box');
      const before = s
        .fullResult()
        .trace.events.filter((e) => e.t < first)
        .pop()!.t;
      await page.keyboard.press('ArrowLeft');
      expect(await now()).toBe(before);
      await page.keyboard.press('Shift+ArrowRight');
      expect(await now()).toBe(before + 1_000_000);

      await page.goto('about:blank');
      await page.goto(`${url}#s=%25%25not-a-share-code&t=5000000`, { timeout: 10_000 });
      const said = await page.textContent('#errors');
      expect(said).toContain('#s= is damaged');
      expect(said).toContain('showing scenarios/seed-runbook.yaml instead');
      // The runbook runs under the message: its hash is the CLI's.
      expect(await page.textContent('#hash')).toBe(s.hash());
      expect(errors).toEqual([]);
    },
  );

  it(`at 390 px wide the page does not scroll sideways${SKIPPED}`, async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('about:blank');
    await page.goto(url, { timeout: 10_000 });
    await page.selectOption('#lessons', 'lesson:runbook-keepalive');
    expect(await page.evaluate(() => document.documentElement.scrollWidth, undefined)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1400, height: 900 });
  });
});
