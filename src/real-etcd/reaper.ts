/**
 * A watchdog that ends the driver's children when the driver dies in a way it cannot clean up after
 * (SIGKILL, or SIGQUIT/SIGUSR2/SIGALRM, whose default action ends a process without running handlers).
 * It is a separate Node process in its own session, told each child's process group and each temp
 * folder over its stdin; when that pipe closes (the driver is gone, however it went) it kills the groups
 * still listed and removes the folders. Children the driver ended itself are struck off first, so a
 * reused process-group id is never signalled.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';

const SOURCE = `
const groups = new Set();
const dirs = new Set();
let buf = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => {
  buf += d;
  for (let i = buf.indexOf('\\n'); i >= 0; i = buf.indexOf('\\n')) {
    const m = JSON.parse(buf.slice(0, i));
    buf = buf.slice(i + 1);
    const set = m.group !== undefined ? groups : dirs;
    const v = m.group !== undefined ? m.group : m.dir;
    if (m.gone) set.delete(v); else set.add(v);
  }
});
process.stdin.on('end', () => {
  for (const g of groups) { try { process.kill(-g, 'SIGKILL'); } catch {} }
  for (const d of dirs) { try { require('node:fs').rmSync(d, { recursive: true, force: true }); } catch {} }
  process.exit(0);
});
`;

let reaper: ChildProcess | undefined;

function tell(message: { group: number; gone?: true } | { dir: string; gone?: true }): void {
  if (reaper === undefined) {
    reaper = spawn(process.execPath, ['-e', SOURCE], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
    // Neither the process nor its pipe keeps the driver alive; the pipe closes when the driver exits.
    reaper.unref();
    (reaper.stdin as unknown as Socket).unref();
    reaper.stdin!.on('error', () => {});
  }
  reaper.stdin!.write(`${JSON.stringify(message)}\n`);
}

/** A child started in its own process group `group` (its pid): killed if the driver dies first. */
export const reapGroup = (group: number): void => tell({ group });
export const groupGone = (group: number): void => tell({ group, gone: true });
export const reapDir = (dir: string): void => tell({ dir });
export const dirGone = (dir: string): void => tell({ dir, gone: true });
