/**
 * YAML (and so JSON) text to a positioned tree. Scenario files are data: only the core schema's tags are
 * allowed, nothing is evaluated, and size, depth and alias expansion are bounded so that a hostile file
 * costs an error message, not the process.
 */
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import type { ErrorSink } from './errors.js';
import type { PEntry, PNode } from './node.js';
import type { SourcePos } from './types.js';

export const MAX_INPUT_BYTES = 1024 * 1024;
/** Nodes that aliases may add on top of the literal ones; a billion-laughs file needs far more. */
export const MAX_ALIAS_EXPANSION = 10_000;
/** Deeper than any scenario needs; keeps the recursive walk far from the stack limit. */
export const MAX_DEPTH = 64;

const CORE = 'tag:yaml.org,2002:';
/** `!` is YAML's non-specific tag (a plain string); everything else outside the core schema is refused. */
const ALLOWED_TAGS = new Set(['!', ...['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => CORE + t)]);

/** Thrown inside the walk to stop at the first resource-limit hit; never escapes `loadYaml`. */
class Abort extends Error {}

export function loadYaml(text: string, file: string, errors: ErrorSink): PNode | undefined {
  const start: SourcePos = { file, line: 1, col: 1 };
  // TextEncoder, not Buffer: the parser also runs in the browser playground.
  if (text.length > MAX_INPUT_BYTES || new TextEncoder().encode(text).length > MAX_INPUT_BYTES) {
    errors.add(start, `file is larger than ${MAX_INPUT_BYTES} bytes (1 MiB), the limit for a scenario file`);
    return undefined;
  }
  const lineCounter = new LineCounter();
  const at = (offset: number): SourcePos => ({ file, ...lineCounter.linePos(offset) });
  // prettyErrors off: building its context snippet for a 40 KB line of `- - - …` exhausts V8's regexp memory,
  // a fatal error no catch can stop; we position errors ourselves anyway.
  const doc = parseDocument(text, {
    lineCounter,
    schema: 'core',
    intAsBigInt: true,
    merge: false,
    uniqueKeys: true,
    prettyErrors: false,
  });
  for (const e of doc.errors) errors.add(at(e.pos[0]), `YAML syntax error: ${e.message}`);
  if (doc.errors.length > 0) return undefined;
  if (doc.contents === null) {
    errors.add(start, 'the file is empty; expected a map with at least "name" and "steps"');
    return undefined;
  }
  try {
    return new Converter(at, errors).convert(doc.contents, 0);
  } catch (e) {
    if (e instanceof Abort) return undefined;
    throw e;
  }
}

class Converter {
  private readonly anchors = new Map<string, PNode | 'pending'>();
  private readonly sizes = new WeakMap<PNode, number>();
  private expanded = 0;

  constructor(
    private readonly at: (offset: number) => SourcePos,
    private readonly errors: ErrorSink,
  ) {}

  convert(node: Node, depth: number): PNode {
    const pos = this.at(node.range?.[0] ?? 0);
    if (depth > MAX_DEPTH) this.abort(pos, `nested deeper than ${MAX_DEPTH} levels`);
    if (isAlias(node)) return this.alias(node.source, pos);
    if (node.tag !== undefined && !ALLOWED_TAGS.has(node.tag)) {
      this.abort(
        pos,
        `tag ${node.tag} is not allowed; scenario files are plain data (strings, numbers, booleans, lists, maps)`,
      );
    }
    if (node.anchor) this.anchors.set(node.anchor, 'pending');
    const out = this.build(node, pos, depth);
    if (node.anchor) this.anchors.set(node.anchor, out);
    return out;
  }

  private build(node: Node, pos: SourcePos, depth: number): PNode {
    if (isScalar(node)) {
      const value = node.value;
      if (value !== null && !['string', 'number', 'bigint', 'boolean'].includes(typeof value)) {
        this.abort(pos, `unsupported scalar ${String(node.tag)}`);
      }
      const text = node.type === 'PLAIN' && node.source !== undefined ? node.source : String(value);
      return this.sized({ kind: 'scalar', value: value as string | number | bigint | boolean | null, text, pos }, 1);
    }
    if (isSeq(node)) {
      const items = node.items.map((item) => this.convert(item as Node, depth + 1));
      return this.sized({ kind: 'seq', items, pos }, 1 + this.total(items));
    }
    if (isMap(node)) {
      const entries: PEntry[] = [];
      for (const pair of node.items) {
        const key = pair.key as Node | null;
        const keyNode = key === null ? undefined : this.convert(key, depth + 1);
        if (keyNode?.kind !== 'scalar' || keyNode.value === null) {
          this.errors.add(keyNode?.pos ?? pos, 'map keys must be plain names such as "ttl"');
          continue;
        }
        if (keyNode.value === '<<') {
          this.errors.add(keyNode.pos, 'YAML merge keys (<<) are not supported; write the keys out');
          continue;
        }
        const valueNode = pair.value as Node | null;
        const value: PNode =
          valueNode === null
            ? { kind: 'scalar', value: null, text: '', pos: keyNode.pos }
            : this.convert(valueNode, depth + 1);
        entries.push({ key: keyNode.text, keyPos: keyNode.pos, value });
      }
      return this.sized({ kind: 'map', entries, pos }, 1 + this.total(entries.map((e) => e.value)));
    }
    return this.abort(pos, 'unsupported YAML node');
  }

  private alias(name: string, pos: SourcePos): PNode {
    const target = this.anchors.get(name);
    if (target === undefined) return this.abort(pos, `alias *${name} has no anchor &${name} before it`);
    if (target === 'pending') return this.abort(pos, `alias *${name} refers to a node that contains it`);
    const size = this.sizes.get(target) ?? 1;
    this.expanded += size;
    if (this.expanded > MAX_ALIAS_EXPANSION) {
      this.abort(
        pos,
        `YAML aliases expand to more than ${MAX_ALIAS_EXPANSION} ` +
          `nodes (a billion-laughs file?); write the values out instead`,
      );
    }
    // Errors about the value as a whole point at the alias; errors inside it point at the anchored original.
    return this.sized({ ...target, pos }, size);
  }

  private sized(node: PNode, size: number): PNode {
    this.sizes.set(node, size);
    return node;
  }

  private total(nodes: readonly PNode[]): number {
    return nodes.reduce((sum, n) => sum + (this.sizes.get(n) ?? 1), 0);
  }

  private abort(pos: SourcePos, message: string): never {
    this.errors.add(pos, message);
    throw new Abort(message);
  }
}
