/**
 * The playground's helpers for trace events: when, what kind, who, which lease, the line. Fields are read
 * typed, by narrowing on `e.kind` (or `isKind`, `isKindIn` and the kind groups of trace/events.ts).
 */
import type { Micros } from '../clock/time.js';
import { formatEvent, type TraceEvent, type TraceKind } from '../trace/trace.js';

export type { TraceEvent };

export const eventTime = (e: TraceEvent): Micros => e.t;
export const eventKind = (e: TraceEvent): TraceKind => e.kind;
export const eventMember = (e: TraceEvent): string => e.member;
export const eventLease = (e: TraceEvent): bigint | undefined => e.lease;
export const eventLine = (e: TraceEvent): string => formatEvent(e);
