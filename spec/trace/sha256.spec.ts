// The pure-TypeScript SHA-256 the browser playground hashes traces with must give node:crypto's bytes:
// over every library scenario's trace, line by line with copies mid-stream, and over arbitrary text.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUG_NAMES } from '../../src/switches/bugs.js';
import { parseScenario } from '../../src/scenario/parse.js';
import { runScenario } from '../../src/scenario/replay/runner.js';
import { Sha256 } from '../../src/trace/sha256.js';
import { formatEvent } from '../../src/trace/trace.js';
import { fcParams } from '../support/fc.js';

const SCENARIOS = resolve(__dirname, '../../scenarios');
const yamlFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? yamlFiles(p) : p.endsWith('.yaml') ? [p] : [];
  });

const nodeHex = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('Sha256', () => {
  it('matches the FIPS 180-4 test vectors', () => {
    expect(new Sha256().hex()).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(new Sha256().update('abc').hex()).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(new Sha256().update('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq').hex()).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('gives node:crypto’s hash for every library scenario’s trace, including copies taken mid-stream', () => {
    const files = yamlFiles(SCENARIOS);
    expect(files.length).toBeGreaterThan(50);
    for (const f of files) {
      const p = parseScenario(readFileSync(f, 'utf8'), f, { knownBugs: BUG_NAMES });
      if (!p.ok) continue;
      const r = runScenario(p.scenario);
      const mine = new Sha256();
      const ref = createHash('sha256');
      r.trace.events.forEach((e, i) => {
        const line = formatEvent(e);
        mine.update(line).update('\n');
        ref.update(line).update('\n');
        if (i % 97 === 0) expect(mine.hex(), `${f} after ${i + 1} lines`).toBe(ref.copy().digest('hex'));
      });
      expect(mine.hex(), f).toBe(r.trace.hash());
    }
  });

  it(
    'gives node:crypto’s hash ' +
      'for arbitrary text, ' +
      'split anywhere ' +
      '(astral characters and lone surrogates too)',
    () => {
      fc.assert(
        fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 200 }), { maxLength: 12 }), (parts) => {
          const h = new Sha256();
          for (const p of parts) h.update(p);
          expect(h.hex()).toBe(nodeHex(parts.join('')));
        }),
        fcParams(300),
      );
    },
  );
});
