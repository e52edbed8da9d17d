import { describe, expect, it } from 'vitest';
import { MAX_ALIAS_EXPANSION } from '../../src/scenario/load-yaml.js';
import { errorsOf, lines, parsed } from './support.js';

/** The classic billion-laughs document: nine levels of nine aliases each, 9^9 strings if expanded. */
const BILLION_LAUGHS = lines(
  'name: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
  'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
  'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
  'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
  'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
  'g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]',
  'h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]',
  'steps: [*h,*h,*h,*h,*h,*h,*h,*h,*h]',
);

describe('resource limits', () => {
  it('rejects a billion-laughs file at the alias that crosses the limit, quickly', () => {
    const errors = errorsOf(BILLION_LAUGHS);
    expect(errors).toEqual([
      {
        file: 'scenarios/test.yaml',
        line: 5,
        col: 8,
        message:
          `YAML aliases expand to more than ${MAX_ALIAS_EXPANSION} ` +
          `nodes (a billion-laughs file?); write the values out instead`,
      },
    ]);
  });

  it('accepts ordinary alias use', () => {
    const s = parsed(
      lines(
        'name: t',
        'steps:',
        '  - {at: 0s, grant: &g {lease: L, ttl: 5, via: &leader n1}}',
        '  - {at: 1s, keepalive: {lease: L, via: *leader}}',
        '  - {at: 2s, revoke: {lease: L, via: *leader}}',
      ),
    );
    expect(s.steps.map((x) => ('via' in x ? x.via : undefined))).toEqual(['n1', 'n1', 'n1']);
  });

  it('accepts a long but legitimate file', () => {
    const steps = Array.from({ length: 500 }, (_, i) => `  - {at: ${i}ms, put: {key: k${i}, value: v}}`);
    expect(parsed(lines('name: t', 'steps:', ...steps)).steps).toHaveLength(500);
  });
});
