/// <reference lib="dom" />
/**
 * A topic lesson in the page: its steps one by one, and at a prediction the question with its choices;
 * after an answer the run plays (animated) to where the answer shows, then the verdict read off the run.
 */
import type { Micros } from '../../clock/time.js';
import { escapeHtml as h } from '../../report/render/escape.js';
import {
  revealTime,
  stepText,
  stepTime,
  verdictOf,
  type CourseLesson,
  type Verdict,
} from '../../playground/curriculum.js';
import type { RunFacts } from '../../playground/run-facts.js';

/** What the page does for the course: move the cursor, play to an instant, redraw. */
export interface CourseHost {
  seek(t: Micros): void;
  /** Plays from the cursor to `t`, animated, then calls `done`. */
  playTo(t: Micros, done: () => void): void;
}

export class CourseView {
  /** The step shown; steps.length: the end. */
  private index = 0;
  private stepAt: Micros[] = [];
  private picked: number | undefined;
  private verdict: Verdict | undefined;
  private playing = false;

  constructor(
    readonly lesson: CourseLesson,
    private readonly facts: RunFacts,
    private readonly host: CourseHost,
    private readonly el: HTMLElement,
  ) {
    let prev = 0;
    this.stepAt = lesson.steps.map((s) => (prev = stepTime(s, facts, prev)));
  }

  /** Whether `next` may go on: not while a question waits for its answer or its run still plays. */
  get blocked(): boolean {
    const step = this.lesson.steps[this.index];
    return this.playing || (step?.predict !== undefined && this.verdict === undefined);
  }

  /** Shows the first step, at its instant. */
  start(): void {
    this.show(0);
  }

  next(): void {
    if (this.blocked || this.index >= this.lesson.steps.length) return;
    this.show(this.index + 1);
  }

  private show(index: number): void {
    this.index = index;
    this.picked = undefined;
    this.verdict = undefined;
    const t = this.stepAt[this.index];
    if (t !== undefined) this.host.seek(t);
    this.render();
  }

  /** The learner's answer to the current step's question: plays the run to the reveal, then judges. */
  answer(choice: number): void {
    const step = this.lesson.steps[this.index];
    if (step?.predict === undefined || this.picked !== undefined) return;
    this.picked = choice;
    this.playing = true;
    this.render();
    const p = step.predict;
    this.host.playTo(revealTime(p, this.facts, this.stepAt[this.index]!), () => {
      this.playing = false;
      this.verdict = verdictOf(p, this.facts, choice);
      this.render();
    });
  }

  render(): void {
    const l = this.lesson;
    const steps = l.steps.length;
    let body: string;
    if (this.index >= steps) {
      body =
        '<p>That is the lesson. The run is yours now: scrub back, click a fault on a member, and see what ' +
        'changes; or pick the next lesson above.</p>';
    } else {
      const step = l.steps[this.index]!;
      body =
        `<p class="stop">step ${this.index + 1} of ${steps}</p>` +
        `<p class="say">${h(stepText(step, this.facts))}</p>`;
      const p = step.predict;
      if (p !== undefined) {
        body += `<div class="predict"><p class="question"><b>Predict:</b> ${h(p.question)}</p>`;
        body += p.choices
          .map(
            (c, i) =>
              `<button class="choice${this.picked === i ? ' picked' : ''}" data-choice="${i}"` +
              `${this.picked === undefined ? '' : ' disabled'}>${h(c)}</button>`,
          )
          .join('');
        if (this.playing) body += '<p class="playing">Playing the run to see…</p>';
        if (this.verdict !== undefined)
          body += `<p class="verdict ${this.verdict.held ? 'held' : 'missed'}">${h(this.verdict.text)}</p>`;
        body += '</div>';
      }
    }
    this.el.innerHTML = `<h3>${h(l.title)}</h3><p class="topic">${h(l.topic)}</p>${body}`;
    for (const b of this.el.querySelectorAll<HTMLButtonElement>('button.choice'))
      b.addEventListener('click', () => this.answer(Number(b.dataset.choice)));
  }
}
