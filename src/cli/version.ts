import { readFileSync } from 'node:fs';

/** The package's version, from package.json two folders up (from src/cli/ in a checkout, dist/bin/ when built). */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
