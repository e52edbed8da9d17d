/**
 * Label regexes as Prometheus runs them: RE2 syntax, fully anchored (`^(?:re)$`), matched in linear time.
 * User patterns never reach JavaScript's backtracking engine: `(a|aa)+` against a long name would run for
 * minutes there. re2js is a pure-JavaScript RE2 port, so the CLI and the playground share one engine.
 */
import { RE2JS, RE2JSException } from 're2js';

const compiled = new Map<string, RE2JS>();

/** RE2's complaint about the pattern, or undefined when RE2 (and so Prometheus) accepts it. */
export function labelRegexError(pattern: string): string | undefined {
  try {
    compile(pattern);
    return undefined;
  } catch (e) {
    if (e instanceof RE2JSException) return e.message;
    throw e;
  }
}

/** Whether the whole of `value` matches the pattern, as Prometheus' `=~` decides. */
export function labelRegexMatches(pattern: string, value: string): boolean {
  return compile(pattern).matches(value);
}

function compile(pattern: string): RE2JS {
  let re = compiled.get(pattern);
  if (re === undefined) {
    // The pattern alone first, so `a)|(b` is refused instead of escaping the anchoring group.
    RE2JS.compile(pattern);
    re = RE2JS.compile(`(?:${pattern})`);
    compiled.set(pattern, re);
  }
  return re;
}
