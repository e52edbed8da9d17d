import type { Micros } from '../clock/time.js';
import type { LeaseSlot } from './lease-table.js';

/**
 * The expiry notifier's min-heap over lease slots, ordered by (time, insertion sequence) like every
 * heap in the simulator (clock/time-heap.ts), so it pops the same sequence TimeHeap would. It is 4-ary
 * and keeps each entry's time and sequence in typed arrays beside the slot array: a storm's million
 * entries are sifted through contiguous numbers, touching a slot only to move it, and in half the levels.
 */
export class SlotHeap {
  private readonly slots: LeaseSlot[] = [];
  // Eight entries (64 bytes) each to start: V8 keeps typed arrays that small on its own heap, which is
  // several times cheaper to create than an off-heap buffer, and a member's lessor is built every boot.
  private times = new Float64Array(8);
  private seqs = new Float64Array(8);
  private nextSeq = 0;

  get length(): number {
    return this.slots.length;
  }

  /** The slots in array order, for inspection. */
  get items(): readonly LeaseSlot[] {
    return this.slots;
  }

  peek(): LeaseSlot | undefined {
    return this.slots[0];
  }

  /** Adds `s` due at `s.time`. */
  push(s: LeaseSlot): void {
    const i = this.slots.length;
    if (i === this.times.length) this.grow();
    s.seq = this.nextSeq++;
    this.slots.push(s);
    this.times[i] = s.time;
    this.seqs[i] = s.seq;
    this.up(i);
  }

  pop(): LeaseSlot | undefined {
    const slots = this.slots;
    const top = slots[0];
    if (top === undefined) return undefined;
    const last = slots.pop()!;
    const n = slots.length;
    if (n > 0) {
      slots[0] = last;
      this.times[0] = this.times[n]!;
      this.seqs[0] = this.seqs[n]!;
      last.index = 0;
      this.down(0);
    }
    top.index = -1;
    return top;
  }

  /** container/heap.Fix: re-establishes the order after `s.time` changed. */
  fix(s: LeaseSlot): void {
    const i = s.index;
    this.times[i] = s.time;
    if (!this.down(i)) this.up(i);
  }

  /** container/heap.Init: restores the order over the entries already held. */
  init(): void {
    const slots = this.slots;
    for (let i = 0; i < slots.length; i++) {
      this.times[i] = slots[i]!.time;
      this.seqs[i] = slots[i]!.seq;
      slots[i]!.index = i;
    }
    for (let i = (slots.length - 2) >> 2; i >= 0; i--) this.down(i);
  }

  private grow(): void {
    const t = new Float64Array(this.times.length * 2);
    t.set(this.times);
    this.times = t;
    const q = new Float64Array(this.seqs.length * 2);
    q.set(this.seqs);
    this.seqs = q;
  }

  private up(i0: number): void {
    const { slots, times, seqs } = this;
    const v = slots[i0]!;
    const vt = times[i0]!;
    const vq = seqs[i0]!;
    let i = i0;
    while (i > 0) {
      const p = (i - 1) >> 2;
      const pt = times[p]!;
      if (!(vt < pt || (vt === pt && vq < seqs[p]!))) break;
      this.place(i, p);
      i = p;
    }
    this.set(i, v, vt, vq);
  }

  /** Sifts down from `i0`; returns whether the entry moved. */
  private down(i0: number): boolean {
    const { slots, times, seqs } = this;
    const n = slots.length;
    const v = slots[i0]!;
    const vt = times[i0]!;
    const vq = seqs[i0]!;
    let i = i0;
    for (;;) {
      const first = 4 * i + 1;
      if (first >= n) break;
      let m = first;
      let mt = times[first]!;
      let mq = seqs[first]!;
      const end = Math.min(first + 4, n);
      for (let c = first + 1; c < end; c++) {
        const ct = times[c]!;
        if (ct < mt || (ct === mt && seqs[c]! < mq)) {
          m = c;
          mt = ct;
          mq = seqs[c]!;
        }
      }
      if (!(mt < vt || (mt === vt && mq < vq))) break;
      this.place(i, m);
      i = m;
    }
    this.set(i, v, vt, vq);
    return i > i0;
  }

  /** Moves the entry at `from` to `to`. */
  private place(to: number, from: number): void {
    const s = this.slots[from]!;
    this.slots[to] = s;
    this.times[to] = this.times[from]!;
    this.seqs[to] = this.seqs[from]!;
    s.index = to;
  }

  private set(i: number, s: LeaseSlot, t: Micros, q: number): void {
    this.slots[i] = s;
    this.times[i] = t;
    this.seqs[i] = q;
    s.index = i;
  }
}
