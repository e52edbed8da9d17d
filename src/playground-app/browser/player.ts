/// <reference lib="dom" />
/**
 * Real time drives virtual time here and nowhere else: each animation frame moves the cursor by the
 * real milliseconds since the last one times the speed. The simulation itself never sees a wall clock.
 */
export class Player {
  playing = false;
  /** Virtual seconds per real second. */
  speed = 1;
  /** Frames drawn while playing, and the real milliseconds their advance and draw took (the benchmark reads them). */
  frames = 0;
  frameMs = 0;
  private last: number | undefined;

  constructor(
    private readonly advance: (virtualUs: number) => boolean,
    private readonly draw: () => void,
  ) {
    requestAnimationFrame(this.frame);
  }

  play(): void {
    this.playing = true;
    this.last = undefined;
  }

  pause(): void {
    this.playing = false;
  }

  private readonly frame = (now: number): void => {
    if (this.playing) {
      const start = performance.now();
      const dtMs = this.last === undefined ? 0 : Math.min(250, now - this.last);
      this.last = now;
      // advance() says false at the end of the run.
      if (!this.advance(Math.round(dtMs * 1000 * this.speed))) this.playing = false;
      this.frames++;
      this.draw();
      this.frameMs += performance.now() - start;
    }
    requestAnimationFrame(this.frame);
  };
}
