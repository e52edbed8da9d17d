/**
 * A campaign's fault schedule over programs under test: app stalls (SIGSTOP for a while, the runbook's GC
 * pause), member pauses and member crashes with a restart, each at a time within the run. Drawn from a
 * seeded PRNG (run i from the campaign seed and i alone), written as a scenario file (`pause: { app: NAME,
 * for: … }` beside the member steps), and made smaller by the shrinker's candidates.
 */
import { Prng } from '../../clock/prng.js';
import type { Micros } from '../../clock/time.js';

export type Fault =
  | { readonly kind: 'pause-app'; readonly atUs: Micros; readonly app: string; readonly forUs: Micros }
  | { readonly kind: 'pause-member'; readonly atUs: Micros; readonly member: string; readonly forUs: Micros }
  | { readonly kind: 'crash-member'; readonly atUs: Micros; readonly member: string; readonly forUs: Micros };

export interface Schedule {
  readonly seed: number;
  readonly durationUs: Micros;
  readonly faults: readonly Fault[];
}

export interface DrawOptions {
  readonly apps: readonly string[];
  readonly members: readonly string[];
  readonly durationUs: Micros;
}

/** Times and lengths are whole multiples of this. */
export const GRAIN_US = 100_000;
/** The shortest stall the schedules draw or shrink to. */
export const MIN_FOR_US = 500_000;
/** Faults start after the programs have had this long to acquire. */
const FIRST_AT_US = 1_000_000;

const grains = (us: Micros): number => Math.floor(us / GRAIN_US);

/** Run `index` of the campaign `seed`: one to three faults, mostly app stalls. */
export function drawSchedule(seed: number, index: number, o: DrawOptions): Schedule {
  const rng = new Prng(`app-check/${seed}/${index}`);
  const lastAt = Math.max(grains(FIRST_AT_US), grains(o.durationUs - 1_000_000));
  const maxFor = Math.max(grains(MIN_FOR_US), grains(o.durationUs / 2));
  const faults: Fault[] = [];
  const count = rng.int(1, 3);
  for (let i = 0; i < count; i++) {
    const atUs = rng.int(grains(FIRST_AT_US), lastAt) * GRAIN_US;
    // Every fault ends at least half a second before the run does (a crashed member restarts within it).
    const forUs = Math.max(
      MIN_FOR_US,
      Math.min(rng.int(grains(MIN_FOR_US), maxFor) * GRAIN_US, o.durationUs - atUs - 500_000),
    );
    const roll = rng.int(0, 99);
    if (roll < 60) faults.push({ kind: 'pause-app', atUs, app: o.apps[rng.int(0, o.apps.length - 1)]!, forUs });
    else {
      const member = o.members[rng.int(0, o.members.length - 1)]!;
      faults.push({ kind: roll < 85 ? 'pause-member' : 'crash-member', atUs, member, forUs });
    }
  }
  return { seed: rng.int(0, 2 ** 31 - 1), durationUs: o.durationUs, faults: consistent(faults) };
}

/** A duration as the scenario format writes it: whole seconds as `3s`, anything else in milliseconds. */
export function formatDur(us: Micros): string {
  return us % 1_000_000 === 0 ? `${us / 1_000_000}s` : `${Math.round(us / 1000)}ms`;
}

/** Two faults on one member may not overlap (a crashed member cannot be paused): the later one is dropped. */
export function consistent(faults: readonly Fault[]): Fault[] {
  const busyUntil = new Map<string, Micros>();
  const out: Fault[] = [];
  for (const f of [...faults].sort((a, b) => a.atUs - b.atUs)) {
    const target = f.kind === 'pause-app' ? `app:${f.app}` : `member:${f.member}`;
    if ((busyUntil.get(target) ?? -1) >= f.atUs) continue;
    busyUntil.set(target, f.atUs + f.forUs);
    out.push(f);
  }
  return out;
}

interface TimedStep {
  readonly atUs: Micros;
  readonly lines: readonly string[];
}

