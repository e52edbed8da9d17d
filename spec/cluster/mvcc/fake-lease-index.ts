import type { LeaseIndex, TxnWrite } from '../../../src/cluster/mvcc/index.js';

export interface LeaseCall {
  readonly op: 'attach' | 'detach';
  readonly id: bigint;
  readonly keys: readonly string[];
}

/**
 * A LeaseIndex with etcd's lessor semantics (docs/lessor.md §3.7): Attach does not remove a key from its previous
 * lease, Detach deletes the item-map entry unconditionally, both throw on a missing lease. It records
 * every call so tests can check order.
 */
export class FakeLeaseIndex implements LeaseIndex {
  readonly itemSets = new Map<bigint, Set<string>>();
  readonly itemMap = new Map<string, bigint>();
  readonly calls: LeaseCall[] = [];

  constructor(...ids: bigint[]) {
    for (const id of ids) this.grant(id);
  }

  grant(id: bigint): void {
    this.itemSets.set(id, new Set());
  }

  /** Drops a lease without touching its keys: a lessor that lost it (what restore may meet). */
  forget(id: bigint): void {
    this.itemSets.delete(id);
  }

  /** The lessor's Revoke (docs/lessor.md §3.3): sorted single-key deletes in one transaction, then the lease goes. */
  revoke(id: bigint, rd: () => TxnWrite): number {
    const items = this.itemSets.get(id);
    if (items === undefined) throw new Error(`fake lessor: revoke of unknown lease ${id}`);
    const txn = rd();
    for (const k of [...items].sort()) txn.deleteRange(k);
    this.itemSets.delete(id);
    return txn.end();
  }

  lookup(id: bigint): boolean {
    return this.itemSets.has(id);
  }

  getLease(key: string): bigint {
    return this.itemMap.get(key) ?? 0n;
  }

  attach(id: bigint, keys: string[]): void {
    this.calls.push({ op: 'attach', id, keys: [...keys] });
    const items = this.itemSets.get(id);
    if (items === undefined) throw new Error('lease not found');
    for (const k of keys) {
      items.add(k);
      this.itemMap.set(k, id);
    }
  }

  detach(id: bigint, keys: string[]): void {
    this.calls.push({ op: 'detach', id, keys: [...keys] });
    const items = this.itemSets.get(id);
    if (items === undefined) throw new Error('lease not found');
    for (const k of keys) {
      items.delete(k);
      this.itemMap.delete(k);
    }
  }

  takeCalls(): LeaseCall[] {
    return this.calls.splice(0);
  }
}
