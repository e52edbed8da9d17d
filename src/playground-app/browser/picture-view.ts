/// <reference lib="dom" />
/** The picture of the cluster in the page: redrawn each frame from the session at the cursor. */
import { FaultBook } from '../../playground/faults.js';
import {
  messageClass,
  messageMoves,
  messageSvg,
  PICTURE_LAYERS,
  pictureFrame,
  pictureLayers,
  type MessageMark,
} from '../../playground/picture.js';
import type { Session } from '../../playground/session.js';
import type { Snapshot } from '../../playground/snapshot.js';
import type { WireMessage } from '../../playground/wire-log.js';

/** Real time a message stays drawn after it arrives, so fast play still shows where traffic went. */
const LINGER_REAL_US = 150_000;
/** Above this speed heartbeats are left out: a blur that hides the lease traffic. */
const THIN_ABOVE = 2;

type TextLayer = Exclude<(typeof PICTURE_LAYERS)[number], 'messages'>;

/**
 * Each text layer is replaced only when its text changed: at speed the members rarely do. A message keeps
 * its element from the frame it appears to the frame it leaves and is only moved in between, so a frame
 * at 10× parses the few messages sent since the last one, not the sixty on screen.
 */
export class PictureView {
  private faults = new FaultBook([]);
  private readonly shown = new Map<TextLayer, string>();
  private readonly groups = new Map<string, Element>();
  private readonly drawn = new Map<WireMessage, SVGGElement>();

  constructor(el: HTMLElement) {
    el.innerHTML = pictureFrame();
    for (const l of PICTURE_LAYERS) this.groups.set(l, el.querySelector(`[data-layer="${l}"]`)!);
  }

  adopt(session: Session): void {
    this.faults = new FaultBook(session.fullResult().trace.events);
    this.moveMessages([]);
  }

  /** `snap` is the session's snapshot at its cursor, which the page has taken already for its panels. */
  draw(session: Session, snap: Snapshot | undefined, speed: number): void {
    const layers =
      snap === undefined
        ? undefined
        : pictureLayers({
            snap,
            wire: session.wire,
            faults: this.faults,
            lingerUs: Math.round(Math.min(3_000_000, Math.max(2_000, speed * LINGER_REAL_US))),
            thinHeartbeats: speed > THIN_ABOVE,
            tickUs: session.scenario.cluster.heartbeatUs,
            leaseFills: session.leaseFills(snap),
          });
    for (const l of ['nodes', 'timers', 'leases'] as const) {
      const html = layers?.[l] ?? '';
      if (this.shown.get(l) === html) continue;
      this.groups.get(l)!.innerHTML = html;
      this.shown.set(l, html);
    }
    this.moveMessages(layers?.messages ?? []);
  }

  private moveMessages(marks: readonly MessageMark[]): void {
    const group = this.groups.get('messages')!;
    const now = new Set(marks.map((k) => k.message));
    for (const [m, el] of this.drawn)
      if (!now.has(m)) {
        el.remove();
        this.drawn.delete(m);
      }
    for (const k of marks) {
      const el = this.drawn.get(k.message);
      if (el === undefined) {
        group.insertAdjacentHTML('beforeend', messageSvg(k));
        this.drawn.set(k.message, group.lastElementChild as SVGGElement);
        continue;
      }
      const cls = messageClass(k);
      if (el.getAttribute('class') !== cls) el.setAttribute('class', cls);
      const moves = messageMoves(k);
      const parts = el.children;
      for (let i = 0; i < parts.length && i < moves.length; i++)
        for (const [name, value] of Object.entries(moves[i]!)) parts[i]!.setAttribute(name, value);
    }
  }
}
