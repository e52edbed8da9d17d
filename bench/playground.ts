// Benchmark: the playground in headless Chromium with 3 members and 1,000 leases kept alive for 10
// virtual minutes. Figures: frames per second while playing at 10× (the cluster picture animating its
// messages in flight), the slowest of a series of jumps (the worst is 0 → the end, a fold of every
// recorded event), the one replay the page runs on open, and the time to open a topic lesson.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildPlayground } from '../src/playground-app/bundle.js';
import { playgroundBenchYaml, PLAYGROUND_LEASES, PLAYGROUND_MINUTES } from './playground-scenario.js';
import { report, type BenchResult } from './report.js';

const CHROMIUM = '/usr/bin/chromium';
const PLAY_MS = 4_000;

interface Page {
  goto(url: string, opts?: { timeout?: number }): Promise<unknown>;
  click(selector: string): Promise<void>;
  selectOption(selector: string, value: string): Promise<unknown>;
  waitForFunction(fn: string, arg?: unknown, opts?: { timeout?: number }): Promise<unknown>;
  evaluate<R>(fn: string): Promise<R>;
  waitForTimeout(ms: number): Promise<void>;
}
interface Cdp {
  send(method: string, params?: object): Promise<{ metrics?: { name: string; value: number }[] }>;
}
interface Ctx {
  newCDPSession(page: Page): Promise<Cdp>;
  pages(): Page[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

export async function playgroundBench(): Promise<BenchResult[]> {
  if (!existsSync(CHROMIUM)) return [report('playground (Chromium)', { skipped: `${CHROMIUM} is not installed` })];
  const work = mkdtempSync(join(tmpdir(), 'lessor-sim-playground-bench-'));
  const scenario = join(work, 'bench-1000.yaml');
  writeFileSync(scenario, playgroundBenchYaml());
  writeFileSync(join(work, 'index.html'), await buildPlayground(scenario));
  const pkg = 'playwright-core';
  const pw = (await import(pkg)) as { chromium: { launchPersistentContext(dir: string, o: object): Promise<Ctx> } };
  const ctx = await pw.chromium.launchPersistentContext(join(work, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    viewport: { width: 1400, height: 900 },
    timeout: 30_000,
  });
  try {
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    const t0 = performance.now();
    await page.goto(pathToFileURL(join(work, 'index.html')).href, { timeout: 120_000 });
    await page.waitForFunction("document.getElementById('hash').textContent.length === 64", undefined, {
      timeout: 120_000,
    });
    const openS = (performance.now() - t0) / 1000;

    await page.selectOption('#speed', '10');
    // Chromium's own accounting (DevTools' Performance domain): seconds of main-thread tasks, of style
    // recalculation and of layout so far.
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Performance.enable');
    const metrics = async (): Promise<Record<string, number>> =>
      Object.fromEntries(((await cdp.send('Performance.getMetrics')).metrics ?? []).map((m) => [m.name, m.value]));
    // Plays PLAY_MS at 10×: frames per second and virtual seconds per real second.
    // Also the script's own milliseconds per frame (advance and draw), and the whole main thread's, style's
    // and layout's per frame as Chromium counts them (the rest of a task is paint).
    const play = async (): Promise<[number, number, number, string]> => {
      await page.click('#play');
      await page.waitForTimeout(300);
      const f0 = await page.evaluate<number>('window.playground.frames()');
      const m0 = await page.evaluate<number>('window.playground.frameMs()');
      const c0 = await page.evaluate<number>('window.playground.cursor()');
      const b0 = await metrics();
      await page.waitForTimeout(PLAY_MS);
      const f1 = await page.evaluate<number>('window.playground.frames()');
      const m1 = await page.evaluate<number>('window.playground.frameMs()');
      const c1 = await page.evaluate<number>('window.playground.cursor()');
      const b1 = await metrics();
      await page.click('#play');
      const frames = Math.max(1, f1 - f0);
      const per = (k: string): string => (((b1[k]! - b0[k]!) * 1000) / frames).toFixed(1);
      return [
        ((f1 - f0) * 1000) / PLAY_MS,
        (c1 - c0) / 1e6 / (PLAY_MS / 1000),
        (m1 - m0) / frames,
        `${per('TaskDuration')} / ${per('RecalcStyleDuration')} / ${per('LayoutDuration')}`,
      ];
    };
    const [fps, virtualRate, scriptMs, browserMs] = await play();
    // The same with the picture hidden (no layout or paint of it), in the same process and moment: on a
    // loaded machine this says what the picture itself costs better than any absolute figure.
    await page.evaluate<void>("void (document.getElementById('picture-box').style.display = 'none')");
    const [fpsHidden, , scriptMsHidden] = await play();
    await page.evaluate<void>("void (document.getElementById('picture-box').style.display = '')");

    // Jumps as the scrubber makes them, timed in the page; 0 → the end last is the longest fold.
    const jumps = await page.evaluate<number[]>(`(() => {
      const el = document.getElementById('scrub');
      const end = Number(el.max);
      const targets = [end * 0.5, end * 0.1, end * 0.9, 0, end * 0.3, end * 0.7, 0, end];
      return targets.map((v) => {
        const s = performance.now();
        el.value = String(Math.round(v));
        el.dispatchEvent(new Event('input'));
        return performance.now() - s;
      });
    })()`);
    // Opening a topic lesson: its scenario replayed to the end, the picture's side channel recorded, the
    // lesson's instants and verdicts read off the run; timed in the page, for the runbook's lesson and
    // for the heaviest (3,000 leases).
    const lessonMs = await page.evaluate<number[]>(`(() => {
      const el = document.getElementById('lessons');
      return ['lesson:runbook-step5', 'lesson:knob-revoke-rate'].map((v) => {
        const s = performance.now();
        el.value = v;
        el.dispatchEvent(new Event('change'));
        return performance.now() - s;
      });
    })()`);
    return [
      report('playground (Chromium)', {
        scenario: `3 members, ${PLAYGROUND_LEASES} leases kept alive, ${PLAYGROUND_MINUTES} virtual min`,
        'fps at 10×': fps.toFixed(1),
        'fps at 10× with the picture hidden': fpsHidden.toFixed(1),
        'script ms per frame (shown / hidden)': `${scriptMs.toFixed(1)} / ${scriptMsHidden.toFixed(1)}`,
        'main thread / style / layout ms per frame (shown)': browserMs,
        'load average at the end': loadavg()[0]!.toFixed(1),
        'virtual s per real s': virtualRate.toFixed(1),
        'slowest jump (ms)': Math.max(...jumps).toFixed(0),
        'open (simulate the whole run, s)': openS.toFixed(1),
        'open a lesson (runbook Step 5, ms)': lessonMs[0]!.toFixed(0),
        'open a lesson (3,000-lease storm, ms)': lessonMs[1]!.toFixed(0),
      }),
    ];
  } finally {
    await ctx.close();
    rmSync(work, { recursive: true, force: true });
  }
}
