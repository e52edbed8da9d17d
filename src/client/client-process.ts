import { Process } from '../clock/process.js';
import type { Scheduler, Timer } from '../clock/scheduler.js';
import type { Micros } from '../clock/time.js';
import { NO_TRACE, type Trace } from '../trace/trace.js';

/**
 * A client is one `Process` (src/clock/process.ts), and pausing a client is done on that Process:
 * `process.pause()` is SIGSTOP or a stop-the-world GC pause. While paused, every timer of the client
 * (keepalive send loop, deadline loop, unary deadlines, backoff waits) and every network callback the
 * transport delivers to it (responses, watch events, stream errors) is held; on `resume()` they run
 * late, at the resume instant, in the order they came due. Nothing the client sends leaves while it is
 * paused, so its leases are not renewed; the servers keep running. `kill()` drops everything (SIGKILL).
 *
 * The helpers below only add the trace events and schedule the resume on the scheduler itself — a
 * resume scheduled on the paused process would be held forever.
 */
export function newClientProcess(name: string, sched: Scheduler): Process {
  return new Process(name, sched);
}

export function pauseClient(process: Process, trace: Trace = NO_TRACE): void {
  if (!process.running) return;
  process.pause();
  if (trace.enabled) trace.emit({ t: process.now(), member: process.name, kind: 'client-pause' });
}

export function resumeClient(process: Process, trace: Trace = NO_TRACE): void {
  if (!process.paused) return;
  if (trace.enabled) trace.emit({ t: process.now(), member: process.name, kind: 'client-resume' });
  process.resume();
}

/** Pauses now and resumes after `durationUs` (the runbook's `kill -STOP`, `sleep 12`, `kill -CONT`). */
export function pauseClientFor(sched: Scheduler, process: Process, durationUs: Micros, trace: Trace = NO_TRACE): Timer {
  pauseClient(process, trace);
  return sched.after(durationUs, () => resumeClient(process, trace));
}
