import type { Micros } from './time.js';

/** What a TimeHeap holds: a due time, and the two fields the heap itself keeps up to date. */
export interface HeapItem {
  time: Micros;
  /** Insertion sequence, set on push: breaks ties between equal times, so every pop order is reproducible. */
  seq: number;
  /** Position in the heap's array, -1 while not held; lets an item be fixed or removed in place. */
  index: number;
}

/** The one order of every heap in the simulator: time, then insertion sequence (a strict total order). */
const before = (a: HeapItem, b: HeapItem): boolean => a.time < b.time || (a.time === b.time && a.seq < b.seq);

/**
 * A binary min-heap whose items know their index (Go's container/heap with Fix and Remove). The order is
 * total, so the sequence of pops is a function of the pushes, fixes and removals alone, not of the
 * heap's internal layout.
 */
export class TimeHeap<T extends HeapItem> {
  private readonly arr: T[] = [];
  private nextSeq = 0;

  get length(): number {
    return this.arr.length;
  }

  /** The items in array order, for inspection. */
  get items(): readonly T[] {
    return this.arr;
  }

  peek(): T | undefined {
    return this.arr[0];
  }

  push(e: T): void {
    e.seq = this.nextSeq++;
    this.insert(e);
  }

  /** Takes the next insertion sequence for an item that will enter the heap later (see `insert`). */
  takeSeq(): number {
    return this.nextSeq++;
  }

  /** Pushes an item that already carries its sequence (from `takeSeq`), keeping it. */
  insert(e: T): void {
    e.index = this.arr.length;
    this.arr.push(e);
    this.up(e.index);
  }

  pop(): T | undefined {
    const arr = this.arr;
    const top = arr[0];
    if (top === undefined) return undefined;
    const last = arr.pop()!;
    if (last !== top) {
      arr[0] = last;
      this.down(0);
    }
    top.index = -1;
    return top;
  }

  /** container/heap.Fix: re-establishes the order after `e.time` changed. */
  fix(e: T): void {
    if (!this.down(e.index)) this.up(e.index);
  }

  /** container/heap.Remove: takes `e` out wherever it is; a no-op if the heap does not hold it. */
  remove(e: T): void {
    const i = e.index;
    if (i < 0) return;
    const last = this.arr.pop()!;
    if (last !== e) {
      this.arr[i] = last;
      last.index = i;
      this.fix(last);
    }
    e.index = -1;
  }

  /** container/heap.Init: restores the order over the items already held. */
  init(): void {
    const arr = this.arr;
    for (let i = 0; i < arr.length; i++) arr[i]!.index = i;
    for (let i = (arr.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  private up(i: number): void {
    const arr = this.arr;
    const v = arr[i]!;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pv = arr[p]!;
      if (!before(v, pv)) break;
      arr[i] = pv;
      pv.index = i;
      i = p;
    }
    arr[i] = v;
    v.index = i;
  }

  /** Sifts down from `i`; returns whether the item moved. */
  private down(i0: number): boolean {
    const arr = this.arr;
    const n = arr.length;
    const v = arr[i0]!;
    let i = i0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && before(arr[c + 1]!, arr[c]!)) c++;
      const cv = arr[c]!;
      if (!before(cv, v)) break;
      arr[i] = cv;
      cv.index = i;
      i = c;
    }
    arr[i] = v;
    v.index = i;
    return i > i0;
  }
}
