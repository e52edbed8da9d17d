import type { RunResult } from '../../scenario/replay/runner.js';
import { escapeHtml } from './escape.js';
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_CSS } from './page-style.js';
import { formatTime } from '../../clock/time.js';

/** No network: the page may use only what it carries inline. */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

const LEGEND: readonly (readonly [string, string])[] = [
  ['<i class="sw leader"></i>', 'leader'],
  ['<i class="sw follower"></i>', 'follower'],
  ['<i class="sw candidate"></i>', 'candidate'],
  ['<i class="sw crashed"></i>', 'crashed'],
  ['<i class="sw paused"></i>', 'paused'],
  ['<i class="sw ttl"></i>', 'remaining TTL on the primary'],
  ['<i class="sw none"></i>', 'no primary lessor'],
  ['<i class="sw overdue"></i>', 'expired, not yet revoked'],
  ['<b class="glyph grant">●</b>', 'grant'],
  ['<b class="glyph renew">|</b>', 'renew'],
  ['<b class="glyph checkpoint">◆</b>', 'checkpoint'],
  ['<b class="glyph expired">▼</b>', 'expiry offered for revoke'],
  ['<b class="glyph revoke">✕</b>', 'revoke'],
  ['<i class="sw alive"></i>', 'keep-alive alive'],
  ['<i class="sw lost"></i>', 'keep-alive lost'],
  ['<i class="sw held"></i>', 'lock held'],
  ['<i class="sw gone"></i>', 'lock held after its lease was revoked'],
  ['<i class="sw partition"></i>', 'partitioned'],
  ['<i class="sw bootstrap"></i>', 'bootstrap (before 0 s)'],
];

function meta(result: RunResult): string {
  const s = result.scenario;
  const marks = Object.entries(result.marks.snapshot());
  const rows: [string, string][] = [
    ['file', s.file],
    ['profile', result.profile],
    ['seed', String(result.seed)],
    ['members', String(s.cluster.members)],
    ['runs until', formatTime(s.durationUs)],
    ['trace events', String(result.trace.length)],
    ['trace hash', result.trace.hash()],
  ];
  if (s.bugs.length > 0) rows.push(['bugs', s.bugs.join(', ')]);
  if (result.stopped !== undefined)
    rows.push([
      'stopped',
      `at ${formatTime(result.stopped.atUs)} after ${result.stopped.events} events: ${result.stopped.message}`,
    ]);
  if (marks.length > 0) rows.push(['marks hit', marks.map(([k, v]) => `${k} ×${v}`).join(', ')]);
  return `<dl class="meta">${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>`;
}

function assertionTable(result: RunResult): string {
  if (result.assertions.length === 0) return '<p>No assertions.</p>';
  const rows = result.assertions
    .map((a) => {
      const v = a.passed ? 'pass' : 'fail';
      return (
        `<tr><td class="t">${escapeHtml(formatTime(a.atUs))}</td><td class="${v}">${v.toUpperCase()}</td><td ` +
        `class="t">line ${a.step.pos.line}</td><td>${escapeHtml(a.text)}</td><td>${escapeHtml(a.got)}</td></tr>`
      );
    })
    .join('');
  return (
    `<table class="assertions"><thead><tr><th>at</th><th>result</th><th>where</th><th>expectation</th><th>` +
    `observed</th></tr></thead><tbody>${rows}</tbody></table>`
  );
}

/** The whole page around the timeline SVG: header with the scenario and run, legend, PASS/FAIL list. */
export function page(result: RunResult, svg: string, title: string): string {
  const s = result.scenario;
  const failed = result.assertions.filter((a) => !a.passed).length;
  const verdict = result.passed
    ? `<span class="verdict pass">PASS · ${result.assertions.length} assertions</span>`
    : `<span class="verdict fail">FAIL · ${
        result.setupError !== undefined ? 'setup error' : `${failed} of ${result.assertions.length} assertions`
      }</span>`;
  const setup = result.setupError === undefined ? '' : `<p class="setup-error">${escapeHtml(result.setupError)}</p>`;
  const desc = s.description === undefined ? '' : `<p class="desc">${escapeHtml(s.description.trim())}</p>`;
  const legend = LEGEND.map(([sw, what]) => `<span>${sw}${escapeHtml(what)}</span>`).join('');
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${PAGE_CSS}</style>`,
    '</head>',
    '<body>',
    `<header><h1>${escapeHtml(s.name)} ${verdict}</h1>${desc}${setup}${meta(result)}</header>`,
    `<main><div class="scroll">${svg}</div><div class="legend">${legend}</div></main>`,
    `<section><h2>Assertions</h2>${assertionTable(result)}</section>`,
    `<footer>Hover any mark for the trace lines it came from. Trace ` +
      `hash <code>${escapeHtml(result.trace.hash())}</code>.</footer>`,
    '<div id="tip" role="tooltip" hidden></div>',
    `<script>${PAGE_SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
