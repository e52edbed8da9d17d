/**
 * Sorting by Unicode code point, as Go's (and so Prometheus') byte-wise string order does: the same on every
 * machine, unlike `localeCompare`, whose order follows the process's locale (da_DK sorts "aa" after "z").
 * Plain `<` compares UTF-16 code units, which puts U+E000..U+FFFF after astral characters; this does not.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}
