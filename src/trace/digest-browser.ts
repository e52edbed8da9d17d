import type { LineDigest } from './digest.js';
import { Sha256 } from './sha256.js';

/** The browser's stand-in for ./digest.ts (swapped in at bundle time): same SHA-256, no node:crypto. */
export function newDigest(): LineDigest {
  return new Sha256();
}
