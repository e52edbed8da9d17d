import { chromium } from 'playwright-core';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const dir = mkdtempSync(join(tmpdir(), 'chr-'));
const ctx = await chromium.launchPersistentContext(dir, { executablePath: '/usr/bin/chromium', headless: true, viewport: { width: 1400, height: 900 }, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
const page = ctx.pages()[0] ?? await ctx.newPage();
await page.goto('file://' + process.argv[2]);
const sel = process.argv[4];
if (sel) { await page.hover(sel); console.log(await page.textContent('#tip')); }
await page.screenshot({ path: process.argv[3], fullPage: false });
await ctx.close();
