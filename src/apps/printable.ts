/** A program's output line made safe for a terminal: control characters (but tab) as `\xNN`. */
export function printable(line: string): string {
  let out = '';
  for (const ch of line) {
    const c = ch.codePointAt(0)!;
    out += (c < 0x20 && c !== 0x09) || (c >= 0x7f && c < 0xa0) ? `\\x${c.toString(16).padStart(2, '0')}` : ch;
  }
  return out;
}
