// The differential suite's files, shared by the specs that check them.
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const SUITE_DIR = resolve(__dirname, '../../scenarios/differential');
export const SUITE_FILES = readdirSync(SUITE_DIR)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => join(SUITE_DIR, f));

/**
 * Files that need minutes of real time on etcd (3.4's checkpoint interval is fixed at 5 min): run when
 * LESSOR_SIM_LONG_DIFF=1, so `npm test` stays within minutes; `npx lessor-sim diff FILE` runs one alone.
 */
export const LONG_SUITE_DIR = join(SUITE_DIR, 'long');
export const LONG_SUITE_FILES = readdirSync(LONG_SUITE_DIR)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => join(LONG_SUITE_DIR, f));
export const RUN_LONG = process.env.LESSOR_SIM_LONG_DIFF === '1';
