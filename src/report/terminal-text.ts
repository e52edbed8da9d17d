/**
 * What reaches a terminal is text, never commands to it: a scenario name or a report field holding an
 * escape sequence could clear the screen, set the window title, or redraw a line as "ALL PASSED". Every
 * control character but newline and tab, and the bidirectional overrides that reorder what is shown, is
 * printed as a `\uXXXX` escape, which JSON output reads back as the same character.
 */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function escapeControls(text: string): string {
  return text.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** One line of output holding user text: a newline in a name or key must not start a fake line of its own. */
export const oneLine = (text: string): string =>
  text.replace(/\r?\n/g, (m) => (m.length === 2 ? '\\u000d\\u000a' : '\\u000a'));

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One argument as a POSIX shell reads it back unchanged: bare when safe, else in single quotes. */
export function shellQuote(arg: string): string {
  return SAFE_WORD.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A command line to print for a user to paste: each argument quoted as needed. */
export const shellCommand = (args: readonly string[]): string => args.map(shellQuote).join(' ');
