/// <reference lib="dom" />
/** The picture of the cluster in the page: redrawn each frame from the session at the cursor. */
import { FaultBook } from '../../playground/faults.js';
import { PICTURE_LAYERS, pictureFrame, pictureLayers, type PictureLayers } from '../../playground/picture.js';
import type { Session } from '../../playground/session.js';
import type { Snapshot } from '../../playground/snapshot.js';

/** Real time a message stays drawn after it arrives, so fast play still shows where traffic went. */
const LINGER_REAL_US = 150_000;
/** Above this speed heartbeats are left out: a blur that hides the lease traffic. */
const THIN_ABOVE = 2;

/** Each layer is replaced only when its text changed: at speed the members rarely do, messages always. */
export class PictureView {
  private faults = new FaultBook([]);
  private readonly shown: Partial<PictureLayers> = {};
  private readonly groups = new Map<string, Element>();

  constructor(el: HTMLElement) {
    el.innerHTML = pictureFrame();
    for (const l of PICTURE_LAYERS) this.groups.set(l, el.querySelector(`[data-layer="${l}"]`)!);
  }

  adopt(session: Session): void {
    this.faults = new FaultBook(session.fullResult().trace.events);
  }

  /** `snap` is the session's snapshot at its cursor, which the page has taken already for its panels. */
  draw(session: Session, snap: Snapshot | undefined, speed: number): void {
    const layers: Partial<PictureLayers> =
      snap === undefined
        ? {}
        : pictureLayers({
            snap,
            wire: session.wire,
            faults: this.faults,
            lingerUs: Math.round(Math.min(3_000_000, Math.max(2_000, speed * LINGER_REAL_US))),
            thinHeartbeats: speed > THIN_ABOVE,
            electionTimeoutUs: session.scenario.cluster.electionTimeoutUs,
          });
    for (const l of PICTURE_LAYERS) {
      const html = layers[l] ?? '';
      if (this.shown[l] === html) continue;
      this.groups.get(l)!.innerHTML = html;
      this.shown[l] = html;
    }
  }
}
