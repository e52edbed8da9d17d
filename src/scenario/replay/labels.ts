import type { LeaseLabel } from '../types.js';

/**
 * The lease IDs behind a scenario's labels. A label is bound when its grant is answered; steps that
 * name it before then wait for the binding rather than being lost.
 */
export class LabelBook {
  private readonly ids = new Map<LeaseLabel, bigint>();
  private readonly byId = new Map<bigint, LeaseLabel>();
  private readonly waiting = new Map<LeaseLabel, Array<(id: bigint) => void>>();
  private readonly failed = new Map<LeaseLabel, string>();

  bind(label: LeaseLabel, id: bigint): void {
    this.ids.set(label, id);
    // An ID keeps its first label: a later grant of the same ID (an id-of probe once the lease is gone)
    // must not rename the first lease everywhere the run is narrated.
    if (!this.byId.has(id)) this.byId.set(id, label);
    const w = this.waiting.get(label) ?? [];
    this.waiting.delete(label);
    for (const fn of w) fn(id);
  }

  /** The grant for `label` failed: steps waiting on it will never run; say why when asked. */
  fail(label: LeaseLabel, why: string): void {
    this.failed.set(label, why);
    this.waiting.delete(label);
  }

  id(label: LeaseLabel): bigint | undefined {
    return this.ids.get(label);
  }

  labelOf(id: bigint): LeaseLabel | undefined {
    return this.byId.get(id);
  }

  /** Why `label` has no ID: its grant failed, or it is still pending. */
  whyUnbound(label: LeaseLabel): string {
    return this.failed.get(label) ?? `lease ${label} has not been granted yet (its grant is still in flight)`;
  }

  /** Runs `fn` with the label's ID now, or when it is bound; false if it never will be. */
  whenBound(label: LeaseLabel, fn: (id: bigint) => void): boolean {
    const id = this.ids.get(label);
    if (id !== undefined) {
      fn(id);
      return true;
    }
    if (this.failed.has(label)) return false;
    const w = this.waiting.get(label) ?? [];
    w.push(fn);
    this.waiting.set(label, w);
    return true;
  }

  entries(): Array<[LeaseLabel, bigint]> {
    return [...this.ids.entries()];
  }
}