/** Each fault's steps (a crash is two: crash, then restart), each with its instant. */
function stepsOf(f: Fault): TimedStep[] {
  const at = (us: Micros, line: string): TimedStep => ({
    atUs: us,
    lines: [`  - at: ${formatDur(us)}`, `    ${line}`],
  });
  switch (f.kind) {
    case 'pause-app':
      return [at(f.atUs, `pause: { app: ${f.app}, for: ${formatDur(f.forUs)} }`)];
    case 'pause-member':
      return [at(f.atUs, `pause: { member: ${f.member}, for: ${formatDur(f.forUs)} }`)];
    case 'crash-member':
      return [at(f.atUs, `crash: { member: ${f.member} }`), at(f.atUs + f.forUs, `restart: { member: ${f.member} }`)];
  }
}

/** The faults as scenario steps (YAML lines) in time order. */
function stepLines(faults: readonly Fault[]): string[] {
  return faults
    .flatMap(stepsOf)
    .sort((a, b) => a.atUs - b.atUs)
    .flatMap((s) => s.lines);
}

/** The scenario a run serves: the default cluster's profile, the schedule's seed, duration and faults. */
export function scenarioText(name: string, s: Schedule, header: readonly string[] = []): string {
  const steps = allSteps(s);
  return [
    ...header,
    `name: ${name}`,
    'profile: v3.4',
    `seed: ${s.seed}`,
    `duration: ${formatDur(s.durationUs)}`,
    ...(steps.length === 0 ? ['steps: []'] : ['steps:', ...steps]),
    '',
  ].join('\n');
}

/** Every fault in time order, app stalls (`pause: { app: NAME, for: … }`) and member faults, as steps. */
export const allSteps = (s: Schedule): string[] => stepLines(s.faults);

/**
 * Smaller schedules to try, most shrinking first: without one fault; the run cut to 2 s after the last
 * fault ends; each stall halved, then a grain shorter, either from the same start or ending at the same
 * instant (a later start); each fault earlier (halfway to the first allowed instant, then a grain).
 */
export function shrinkCandidates(s: Schedule): Schedule[] {
  const out: Schedule[] = [];
  const withFaults = (faults: readonly Fault[]): Schedule => ({ ...s, faults: consistent(faults) });
  const replace = (i: number, f: Fault): Schedule => withFaults(s.faults.map((g, j) => (j === i ? f : g)));
  for (let i = 0; i < s.faults.length; i++) out.push(withFaults(s.faults.filter((_, j) => j !== i)));
  const lastEnd = Math.max(0, ...s.faults.map((f) => f.atUs + f.forUs));
  const cut = (grains(lastEnd) + 20) * GRAIN_US;
  if (cut < s.durationUs) out.push({ ...s, durationUs: cut });
  const snap = (us: Micros): Micros => Math.max(MIN_FOR_US, grains(us) * GRAIN_US);
  for (const [i, f] of s.faults.entries()) {
    for (const forUs of [snap(f.forUs / 2), snap(f.forUs - GRAIN_US)]) {
      if (forUs >= f.forUs) continue;
      // Shorter, from the same start; and shorter ending at the same instant (a later start).
      out.push(replace(i, { ...f, forUs }));
      out.push(replace(i, { ...f, forUs, atUs: f.atUs + f.forUs - forUs }));
    }
  }
  for (const [i, f] of s.faults.entries()) {
    const half = Math.max(FIRST_AT_US, grains((f.atUs + FIRST_AT_US) / 2) * GRAIN_US);
    for (const atUs of [half, f.atUs - GRAIN_US])
      if (atUs >= FIRST_AT_US && atUs < f.atUs) out.push(replace(i, { ...f, atUs }));
  }
  const seen = new Set<string>([key(s)]);
  return out.filter((c) => {
    const k = key(c);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

const key = (s: Schedule): string => JSON.stringify(s);

/** A total size: the shrinker accepts a candidate only when it is smaller by this measure. */
export function size(s: Schedule): number {
  return s.faults.length * 1e12 + s.durationUs + s.faults.reduce((n, f) => n + f.forUs * 2 + f.atUs, 0);
}
