// The playground page with hostile input: a file whose text holds `<!--` or `</script>` loads as any other
// (the baked JSON escapes every `<`), and a share link whose scenario is damaged or invalid shows why and
// runs the first lesson instead of throwing a TypeError and showing nothing.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPlayground } from '../../src/playground-app/bundle.js';
import { encodeShare } from '../../src/playground/share.js';
import { CHROMIUM_MISSING, launchChromium } from '../support/chromium.js';

const ROOT = resolve(__dirname, '../..');
const missing = CHROMIUM_MISSING;
const SKIPPED = missing === undefined ? '' : ` (SKIPPED: ${missing})`;

interface Page {
  goto(url: string, opts?: { timeout?: number }): Promise<unknown>;
  textContent(selector: string): Promise<string | null>;
  on(event: 'pageerror', fn: (e: Error) => void): void;
}
interface BrowserContext {
  pages(): Page[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

const HOSTILE = readFileSync(join(ROOT, 'scenarios/seed-runbook.yaml'), 'utf8').replace(
  /^name: .*$/m,
  'name: "comment-<!--<script>-and-</script>-end"',
);

describe.skipIf(missing !== undefined)('playground with hostile input', () => {
  let work: string;
  let ctx: BrowserContext;
  let page: Page;
  let url: string;
  const errors: string[] = [];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'lessor-sim-hostile-page-'));
    const file = join(work, 'hostile.yaml');
    writeFileSync(file, HOSTILE);
    writeFileSync(join(work, 'index.html'), await buildPlayground(file));
    url = pathToFileURL(join(work, 'index.html')).href;
    ctx = await launchChromium<BrowserContext>(join(work, 'profile'));
    page = ctx.pages()[0] ?? (await ctx.newPage());
    page.on('pageerror', (e) => errors.push(String(e)));
  }, 60_000);

  afterAll(async () => {
    await ctx?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it(`opens a file holding <!-- and </script> as any other${SKIPPED}`, async () => {
    await page.goto(url, { timeout: 20_000 });
    expect(await page.textContent('#title')).toBe('comment-<!--<script>-and-</script>-end');
    expect(await page.textContent('#hash')).toMatch(/^[0-9a-f]{64}$/);
    expect(errors).toEqual([]);
  });

  it(`runs a share link whose alert regex would backtrack for hours on a long client name${SKIPPED}`, async () => {
    const evil = `${'a'.repeat(60)}b`;
    const text = [
      'name: redos',
      'duration: 3s',
      'alerts:',
      '  rules:',
      '    - alert: A',
      '      expr: up{instance=~"(a|aa)+"} == 0',
      'steps:',
      '  - at: 0s',
      `    holder: { name: h, strategy: runbook-go-step3, key: /k, ttl: 5, client: ${evil} }`,
      '',
    ].join('\n');
    errors.length = 0;
    await page.goto('about:blank');
    await page.goto(`${url}#s=${encodeShare(text)}`, { timeout: 20_000 });
    expect(await page.textContent('#title')).toBe('redos');
    expect(await page.textContent('#errors')).toBe('');
    expect(errors).toEqual([]);
  });

  it.each([
    ['an invalid scenario', encodeShare('name: x\nsteps: [\n'), /cannot open shared\.yaml/],
    [
      'a label regex RE2 refuses',
      encodeShare(
        HOSTILE.replace(/^steps:/m, 'alerts:\n  rules:\n    - alert: A\n      expr: up{instance=~"("} == 0\nsteps:'),
      ),
      /not RE2 syntax/,
    ],
    ['a damaged link', '%%%not-base64', /the link holds no scenario this page can read/],
  ])(`shows why a share link with %s does not open, and runs the first lesson${SKIPPED}`, async (_, code, why) => {
    errors.length = 0;
    await page.goto('about:blank');
    await page.goto(`${url}#s=${code}&t=5000000`, { timeout: 20_000 });
    expect(await page.textContent('#errors')).toMatch(why);
    expect(await page.textContent('#errors')).toMatch(/\nshowing \S*hostile\.yaml instead$/);
    expect(await page.textContent('#title')).toBe('comment-<!--<script>-and-</script>-end');
    expect(await page.textContent('#hash')).toMatch(/^[0-9a-f]{64}$/);
    expect(errors).toEqual([]);
  });
});
