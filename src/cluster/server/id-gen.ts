/**
 * etcd's request-ID generator (pkg/idutil): 2 bytes of member ID, 5 bytes of milliseconds at start,
 * 1 byte of counter; Next() adds one to the low 48 bits. LeaseGrant with ID 0 takes `next() & MaxInt64`,
 * and every proposal's header ID comes from the same generator, so idle grants differ by 2.
 *
 * [SIM-CHOICE] Member IDs here are small (n1 → 1, n2 → 2 …), so allocated lease IDs stay below 2^53
 * and the lessor keys its maps by number; the layout of the ID is etcd's. The timestamp is the member's
 * wall clock read as Unix milliseconds, with the simulation's time 0 at SIM_EPOCH_UNIX_MS.
 */
export const SIM_EPOCH_UNIX_MS = 1_767_225_600_000; // 2026-01-01T00:00:00Z

export class IdGenerator {
  private prefix: bigint;
  private suffix: bigint;

  constructor(memberId: number, startMs: number) {
    this.prefix = BigInt(memberId & 0xffff) << 48n;
    this.suffix = (BigInt(Math.trunc(startMs)) & ((1n << 40n) - 1n)) << 8n;
  }

  next(): bigint {
    this.suffix = (this.suffix + 1n) & ((1n << 48n) - 1n);
    return BigInt.asIntN(64, this.prefix | this.suffix);
  }
}
