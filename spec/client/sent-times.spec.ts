// The ring buffer of send times against an array model, across growth and wrap-around.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SentTimes } from '../../src/client/sent-times.js';
import { fcParams } from '../support/fc.js';

describe('SentTimes', () => {
  it('keeps the oldest unanswered send first, like an array with push and shift', () => {
    // Pushes outnumber shifts, so the ring grows past its first size while wrapping around.
    const op = fc.oneof(
      { weight: 6, arbitrary: fc.constant('push' as const) },
      { weight: 4, arbitrary: fc.constant('shift' as const) },
      { weight: 1, arbitrary: fc.constant('clear' as const) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const ring = new SentTimes();
        const model: number[] = [];
        let t = 0;
        for (const o of ops) {
          if (o === 'push') {
            ring.push(++t);
            model.push(t);
          } else if (o === 'shift') {
            ring.shift();
            model.shift();
          } else {
            ring.clear();
            model.length = 0;
          }
          expect(ring.size).toBe(model.length);
          if (model.length > 0) expect(ring.oldest).toBe(model[0]);
        }
      }),
      fcParams(300),
    );
  });
});
