/**
 * The real lease IDs behind a scenario's labels, as promises: a step naming a label waits for its grant
 * to be answered (as the simulation's LabelBook does), and learns why if the grant failed.
 */
type Waiter = (id: bigint | string) => void;

export class LeaseIds {
  private readonly ids = new Map<string, bigint>();
  private readonly failed = new Map<string, string>();
  private readonly waiters = new Map<string, Waiter[]>();

  bind(label: string, id: bigint): void {
    this.ids.set(label, id);
    this.settle(label, id);
  }

  fail(label: string, why: string): void {
    this.failed.set(label, why);
    this.settle(label, why);
  }

  /** The ID now, or why there is none (yet). */
  now(label: string): bigint | string {
    return (
      this.ids.get(label) ??
      this.failed.get(label) ??
      `lease ${label} has not been granted yet (its grant is still in flight)`
    );
  }

  /** The ID once the grant is answered, or why it never will be. */
  wait(label: string): Promise<bigint | string> {
    const known = this.ids.get(label) ?? this.failed.get(label);
    if (known !== undefined) return Promise.resolve(known);
    return new Promise((resolve) => this.waiters.set(label, [...(this.waiters.get(label) ?? []), resolve]));
  }

  /** Releases every step still waiting: the run is over. */
  abandon(why: string): void {
    for (const label of [...this.waiters.keys()]) this.settle(label, why);
  }

  private settle(label: string, v: bigint | string): void {
    const w = this.waiters.get(label) ?? [];
    this.waiters.delete(label);
    for (const fn of w) fn(v);
  }
}
