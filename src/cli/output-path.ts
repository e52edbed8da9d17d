/** Output paths are checked before a run or campaign starts, so a typo costs nothing. */
import { accessSync, constants, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CliError, UsageError } from './errors.js';
import { EXIT } from './exit-codes.js';

function isDir(p: string): boolean | undefined {
  try {
    return statSync(p).isDirectory();
  } catch {
    return undefined;
  }
}

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** A file the command will write: its folder must exist and be writable, and it must not be a folder. */
export function checkOutputFile(flag: string, file: string): void {
  const dir = dirname(resolve(file));
  if (isDir(file) === true) throw new UsageError(`${flag} ${file}: is a directory; name a file`);
  if (isDir(dir) !== true) throw new UsageError(`${flag} ${file}: the directory ${dirname(file)} does not exist`);
  if (!writable(dir)) throw new UsageError(`${flag} ${file}: the directory ${dirname(file)} is not writable`);
}

/**
 * A folder the command will create if needed: it must not be a file, and its nearest existing ancestor must be
 * writable.
 */
export function checkOutputDir(flag: string, dir: string): void {
  const kind = isDir(dir);
  if (kind === false) throw new UsageError(`${flag} ${dir}: is a file; name a directory`);
  let p = resolve(dir);
  while (isDir(p) === undefined && dirname(p) !== p) p = dirname(p);
  if (isDir(p) !== true) throw new UsageError(`${flag} ${dir}: ${p} is a file; name a directory`);
  if (!writable(p)) throw new UsageError(`${flag} ${dir}: ${p} is not writable`);
}

/** Writes an output file; a failure after the checks (disk full, removed folder) is one line, exit 3. */
export function writeOutput(file: string, text: string): void {
  try {
    mkdirSync(dirname(resolve(file)), { recursive: true });
    writeFileSync(file, text);
  } catch (e) {
    throw new CliError(`cannot write ${file} (${(e as NodeJS.ErrnoException).code ?? String(e)})`, EXIT.internal);
  }
}
