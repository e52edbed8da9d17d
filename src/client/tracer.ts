import type { Process } from '../clock/process.js';
import type { Trace, TraceFields, TraceKind } from '../trace/trace.js';

/**
 * Emits one client's trace events (member = the client's name, time = its process clock). Callers test
 * `on` before building the fields object, so a disabled trace costs one property read.
 */
export class ClientTracer {
  readonly on: boolean;

  constructor(
    private readonly trace: Trace,
    readonly member: string,
    private readonly process: Process,
  ) {
    this.on = trace.enabled;
  }

  emit<K extends TraceKind>(kind: K, lease?: bigint, fields?: TraceFields[K]): void {
    if (!this.on) return;
    this.trace.emit({
      t: this.process.now(),
      member: this.member,
      kind,
      ...(lease !== undefined ? { lease } : {}),
      ...(fields !== undefined ? { fields } : {}),
    });
  }
}
