// The playground in a real headless Chromium (playwright-core driving /usr/bin/chromium, as the timeline
// test does): it loads clean and offline, the runbook lesson deletes the key when the CLI does, a paused
// leader hands over to a new one that promotes, an export replays in the CLI to the page's hash,
// scrubbing around lands on the state of going straight there, and the views look like something.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_MISSING, launchChromium } from '../support/chromium.js';
import { buildPlayground } from '../../src/playground-app/bundle.js';
import { parseScenario } from '../../src/scenario/parse.js';
import { runScenario } from '../../src/scenario/replay/runner.js';
import { colorStats, decodePng } from '../report/render/png.js';

const ROOT = resolve(__dirname, '../..');
/** Where the screenshots are left for people to look at. */
export const SHOTS = join(tmpdir(), 'lessor-sim-playground');

const missing = CHROMIUM_MISSING;
if (missing !== undefined) console.warn(`[playground browser.spec] skipping the headless Chromium tests: ${missing}`);
const SKIPPED = missing === undefined ? '' : ` (SKIPPED: ${missing})`;

/** The little of playwright-core these tests use (imported by name at run time, so it stays optional). */
interface Page {
  goto(url: string, opts?: { timeout?: number }): Promise<unknown>;
  click(selector: string, opts?: { timeout?: number }): Promise<void>;
  selectOption(selector: string, value: string): Promise<unknown>;
  textContent(selector: string): Promise<string | null>;
  inputValue(selector: string): Promise<string>;
  getAttribute(selector: string, name: string): Promise<string | null>;
  innerHTML(selector: string): Promise<string>;
  locator(selector: string): { count(): Promise<number> };
  evaluate<R, A>(fn: (arg: A) => R, arg: A): Promise<R>;
  waitForSelector(selector: string, opts?: { timeout?: number }): Promise<unknown>;
  screenshot(opts: { path?: string; fullPage?: boolean }): Promise<Uint8Array>;
  on(event: 'request', fn: (r: { url(): string }) => void): void;
  on(event: 'pageerror', fn: (e: Error) => void): void;
  on(event: 'console', fn: (m: { type(): string; text(): string }) => void): void;
}
interface BrowserContext {
  pages(): Page[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

describe.skipIf(missing !== undefined)('playground in headless Chromium', () => {
  let work: string;
  let ctx: BrowserContext;
  let page: Page;
  let url: string;
  const requests: string[] = [];
  const errors: string[] = [];

  const now = async (): Promise<number> => Number(await page.getAttribute('#now', 'data-us'));
  const scrubTo = (ms: number): Promise<void> =>
    page.evaluate((v) => {
      const el = document.getElementById('scrub') as HTMLInputElement;
      el.value = String(v);
      el.dispatchEvent(new Event('input'));
    }, ms);
  const panels = async (): Promise<string[]> =>
    Promise.all(['#members', '#leases', '#keys', '#clients', '#recent', '#now'].map((s) => page.innerHTML(s)));
  const shot = async (name: string): Promise<void> => {
    const png = decodePng(await page.screenshot({ path: join(SHOTS, name), fullPage: true }));
    expect(png.width).toBe(1400);
    const stats = colorStats(png);
    expect(stats.distinct).toBeGreaterThan(50);
    expect(stats.dominantShare).toBeLessThan(0.9);
  };

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'lessor-sim-playground-'));
    writeFileSync(join(work, 'index.html'), await buildPlayground());
    url = pathToFileURL(join(work, 'index.html')).href;
    mkdirSync(SHOTS, { recursive: true });
    ctx = await launchChromium<BrowserContext>(join(work, 'profile'));
    page = ctx.pages()[0] ?? (await ctx.newPage());
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
  }, 30_000);

  afterAll(async () => {
    await ctx?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it(`loads with no console error and fetches nothing${SKIPPED}`, async () => {
    await page.goto(url, { timeout: 10_000 });
    expect(await page.textContent('#title')).toBe('seed-runbook-paused-keepalive');
    expect(await page.locator('.card.member').count()).toBe(3);
    expect(await page.textContent('#hash')).toBe(
      runScenario(parsed(readFileSync(join(ROOT, 'scenarios/seed-runbook.yaml'), 'utf8'))).trace.hash(),
    );
    await shot('start.png');
    expect(errors).toEqual([]);
    expect(requests.filter((u) => !u.startsWith('file:') && !u.startsWith('data:'))).toEqual([]);
  });

  it(`plays the runbook lesson: the key is deleted at the virtual time the CLI deletes it${SKIPPED}`, async () => {
    const cli = runScenario(parsed(readFileSync(join(ROOT, 'scenarios/seed-runbook.yaml'), 'utf8')));
    const deleted = cli.trace.events.find((e) => e.kind === 'kv-delete' && e.member === 'n1')!.t;
    await page.selectOption('#lessons', 'scenarios/seed-runbook.yaml');
    expect(await page.textContent('#lesson-text')).toContain('Implementing Lease Heartbeat Renewal');
    const held = async (): Promise<boolean> => (await page.locator('#keys [data-key="/locks/payment-42"]').count()) > 0;
    for (let i = 0; i < 5 && !(await held()); i++) await page.click('#next');
    expect(await held()).toBe(true);
    let before = -1;
    for (let i = 0; i < 20 && (await held()); i++) {
      before = await now();
      await page.click('#next');
    }
    expect(before).toBeLessThan(deleted);
    expect(await now()).toBe(deleted);
    expect(await page.textContent('#lesson-text')).toContain('revoked: deleted /locks/payment-42');
    await shot('lesson.png');
  });

  it(`pausing the leader and playing on shows the new leader's Promote; ` +
    `the export replays in the CLI to the page's hash${SKIPPED}`, async () => {
    await page.goto('about:blank');
    await page.goto(`${url}#file=scenarios/seed-runbook.yaml`, { timeout: 10_000 });
    await scrubTo(4000);
    await page.click('[data-member="n1"] button[data-act="pause"]');
    expect(await page.textContent('[data-member="n1"]')).toContain('paused');
    await page.selectOption('#speed', '10');
    await page.click('#play');
    await page.waitForSelector('[data-member="n2"].role-leader, [data-member="n3"].role-leader', { timeout: 10_000 });
    await page.click('#play');
    const leader = (await page.locator('[data-member="n2"].role-leader').count()) > 0 ? 'n2' : 'n3';
    await page.click(`[data-member="${leader}"] .facts`);
    expect(await page.textContent('#detail')).toMatch(new RegExp(`${leader} lessor-promote - extend=`));
    expect(await page.textContent(`[data-member="${leader}"]`)).toContain('primary lessor');
    await page.click('button[data-act="grant"]');
    await page.click('#step');
    await shot('leader-change.png');

    await page.click('#export');
    const yaml = await page.inputValue('#yaml');
    expect(yaml).toMatch(/pause: \{ member: n1 \}/);
    expect(yaml).toMatch(/grant: \{ lease: P1, ttl: 10 \}/);
    const file = join(work, 'exported.yaml');
    writeFileSync(file, yaml);
    // Exit 1 is fine: the runbook's assertions no longer all hold once its leader is paused.
    const cli = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'run', file, '--json'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(cli.stderr).toBe('');
    const cliHash = (JSON.parse(cli.stdout) as Array<{ traceHash: string }>)[0]!.traceHash;
    expect(cliHash).toBe(await page.textContent('#hash'));

    await page.click('#share');
    const shared = await page.inputValue('#share-url');
    await page.goto('about:blank');
    await page.goto(shared, { timeout: 10_000 });
    expect(await page.textContent('#hash')).toBe(cliHash);
    expect(errors).toEqual([]);
  }, 40_000);

  it(`draws the README's docs/playground.png from the page as it is: the runbook at 11.2 s${SKIPPED}`, async () => {
    // Regenerated on every run, so the picture shows what the page shows now (hash, times, layout).
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(
      '![the playground on the runbook at 11.2 s: members, a depleting TTL bar, the paused client, ' +
        'the timeline with its cursor](docs/playground.png)',
    );
    await page.goto('about:blank');
    await page.goto(`${url}#file=scenarios/seed-runbook.yaml&t=11200000`, { timeout: 10_000 });
    expect(await page.textContent('#now')).toContain('11.200 s');
    expect(await page.textContent('#hash')).toContain(
      runScenario(parsed(readFileSync(join(ROOT, 'scenarios/seed-runbook.yaml'), 'utf8'))).trace.hash(),
    );
    expect(await page.textContent('[data-client="c1"], #clients')).toContain('paused');
    expect(await page.locator('.card.member').count()).toBe(3);
    await page.screenshot({ path: join(ROOT, 'docs/playground.png'), fullPage: true });
    const png = decodePng(readFileSync(join(ROOT, 'docs/playground.png')));
    expect(png.width).toBe(1400);
    expect(colorStats(png).distinct).toBeGreaterThan(50);
    expect(errors).toEqual([]);
  });

  it(`scrubbing back and forth leaves the state of going straight there${SKIPPED}`, async () => {
    await page.goto('about:blank');
    await page.goto(`${url}#file=scenarios/checkpoint-off-leader-change.yaml&t=45000000`, { timeout: 10_000 });
    const straight = await panels();
    expect(straight[5]).toContain('45.000 s');
    for (const ms of [80_000, 10_000, 60_000, 31_000, 45_000]) await scrubTo(ms);
    expect(await panels()).toEqual(straight);
    expect(await page.textContent('#leases')).toContain('before the leader change it was');
    await shot('scrubbed.png');
    expect(errors).toEqual([]);
  });
});

function parsed(text: string): import('../../src/scenario/types.js').Scenario {
  const p = parseScenario(text, 'scenarios/seed-runbook.yaml');
  if (!p.ok) throw new Error('does not parse');
  return p.scenario;
}
