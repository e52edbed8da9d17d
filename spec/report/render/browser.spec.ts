// The rendered page in a real headless Chromium (playwright-core driving /usr/bin/chromium): lanes are
// there, hovering a mark shows its trace lines, nothing is fetched, and the screenshot has a picture in it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_MISSING, launchChromium } from '../../support/chromium.js';
import { renderTimelineHtml } from '../../../src/report/render/index.js';
import { colorStats, decodePng } from './png.js';
import { runFixture } from './support.js';

/** Where the screenshot is left for people to look at. */
const SCREENSHOT = join(tmpdir(), 'lessor-sim-render', 'leader-change.png');

const missing = CHROMIUM_MISSING;
if (missing !== undefined) console.warn(`[browser.spec] skipping the headless Chromium test: ${missing}`);

/** The little of playwright-core this test uses (imported by name at run time, so it stays optional). */
interface Locator {
  count(): Promise<number>;
  hover(opts?: { timeout?: number }): Promise<void>;
  textContent(): Promise<string | null>;
  isVisible(): Promise<boolean>;
  first(): Locator;
}
interface Page {
  goto(url: string, opts?: { timeout?: number }): Promise<unknown>;
  locator(selector: string): Locator;
  screenshot(opts: { path?: string; fullPage?: boolean }): Promise<Uint8Array>;
  on(event: 'request', fn: (r: { url(): string }) => void): void;
  on(event: 'pageerror', fn: (e: Error) => void): void;
}
interface BrowserContext {
  pages(): Page[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

describe('timeline page in headless Chromium', () => {
  it.skipIf(missing !== undefined)(
    `shows member, lease and client lanes, tooltips on hover, and a real picture${
      missing === undefined ? '' : ` (SKIPPED: ${missing})`
    }`,
    async () => {
      const result = runFixture('leader-change.yaml');
      const work = mkdtempSync(join(tmpdir(), 'lessor-sim-render-'));
      const file = join(work, 'timeline.html');
      writeFileSync(file, renderTimelineHtml(result));

      const ctx = await launchChromium<BrowserContext>(join(work, 'profile'));
      try {
        const page = ctx.pages()[0] ?? (await ctx.newPage());
        const requests: string[] = [];
        const errors: string[] = [];
        page.on('request', (r) => requests.push(r.url()));
        page.on('pageerror', (e) => errors.push(String(e)));
        await page.goto(pathToFileURL(file).href, { timeout: 10_000 });

        for (const m of ['n1', 'n2', 'n3']) expect(await page.locator(`svg [data-lane="member:${m}"]`).count()).toBe(1);
        for (const c of ['c1', 'c2']) expect(await page.locator(`svg [data-lane="client:${c}"]`).count()).toBe(1);
        expect(await page.locator('svg [data-lane^="lease:"]').count()).toBe(3);
        expect(await page.locator('[data-lane^="lease:"][data-label="L1"] .lane-label .label').textContent()).toBe(
          'L1 · TTL 6 s',
        );
        expect(await page.locator('[data-lane="member:n1"] .role-leader').count()).toBeGreaterThan(0);

        const tip = page.locator('#tip');
        expect(await tip.isVisible()).toBe(false);
        await page
          .locator('[data-lane^="lease:"][data-label="L2"] [data-kind="lease-revoke"]')
          .hover({ timeout: 5_000 });
        expect(await tip.isVisible()).toBe(true);
        const revokeTip = (await tip.textContent()) ?? '';
        expect(revokeTip).toContain('lease-revoke');
        expect(revokeTip).toContain('keys=/svc/b');

        await page.locator('[data-lane="member:n2"] .role-leader').first().hover({ timeout: 5_000 });
        expect(await tip.textContent()).toContain('n2 raft-role - role=leader term=2');
        await page.locator('[data-lane="harness"] .assert.fail').hover({ timeout: 5_000 });
        expect(await tip.textContent()).toContain('expect-fail');

        mkdirSync(join(tmpdir(), 'lessor-sim-render'), { recursive: true });
        const png = decodePng(await page.screenshot({ path: SCREENSHOT, fullPage: true }));
        expect(png.width).toBe(1400);
        expect(png.height).toBeGreaterThan(800);
        const stats = colorStats(png);
        expect(stats.distinct).toBeGreaterThan(50);
        expect(stats.dominantShare).toBeLessThan(0.9);

        expect(errors).toEqual([]);
        expect(requests.filter((u) => !u.startsWith('file:') && !u.startsWith('data:'))).toEqual([]);
      } finally {
        await ctx.close();
        rmSync(work, { recursive: true, force: true });
      }
    },
    20_000,
  );
});
