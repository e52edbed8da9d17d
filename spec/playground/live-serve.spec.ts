// `serve --playground` in a real headless Chromium: real etcdctl grants a lease, attaches a key and keeps the
// lease alive against the served cluster; the live page draws the lease ring, the connection as a client and
// its keep-alives in flight; a fault clicked on the page (pause n2) pauses n2 in the served cluster at that
// instant: the page shows it, serve's trace has it, and the record replays to serve's hash. Every wait is
// bounded and every child (serve, etcdctl) is waited for. It writes docs/playground-live.png.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etcdctl, lessorSim, ROOT, startServeChild, type ServeChild } from '../serve/child.js';
import { colorStats, decodePng } from '../report/render/png.js';
import { CHROMIUM_MISSING, launchChromium } from '../support/chromium.js';

const missing = CHROMIUM_MISSING;
if (missing !== undefined) console.warn(`[playground live-serve.spec] skipping: ${missing}`);
const SKIPPED = missing === undefined ? '' : ` (SKIPPED: ${missing})`;
const DOCS = join(ROOT, 'docs');

interface Page {
  goto(url: string, opts?: { timeout?: number }): Promise<unknown>;
  click(selector: string, opts?: { timeout?: number }): Promise<void>;
  textContent(selector: string): Promise<string | null>;
  waitForSelector(selector: string, opts?: { timeout?: number }): Promise<unknown>;
  waitForFunction<A>(fn: (arg: A) => boolean, arg: A, opts?: { timeout?: number }): Promise<unknown>;
  evaluate<R, A>(fn: (arg: A) => R, arg: A): Promise<R>;
  screenshot(opts: { path?: string }): Promise<Uint8Array>;
  on(event: 'pageerror', fn: (e: Error) => void): void;
}
interface BrowserContext {
  pages(): Page[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/** Waits (bounded) for a child to exit; kills it if it does not. */
async function reap(c: ServeChild, ms: number): Promise<number | null> {
  const timer = setTimeout(() => c.child.kill('SIGKILL'), ms);
  const code = await c.exited;
  clearTimeout(timer);
  return code;
}

describe.skipIf(missing !== undefined)('serve --playground in headless Chromium', () => {
  let work: string;
  let ctx: BrowserContext;
  let page: Page;
  let serve: ServeChild;
  let record: string;
  const errors: string[] = [];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'lessor-sim-live-'));
    record = join(work, 'served.jsonl');
    serve = await startServeChild(['--playground', '--record', record]);
    ctx = await launchChromium<BrowserContext>(join(work, 'profile'));
    page = ctx.pages()[0] ?? (await ctx.newPage());
    page.on('pageerror', (e) => errors.push(String(e)));
  }, 120_000);

  afterAll(async () => {
    await ctx?.close();
    if (serve !== undefined && serve.child.exitCode === null) {
      serve.child.kill('SIGTERM');
      await reap(serve, 10_000);
    }
    rmSync(work, { recursive: true, force: true });
  });

  const title = "shows etcdctl's lease, connection and keep-alives, and a clicked pause lands in the served cluster";
  it(`${title}${SKIPPED}`, async () => {
    const line = serve.stdout.find((l) => l.startsWith('# playground: the live view at '));
    expect(line).toMatch(/^# playground: the live view at http:\/\/127\.0\.0\.1:\d+\/$/);
    const url = line!.slice('# playground: the live view at '.length);
    await page.goto(url, { timeout: 15_000 });
    await page.waitForSelector('#status.live', { timeout: 15_000 });
    // The three members, drawn from the served cluster's state: n1 leads.
    await page.waitForSelector('g.member.role-leader[data-node="n1"]', { timeout: 5_000 });

    const env = { ETCDCTL_ENDPOINTS: serve.urls.n1! };
    const grant = await etcdctl(['lease', 'grant', '6'], env);
    expect(grant.code).toBe(0);
    const id = /lease ([0-9a-f]+) granted/.exec(grant.stdout)![1]!;
    // etcdctl pads the hex ID to 16 digits; the trace and the page print it without leading zeros.
    const hex = BigInt(`0x${id}`).toString(16);
    expect((await etcdctl(['put', '--lease', id, '/live/job', 'held'], env)).code).toBe(0);
    // The lease ring appears (lease rings carry the lease's hex ID when it has no label).
    await page.waitForSelector(`.lease-ring[data-lease="${hex}"]`, { timeout: 10_000 });
    await page.waitForFunction(
      (l) => document.querySelector(`.lease-ring[data-lease="${l}"]`)?.textContent?.includes('/live/job') === true,
      hex,
      { timeout: 5_000 },
    );

    // etcdctl keeps it alive for a while (every TTL/3 = 2 s): its connection is a client in the picture,
    // its renewals travel to n1 and the answers back, and the clients panel says which lease it renews.
    const keep = etcdctl(['lease', 'keep-alive', id], env, 7_000);
    try {
      await page.waitForSelector('.msg[data-kind="keepalive"][data-to="n1"]', { timeout: 10_000 });
      const client = await page.evaluate(
        () => document.querySelector('.msg[data-kind="keepalive"]')?.getAttribute('data-from') ?? '',
        undefined,
      );
      expect(client).toMatch(/^gRPC\d+$/);
      await page.waitForSelector(`g.client[data-node="${client}"]`, { timeout: 5_000 });
      await page.waitForFunction(
        ([c, lease]) => document.querySelector(`#clients [data-client="${c}"]`)?.textContent?.includes(lease) === true,
        [client, hex] as const,
        { timeout: 5_000 },
      );
      expect(await page.textContent(`#clients [data-client="${client}"]`)).toContain('LeaseKeepAlive');

      // A fault clicked on the page: n2 pauses in the served cluster, the picture greys it out and counts
      // its backlog, and serve's trace (streamed to the page) has the click and the pause.
      await page.click('#members button[data-act="pause"][data-member="n2"]', { timeout: 5_000 });
      await page.waitForSelector('g.member.paused[data-node="n2"]', { timeout: 5_000 });
      await page.waitForFunction(
        () => /served-fault .*action=pause member=n2/.test(document.getElementById('story')?.textContent ?? ''),
        undefined,
        { timeout: 5_000 },
      );
      expect(await page.textContent('#story')).toMatch(/n2 member-pause/);
      await page.waitForFunction(
        () => Number(document.querySelector('[data-node="n2"] .backlog')?.getAttribute('data-backlog')) > 0,
        undefined,
        { timeout: 5_000 },
      );
      // A keep-alive renewal on the picture for the screenshot.
      await page.waitForSelector('.msg[data-kind="keepalive-answer"]', { timeout: 5_000 });
      const png = decodePng(await page.screenshot({ path: join(DOCS, 'playground-live.png') }));
      expect(png.width).toBe(1400);
      expect(colorStats(png).distinct).toBeGreaterThan(50);
      // The page refuses what does not fit, and says why.
      await page.click('#members button[data-act="resume"][data-member="n2"]', { timeout: 5_000 });
      await page.waitForSelector('g.member[data-node="n2"]:not(.paused)', { timeout: 5_000 });
    } finally {
      const k = await keep;
      expect(k.stdout).toContain(`lease ${id} keepalived with TTL(6)`);
    }

    // serve stops on SIGINT with the run's hash; the record, with the clicked faults in it, replays to it.
    serve.child.kill('SIGINT');
    expect(await reap(serve, 15_000)).toBe(0);
    const hash = serve.stdout.map((l) => /sha256 ([0-9a-f]{64})/.exec(l)?.[1]).find((h) => h !== undefined);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    const inputs = readFileSync(record, 'utf8');
    expect(inputs).toMatch(/"kind":"fault","action":"pause","member":"n2"/);
    expect(inputs).toMatch(/"kind":"fault","action":"resume","member":"n2"/);
    const replay = lessorSim(['run', '--input', record]);
    expect(replay.stdout).toContain(hash);
    const trace = lessorSim(['trace', '--input', record]).stdout;
    expect(trace).toMatch(/ sim served-fault - action=pause member=n2\n.* n2 member-pause /);
    expect(errors).toEqual([]);
  }, 120_000);
});
