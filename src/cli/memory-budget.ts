/**
 * The memory budget of one replay. A run keeps its whole trace (for the hash, the narration, explain
 * and render), so its memory grows with its events: measured (bench/memory.ts) about 2.3 KB retained per
 * `grant-many` lease (~9 KB of peak RSS while it runs) and 110–470 bytes per trace event. A run that
 * passes the heap budget is stopped with exit 3, as --max-events stops one, instead of dying out of memory
 * minutes later; the budget keeps the whole process within 4 GiB. Read here, in the CLI, never in the model.
 */
import { getHeapStatistics } from 'node:v8';

/** What the whole process stays within. */
export const MEMORY_BUDGET_BYTES = 4 * 2 ** 30;
/**
 * The heap a replay may use: 3 GiB, or less where V8's own limit is lower (a small machine).
 * LESSOR_SIM_HEAP_BUDGET_MB lowers it (tests use it to reach the budget in seconds).
 */
export const HEAP_BUDGET_BYTES = Math.min(
  3 * 2 ** 30,
  Math.floor(getHeapStatistics().heap_size_limit * 0.8),
  /^\d+$/.test(process.env.LESSOR_SIM_HEAP_BUDGET_MB ?? '')
    ? Number(process.env.LESSOR_SIM_HEAP_BUDGET_MB) * 2 ** 20
    : Infinity,
);

const gib = (b: number): string => `${(b / 2 ** 30).toFixed(1)} GiB`;

/** Why the replay must stop now, or undefined while its heap is within the budget. */
export function pastMemoryBudget(): string | undefined {
  const used = getHeapStatistics().used_heap_size;
  if (used <= HEAP_BUDGET_BYTES) return undefined;
  return (
    `passed the memory budget (${gib(used)} of heap, budget ${gib(HEAP_BUDGET_BYTES)}): the trace is kept ` +
    'whole, so shorten the run or use fewer leases (docs/model.md, "Memory")'
  );
}
