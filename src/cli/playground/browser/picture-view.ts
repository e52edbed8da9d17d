/// <reference lib="dom" />
/** The picture of the cluster in the page: redrawn each frame from the session at the cursor. */
import { FaultBook } from '../../../playground/faults.js';
import { pictureSvg } from '../../../playground/picture.js';
import type { Session } from '../../../playground/session.js';

/** Real time a message stays drawn after it arrives, so fast play still shows where traffic went. */
const LINGER_REAL_US = 150_000;
/** Above this speed heartbeats are left out: a blur that hides the lease traffic. */
const THIN_ABOVE = 2;

export class PictureView {
  private faults = new FaultBook([]);
  private last = '';

  constructor(private readonly el: HTMLElement) {}

  adopt(session: Session): void {
    this.faults = new FaultBook(session.fullResult().trace.events);
  }

  draw(session: Session, speed: number): void {
    const snap = session.snapshot();
    const svg =
      snap === undefined
        ? ''
        : pictureSvg({
            snap,
            wire: session.wire,
            faults: this.faults,
            lingerUs: Math.round(Math.min(3_000_000, Math.max(2_000, speed * LINGER_REAL_US))),
            thinHeartbeats: speed > THIN_ABOVE,
            electionTimeoutUs: session.scenario.cluster.electionTimeoutUs,
          });
    if (svg !== this.last) {
      this.el.innerHTML = svg;
      this.last = svg;
    }
  }
}
