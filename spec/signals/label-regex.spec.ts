// Label regexes run as Prometheus runs them: RE2 syntax, fully anchored, linear time. A backtracking engine
// hangs on `(a|aa)+` against a long name; a JavaScript-syntax parser crashes on `(?i)` and lets `(` through
// to a runtime exception.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { seconds } from '../../src/clock/time.js';
import type { FamilyDef } from '../../src/signals/families.js';
import { labelRegexError, labelRegexMatches } from '../../src/signals/promql/label-regex.js';
import { evaluate, SeriesIndex } from '../../src/signals/promql/eval.js';
import { parsePromQL } from '../../src/signals/promql/parse.js';
import { formatError } from '../../src/scenario/parse.js';
import { errorsOf, lines } from '../scenario/support.js';
import { fcParams } from '../support/fc.js';
import { ROOT } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'lessor-sim-label-regex-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const EVIL = `${'a'.repeat(60)}b`;

describe('label regexes', () => {
  it('match the whole value, with RE2 syntax Prometheus accepts', () => {
    expect(labelRegexMatches('n1|n2', 'n1')).toBe(true);
    expect(labelRegexMatches('n', 'n1')).toBe(false);
    expect(labelRegexMatches('a|ab', 'ab')).toBe(true);
    expect(labelRegexMatches('(?i)N1', 'n1')).toBe(true);
    expect(labelRegexMatches('\\pL+', 'ñandú')).toBe(true);
    expect(labelRegexMatches('(a|aa)+', EVIL)).toBe(false);
    expect(labelRegexMatches('(a|aa)+', 'a'.repeat(60))).toBe(true);
  });

  it('refuse what RE2 refuses: unbalanced groups, lookaround, backreferences, a group escaping the anchors', () => {
    expect(labelRegexError('(')).toMatch(/missing closing \)/);
    expect(labelRegexError('a(?=b)')).toMatch(/invalid or unsupported Perl syntax/);
    expect(labelRegexError('(a)\\1')).toMatch(/invalid escape sequence/);
    expect(labelRegexError('a)|(b')).toMatch(/unexpected \)/);
    expect(labelRegexError('(?i)N1')).toBeUndefined();
  });

  it('are refused at parse time, with the character they start at', () => {
    const p = parsePromQL('up{instance=~"("} == 0');
    expect(p).toMatchObject({ ok: false, at: 13 });
    expect(p.ok || p.message).toMatch(/^label regex at character 14 is not RE2 syntax: .*missing closing \)/);
  });

  it('select in linear time when the pattern would backtrack', () => {
    const g: FamilyDef = { name: 'g', type: 'gauge', help: 'g', labels: ['x'] };
    const data = [EVIL, 'aaaa'].map((x) => ({ name: 'g', family: g, labels: { x }, samples: [{ t: 0, v: 1 }] }));
    const p = parsePromQL('g{x=~"(a|aa)+"}');
    if (!p.ok) throw new Error(p.message);
    const v = evaluate(p.expr, new SeriesIndex(data), seconds(1));
    expect(v.kind === 'vector' && v.samples.map((s) => s.labels.x)).toEqual(['aaaa']);
  });
});

const rule = (expr: string) =>
  lines(
    'name: regex',
    'duration: 3s',
    'alerts:',
    '  rules:',
    `    - alert: A`,
    `      expr: '${expr}'`,
    'steps:',
    `  - at: 0s`,
    `    holder: { name: h, strategy: runbook-go-step3, key: /k, ttl: 5, client: ${EVIL} }`,
    '  - at: 2s',
    '    expect: { alert: A, firing: false }',
  );

/** More runs for a longer fuzz (`npm run fuzz`); a few hundred in CI. */
const RUNS = Number(process.env.LESSOR_SIM_FUZZ_RUNS ?? 300);

describe('generated label regexes (property)', () => {
  // Patterns from regex syntax pieces, nested: most parse, some do not; none may crash or take long.
  const piece = fc.constantFrom(
    'a',
    'aa',
    '.',
    '\\d',
    '[a-z]',
    '(?i)',
    '(',
    ')',
    '|',
    '*',
    '+',
    '?',
    '{2,5}',
    '^',
    '$',
    '\\',
    '(?=',
    '\\1',
    '[^',
    ']',
    '\\pL',
    '{1001}',
  );
  const pattern = fc.array(piece, { maxLength: 12 }).map((ps) => ps.join(''));

  it('are parsed or refused with a message, and matched in linear time', () => {
    const g: FamilyDef = { name: 'g', type: 'gauge', help: 'g', labels: ['x'] };
    fc.assert(
      fc.property(pattern, fc.string({ maxLength: 80 }), (p, value) => {
        const expr = `g{x=~${JSON.stringify(p)}}`;
        const parsed = parsePromQL(expr);
        if (!parsed.ok) {
          expect(parsed.message).not.toBe('');
          return;
        }
        const data = [{ name: 'g', family: g, labels: { x: value }, samples: [{ t: 0, v: 1 }] }];
        expect(() => evaluate(parsed.expr, new SeriesIndex(data), seconds(1))).not.toThrow();
      }),
      fcParams(RUNS),
    );
  });
});

describe('a scenario with a label regex', () => {
  it('names the file, line and column of a pattern RE2 refuses', () => {
    const errors = errorsOf(rule('up{instance=~"("} == 0'));
    expect(errors.map(formatError)).toEqual([
      expect.stringMatching(/^scenarios\/test\.yaml:6:13: .*label regex at character 14 is not RE2 syntax/),
    ]);
  });

  it('replays a backtracking pattern against a long client name well inside --timeout', () => {
    const file = join(dir, 'redos.yaml');
    writeFileSync(file, rule('up{instance=~"(a|aa)+"} == 0'));
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'run', file, '--timeout', '20s'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/1 passed, 0 failed/);
  });
});
