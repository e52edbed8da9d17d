/**
 * The parser faces user files, so it must never throw, always terminate, and position every rejection.
 * Set FC_SEED to replay a failure; the seed is in every failure message.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { formatDuration } from '../../src/scenario/duration.js';
import { formatError, parseScenario } from '../../src/scenario/parse.js';

const SEED = process.env.FC_SEED === undefined ? Math.floor(Math.random() * 0x7fffffff) : Number(process.env.FC_SEED);
const RUNS = 1000;

function check<Ts extends unknown[]>(property: fc.IProperty<Ts>): void {
  try {
    fc.assert(property, { numRuns: RUNS, seed: SEED });
  } catch (e) {
    throw new Error(`fuzz property failed; replay with FC_SEED=${SEED}\n${(e as Error).message}`);
  }
}

/** Parses and checks what must hold for any input; returns the result for stronger checks. */
function parseSafely(text: string) {
  let r: ReturnType<typeof parseScenario>;
  try {
    r = parseScenario(text, 'fuzz.yaml');
  } catch (e) {
    throw new Error(`parseScenario threw on ${JSON.stringify(text)}: ${String(e)}`);
  }
  if (!r.ok) {
    expect(r.errors.length).toBeGreaterThan(0);
    for (const e of r.errors) {
      const shown = `${formatError(e)}\n--- input ---\n${text}`;
      expect(e.file, shown).toBe('fuzz.yaml');
      expect(Number.isInteger(e.line) && e.line >= 1, shown).toBe(true);
      expect(Number.isInteger(e.col) && e.col >= 1, shown).toBe(true);
      expect(e.message.length, shown).toBeGreaterThan(0);
      // Internal errors mean a bug was caught by the safety net, which is still a bug.
      expect(e.message, shown).not.toMatch(/^internal error/);
    }
  }
  return r;
}

const YAMLISH_TOKENS = [
  'name: t\n',
  'steps:\n',
  '  - ',
  'at: ',
  '1s',
  '-5s',
  '0',
  '{',
  '}',
  '[',
  ']',
  ', ',
  ': ',
  ' ',
  '\n',
  '  ',
  '- ',
  '&a ',
  '*a',
  '&b ',
  '*b',
  '!!str ',
  '!!binary ',
  '!x ',
  '!<tag:x> ',
  '"',
  "'",
  '# c\n',
  '|\n  ',
  '>\n  ',
  '---\n',
  '...\n',
  '? ',
  '<<: ',
  'grant',
  'grant-many',
  'expect',
  'partition',
  'lease: L',
  'ttl: 10',
  'key: k',
  'via: n2',
  'member: n9',
  'groups: [[n1]]',
  '~',
  'null',
  'true',
  '-1',
  '0x1f',
  '1e400',
  '.nan',
  '%YAML 1.2\n',
  '\t',
  '\\',
  '\u00b5s',
  '\ufeff',
  '\u0000',
];

const junk = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.constantFrom(
    '5',
    '-3s',
    '1.5us',
    'NaN',
    '99999999999999999h',
    '1s1h',
    'n9',
    'C1',
    '0xfffffffffffffffff',
    'L',
    'P1',
  ),
);

describe('the parser on arbitrary input', () => {
  it('never throws on random text', () => {
    check(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => void parseSafely(text)));
  });

  it('never throws on random bytes decoded as UTF-8', () => {
    const text = fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('utf8'));
    check(fc.property(text, (t) => void parseSafely(t)));
  });

  it('never throws on YAML-shaped noise', () => {
    const text = fc.array(fc.constantFrom(...YAMLISH_TOKENS), { maxLength: 80 }).map((ts) => ts.join(''));
    check(fc.property(text, (t) => void parseSafely(t)));
  });
});

type Json = Record<string, unknown>;

const STEP_CHOICES = [
  'grant',
  'grant-many',
  'put',
  'keepalive',
  'expect-ttl',
  'expect-key',
  'crash',
  'partition',
  'clock',
  'pause',
  'heal',
] as const;

const stepSpec = fc.record({
  dt: fc.nat(5_000_000),
  choice: fc.constantFrom(...STEP_CHOICES),
  pick: fc.nat(),
  ttl: fc.integer({ min: -5, max: 100 }),
  flat: fc.boolean(),
});

