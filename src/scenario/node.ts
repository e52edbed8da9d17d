/**
 * A YAML document reduced to what validation needs: plain values with the position of every node.
 * Aliases are already resolved, so validators never see anchors.
 */
import type { SourcePos } from './types.js';

export type PNode = PScalar | PMap | PSeq;

export interface PScalar {
  readonly kind: 'scalar';
  /** Integers arrive as bigint so 64-bit lease IDs keep every digit. */
  readonly value: string | number | bigint | boolean | null;
  /** The scalar as written (plain scalars) or its string value (quoted and block scalars). */
  readonly text: string;
  readonly pos: SourcePos;
}

export interface PEntry {
  readonly key: string;
  readonly keyPos: SourcePos;
  readonly value: PNode;
}

export interface PMap {
  readonly kind: 'map';
  readonly entries: readonly PEntry[];
  readonly pos: SourcePos;
}

export interface PSeq {
  readonly kind: 'seq';
  readonly items: readonly PNode[];
  readonly pos: SourcePos;
}

const MAX_SHOWN = 40;

/** A user-written name in a message: JSON-quoted, cut short so a hostile file cannot flood the output. */
export function quote(s: string): string {
  return JSON.stringify(s.length > MAX_SHOWN ? `${s.slice(0, MAX_SHOWN)}…` : s);
}

/** How a node reads in "found …" messages. */
export function describeNode(node: PNode): string {
  if (node.kind === 'map') return 'a map';
  if (node.kind === 'seq') return 'a list';
  const v = node.value;
  if (v === null) return 'nothing (null)';
  if (typeof v === 'string') return `string ${quote(v)}`;
  if (typeof v === 'boolean') return `boolean ${v}`;
  if (typeof v === 'bigint') return `integer ${node.text.slice(0, MAX_SHOWN)}`;
  return `number ${node.text.slice(0, MAX_SHOWN)}`;
}
