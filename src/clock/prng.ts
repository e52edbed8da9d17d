/**
 * A seeded PRNG (sfc32: small, fast, passes PractRand to 2^40 bytes). Components never share a stream:
 * each takes `fork(label)`, so adding a random draw in one component does not shift another's sequence.
 */
export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private readonly seedText: string;

  constructor(seed: number | string) {
    this.seedText = String(seed);
    const h = hash32(this.seedText);
    this.a = h ^ 0x9e3779b9;
    this.b = Math.imul(h, 0x85ebca6b) >>> 0;
    this.c = Math.imul(h ^ 0xc2b2ae35, 0x27d4eb2f) >>> 0;
    this.d = 1;
    for (let i = 0; i < 15; i++) this.nextU32();
  }

  nextU32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.nextU32() / 4294967296;
  }

  /** Uniform integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number {
    if (!Number.isInteger(lo) || !Number.isInteger(hi) || hi < lo) throw new RangeError(`prng.int(${lo}, ${hi})`);
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }

  /** A child stream whose seed depends only on this stream's seed and the label, not on draws made so far. */
  fork(label: string): Prng {
    return new Prng(`${this.seedText}/${label}`);
  }
}

/** FNV-1a 32-bit; used to turn seeds and labels into state. */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