/** A scenario that is valid by construction: labels granted before use, members in range, times in order. */
const validScenario = fc
  .tuple(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 0, max: 2 ** 31 }), fc.array(stepSpec, { maxLength: 10 }))
  .map(([members, seed, specs]): Json => {
    const labels: string[] = [];
    const member = (pick: number) => `n${(pick % members) + 1}`;
    let at = 0;
    const steps = specs.map((s, i): Json => {
      at += s.dt;
      const lease = labels[s.pick % Math.max(labels.length, 1)];
      const choice = lease === undefined && ['put', 'keepalive', 'expect-ttl'].includes(s.choice) ? 'grant' : s.choice;
      const [action, fields] = ((): [string, Json] => {
        switch (choice) {
          case 'grant':
            labels.push(`L${i}`);
            return ['grant', { lease: `L${i}`, ttl: s.ttl }];
          case 'grant-many':
            labels.push(`M${i}-1`);
            return [
              'grant-many',
              { prefix: `M${i}-`, count: (s.pick % 5) + 1, ttl: s.ttl, spread: formatDuration(s.pick % 1_000_000) },
            ];
          case 'put':
            return ['put', { key: `k${s.pick % 5}`, value: 'v', lease }];
          case 'keepalive':
            return ['keepalive', { lease, client: `c${(s.pick % 3) + 1}` }];
          case 'expect-ttl':
            return ['expect', { lease, ttl: { min: Math.min(0, s.ttl), max: Math.max(0, s.ttl) } }];
          case 'expect-key':
            return ['expect', { key: `k${s.pick % 5}`, exists: s.pick % 2 === 0, via: member(s.pick) }];
          case 'crash':
            return ['crash', { member: member(s.pick) }];
          case 'partition': {
            const all = Array.from({ length: members }, (_, m) => `n${m + 1}`);
            const left = all.filter((_, m) => ((s.pick >> m) & 1) === 1);
            const right = all.filter((_, m) => ((s.pick >> m) & 1) === 0);
            return ['partition', { groups: [left, right].filter((g) => g.length > 0) }];
          }
          case 'clock':
            return ['clock', { member: member(s.pick), jump: formatDuration((s.pick % 10_000_000) - 5_000_000) }];
          case 'pause':
            return ['pause', { member: member(s.pick), for: formatDuration((s.pick % 1_000_000) + 1) }];
          default:
            return ['heal', {}];
        }
      })();
      const time = formatDuration(at);
      return s.flat ? { at: time, [action]: null, ...fields } : { at: time, [action]: fields };
    });
    return { name: 'fuzz', seed, cluster: { members }, steps };
  });

/** Every (container, key) in a JSON tree, so a mutation can target any node. */
function slots(root: unknown): [Json | unknown[], string | number][] {
  const out: [Json | unknown[], string | number][] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node))
      node.forEach((v, i) => {
        out.push([node, i]);
        walk(v);
      });
    else if (node !== null && typeof node === 'object')
      for (const [k, v] of Object.entries(node)) {
        out.push([node as Json, k]);
        walk(v);
      }
  };
  walk(root);
  return out;
}

const mutation = fc.record({
  where: fc.nat(),
  how: fc.constantFrom('replace', 'add-key', 'delete'),
  value: junk,
  key: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('tll', 'lease', 'at', 'via', 'expect', 'grant')),
});

const serialize = (scenario: Json, asJson: boolean) => (asJson ? JSON.stringify(scenario) : stringify(scenario));

describe('the parser on generated scenarios', () => {
  it('accepts every valid scenario, as YAML and as JSON', () => {
    check(
      fc.property(validScenario, fc.boolean(), (scenario, asJson) => {
        const r = parseSafely(serialize(scenario, asJson));
        expect(r.ok ? [] : r.errors.map(formatError)).toEqual([]);
      }),
    );
  });

  it('survives random mutations and positions every rejection', () => {
    const mutated = fc
      .tuple(validScenario, fc.array(mutation, { minLength: 1, maxLength: 3 }))
      .map(([scenario, ms]) => {
        for (const m of ms) {
          const all = slots(scenario);
          const slot = all[m.where % Math.max(all.length, 1)];
          if (!slot) continue;
          const [container, key] = slot;
          if (m.how === 'replace') (container as Json)[key] = m.value;
          else if (m.how === 'delete')
            Array.isArray(container) ? container.splice(key as number, 1) : delete container[key];
          else if (!Array.isArray(container)) container[m.key] = m.value;
        }
        return scenario;
      });
    check(
      fc.property(mutated, fc.boolean(), (scenario, asJson) => {
        const r = parseSafely(serialize(scenario, asJson));
        if (r.ok) {
          const times = r.scenario.steps.map((s) => s.atUs);
          expect(times).toEqual([...times].sort((a, b) => a - b));
          expect(r.scenario.durationUs).toBeGreaterThanOrEqual(times.at(-1) ?? 0);
        }
      }),
    );
  });
});
