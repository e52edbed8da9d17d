/**
 * Output paths are checked before a run or campaign starts, so a typo costs nothing: the folder must take a
 * new file (tried, not guessed from permission bits, which say yes to root on /proc and /sys), and an output
 * is never one of the command's inputs.
 */
import { accessSync, closeSync, constants, mkdirSync, openSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
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

/** Whether two paths name one file: the same path, or the same inode (a link, a `./` spelling). */
export function sameFile(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  try {
    const x = statSync(a);
    const y = statSync(b);
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

/** Refuses an output that is one of the command's inputs: writing it would destroy what was read. */
export function refuseInputAsOutput(flag: string, file: string, inputs: readonly string[]): void {
  const input = inputs.find((i) => sameFile(i, file));
  if (input !== undefined) throw new UsageError(`${flag} ${file}: is an input (${input}); name another file`);
}

/** Opens the file for writing without changing it, or creates and removes it: what the OS will say later. */
function probeFile(flag: string, file: string): void {
  try {
    if (isDir(file) === false) closeSync(openSync(file, 'r+'));
    else {
      closeSync(openSync(file, 'wx'));
      unlinkSync(file);
    }
  } catch (e) {
    throw new UsageError(`${flag} ${file}: cannot be written (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
}

/**
 * A file the command will write: its folder must exist and take the file, it must not be a folder, and it
 * must not be one of `inputs`.
 */
export function checkOutputFile(flag: string, file: string, inputs: readonly string[] = []): void {
  const dir = dirname(resolve(file));
  if (isDir(file) === true) throw new UsageError(`${flag} ${file}: is a directory; name a file`);
  if (isDir(dir) !== true) throw new UsageError(`${flag} ${file}: the directory ${dirname(file)} does not exist`);
  if (!writable(dir)) throw new UsageError(`${flag} ${file}: the directory ${dirname(file)} is not writable`);
  refuseInputAsOutput(flag, file, inputs);
  probeFile(flag, file);
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
  const probe = join(p, `.lessor-sim-probe-${process.pid}`);
  try {
    closeSync(openSync(probe, 'wx'));
    unlinkSync(probe);
  } catch (e) {
    throw new UsageError(
      `${flag} ${dir}: ${p} cannot take new files (${(e as NodeJS.ErrnoException).code ?? String(e)})`,
    );
  }
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
