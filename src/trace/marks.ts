/**
 * Marks for rare branches (after TigerBeetle): code calls `hit(name)` where a branch is rare enough that
 * a test should prove it was reached. Counting is cheap and always on.
 */
export const MARK_NAMES = [
  'revoke-rate-limited',
  'expired-batch-dropped',
  'renew-waits-for-revoke',
  'promote-spreads-pileup',
  'checkpoint-skipped',
] as const;

export type MarkName = (typeof MARK_NAMES)[number];

export class Marks {
  private readonly counts = new Map<string, number>();

  hit(name: MarkName): void {
    this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
  }

  count(name: MarkName): number {
    return this.counts.get(name) ?? 0;
  }

  snapshot(): Record<string, number> {
    return Object.fromEntries([...this.counts.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
  }
}
