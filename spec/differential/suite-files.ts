// The differential suite's files, shared by the specs that check them.
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const SUITE_DIR = resolve(__dirname, '../../scenarios/differential');
export const SUITE_FILES = readdirSync(SUITE_DIR)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => join(SUITE_DIR, f));
