/** Positioned parse errors: collected rather than thrown, so one run reports every mistake in a file. */
import type { ScenarioError, SourcePos } from './types.js';

/** `file:line:col: message`, the form editors and compilers use, so terminals make it clickable. */
export function formatError(e: ScenarioError): string {
  return `${e.file}:${e.line}:${e.col}: ${e.message}`;
}

/** Past this many errors the rest are noise (usually one mistake repeated); the cap also bounds output. */
export const MAX_ERRORS = 100;

export class ErrorSink {
  private readonly list: ScenarioError[] = [];
  private truncated = false;

  add(pos: SourcePos, message: string): void {
    if (this.list.length < MAX_ERRORS) this.list.push({ file: pos.file, line: pos.line, col: pos.col, message });
    else this.truncated = true;
  }

  get count(): number {
    return this.list.length;
  }

  /** In file order; a final note when errors were dropped. */
  sorted(file: string): ScenarioError[] {
    const out = [...this.list].sort((a, b) => a.line - b.line || a.col - b.col);
    if (this.truncated) out.push({ file, line: 1, col: 1, message: `too many errors; stopped after ${MAX_ERRORS}` });
    return out;
  }
}
