/**
 * The client-side faults a scenario applies to a program under test (`pause: { app: NAME, for: 12s }`,
 * `kill: { app: NAME }`, `restart: { app: NAME }`), performed on its AppRunner. The end of a pause is
 * left to `timer`, so the caller decides what time means: serve passes its virtual scheduler (the
 * SIGCONT then happens at the virtual instant pause + for, paced to the wall clock like every other
 * event), a wall-clock harness passes `wallTimer`.
 */
import type { Micros } from '../clock/time.js';
import type { AppRunner } from './app-runner.js';

export type AppStep =
  | { readonly kind: 'pause'; readonly app: string; readonly forUs: Micros }
  | { readonly kind: 'kill'; readonly app: string }
  | { readonly kind: 'restart'; readonly app: string };

export interface AppTimer {
  /** Runs `fn` once `us` have passed on the caller's clock. */
  after(us: Micros, fn: () => void): void;
}

/** Real time: for harnesses that run on the wall clock (real etcd). */
export const wallTimer: AppTimer = {
  after: (us, fn) => {
    setTimeout(fn, us / 1000);
  },
};

/**
 * Performs the step; resolves when it is done (a pause: once the program is stopped; its resumption
 * follows on `timer`). Resolves to what kept it from acting (no such app, not running), or undefined.
 */
export async function performAppStep(
  apps: ReadonlyMap<string, AppRunner>,
  step: AppStep,
  timer: AppTimer,
): Promise<string | undefined> {
  const app = apps.get(step.app);
  if (app === undefined) return `no app named ${step.app}`;
  switch (step.kind) {
    case 'pause':
      if (!app.suspend()) return `${step.app} is not running`;
      timer.after(step.forUs, () => app.resume());
      return undefined;
    case 'kill':
      if (!app.running) return `${step.app} is not running`;
      await app.kill();
      return undefined;
    case 'restart':
      await app.restart();
      return undefined;
  }
}
