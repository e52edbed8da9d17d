import { expiredChannelCapacity } from './config.js';
import type { Lease } from './lease.js';

/**
 * `expiredC`: a buffered Go channel of lease batches. The run loop's send never blocks: when the buffer
 * is full the batch is dropped (its leases were already re-armed at now + retry interval).
 */
export class ExpiredChannel {
  private readonly buffer: Lease[][] = [];
  /** Called after each accepted batch, so a consumer can schedule its receive. */
  onReady: (() => void) | undefined;

  constructor(readonly capacity = expiredChannelCapacity) {}

  trySend(batch: Lease[]): boolean {
    if (this.buffer.length >= this.capacity) return false;
    this.buffer.push(batch);
    this.onReady?.();
    return true;
  }

  receive(): Lease[] | undefined {
    return this.buffer.shift();
  }

  get length(): number {
    return this.buffer.length;
  }
}
