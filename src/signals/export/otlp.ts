/**
 * Spans as OTLP/JSON (an ExportTraceServiceRequest as the OTLP/HTTP JSON encoding writes it): lowerCamelCase
 * fields, trace and span IDs as hex, enums as integers, 64-bit nanosecond times as decimal strings.
 * Virtual time 0 is the Unix epoch. Each span is its own trace; IDs derive from what the span is, so
 * the same run gives the same IDs.
 */
import { createHash } from 'node:crypto';
import type { Span, SpanAttribute } from '../store.js';

const SPAN_KIND_INTERNAL = 1;
const STATUS_CODE_ERROR = 2;

const nanos = (us: number): string => (BigInt(us) * 1000n).toString();

function anyValue(v: SpanAttribute): Record<string, unknown> {
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  return { stringValue: v };
}

const attributes = (a: Record<string, SpanAttribute>) =>
  Object.entries(a).map(([key, v]) => ({ key, value: anyValue(v) }));

export function otlpJson(spans: readonly Span[], service = 'lessor-sim'): string {
  const byProcess = new Map<string, Span[]>();
  for (const s of spans) {
    let list = byProcess.get(s.process);
    if (list === undefined) byProcess.set(s.process, (list = []));
    list.push(s);
  }
  const resourceSpans = [...byProcess.entries()].map(([process, list]) => ({
    resource: { attributes: attributes({ 'service.name': service, 'service.instance.id': process }) },
    scopeSpans: [
      {
        scope: { name: 'lessor-sim' },
        spans: list.map((s, i) => {
          const id = createHash('sha256').update(`${process} ${s.name} ${s.startUs} ${i}`).digest('hex');
          return {
            traceId: id.slice(0, 32),
            spanId: id.slice(32, 48),
            name: s.name,
            kind: SPAN_KIND_INTERNAL,
            startTimeUnixNano: nanos(s.startUs),
            endTimeUnixNano: nanos(s.endUs ?? s.startUs),
            attributes: attributes(s.attributes),
            // OK is for spans an operator validated; a span that just ended leaves its status unset.
            ...(s.error === undefined ? {} : { status: { code: STATUS_CODE_ERROR, message: s.error } }),
          };
        }),
      },
    ],
  }));
  return JSON.stringify({ resourceSpans }, null, 2);
}
