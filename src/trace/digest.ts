import { createHash, type Hash } from 'node:crypto';

/** The running hash a Trace folds its lines into. */
export interface LineDigest {
  update(text: string): void;
  copy(): LineDigest;
  hex(): string;
}

/**
 * node:crypto's SHA-256 (native, faster than ./sha256.ts in Node). The playground's bundle swaps this
 * module for ./digest-browser.ts, which gives the same bytes.
 */
export function newDigest(): LineDigest {
  return wrap(createHash('sha256'));
}

function wrap(h: Hash): LineDigest {
  return {
    update: (text) => void h.update(text),
    copy: () => wrap(h.copy()),
    hex: () => h.copy().digest('hex'),
  };
}
