// Debian's Chromium driven by playwright-core, for the tests that look at a page in a real browser: where
// it is, the flags this sandbox needs (no background networking: the machine's network is closed), why
// a test must skip, and one way to start it.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function resolvable(name: string): boolean {
  try {
    createRequire(import.meta.url).resolve(name);
    return true;
  } catch {
    return false;
  }
}

/** Why the browser tests cannot run here, or undefined when they can. */
export const CHROMIUM_MISSING = !existsSync(CHROMIUM)
  ? `${CHROMIUM} is not installed (apt-get install -y chromium)`
  : !resolvable('playwright-core')
    ? 'the npm package playwright-core is not installed'
    : undefined;

/**
 * A persistent Chromium context with a fresh profile in `profileDir`, typed as the caller's own small view
 * of playwright-core (imported by name at run time, so the package stays optional).
 */
export async function launchChromium<Context>(
  profileDir: string,
  viewport = { width: 1400, height: 900 },
): Promise<Context> {
  const pkg = 'playwright-core';
  const pw = (await import(pkg)) as {
    chromium: { launchPersistentContext(dir: string, opts: object): Promise<Context> };
  };
  return pw.chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
    timeout: 15_000,
  });
}
