/**
 * A Go channel used only to be closed (demotec, stopc): waiters run once, when it closes.
 * A waiter registered after the close runs at once.
 */
export class Signal {
  private waiters: Array<() => void> = [];
  private closedFlag = false;

  get closed(): boolean {
    return this.closedFlag;
  }

  wait(fn: () => void): void {
    if (this.closedFlag) fn();
    else this.waiters.push(fn);
  }

  close(): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    const w = this.waiters;
    this.waiters = [];
    for (const fn of w) fn();
  }
}
