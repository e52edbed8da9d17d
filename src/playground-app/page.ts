/** The playground as one self-contained HTML file: markup, styles, the bundled app and the scenario library. */
import { TIMELINE_CSS } from '../playground/timeline.js';
import type { Baked } from './browser/library.js';
import { STAGE_CSS } from './stage-style.js';
import { PLAYGROUND_CSS } from './style.js';

/**
 * JSON inside a <script> element: every `<` as `\u003c`, which JSON.parse reads back as `<`, so no file's
 * text can close the element or open an HTML comment (`<\!--` would not be JSON).
 */
const jsonInScript = (v: unknown): string => JSON.stringify(v).replace(/</g, '\\u003c');
/** Script text inside a <script> element must never close it. */
const scriptSafe = (s: string): string => s.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');

export function playgroundHtml(bundle: string, baked: Baked): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>lessor-sim playground</title>
<style>${TIMELINE_CSS}${PLAYGROUND_CSS}${STAGE_CSS}</style></head>
<body>
<header><h1>lessor-sim playground</h1><b id="title"></b><span id="passed"></span>
<span class="hash">trace sha256 <span id="hash"></span></span>
<select id="lessons" aria-label="lessons"></select></header>
<div id="controls">
<button id="play" aria-label="play (space)" title="play or pause (space)">▶ play</button><button id="step" \
aria-label="step to the next traced event" title="play on to the next traced event (→; ← goes back one)">step ›\
</button>
<label>speed <select id="speed">${[0.01, 0.1, 0.5, 1, 2, 5, 10, 100, 1000]
    .map((x) => `<option value="${x}"${x === 1 ? ' selected' : ''}>${x}×</option>`)
    .join('')}</select></label>
<input id="scrub" type="range" min="0" max="1000" step="1" value="0" aria-label="virtual time">
<span id="now" data-us="0"></span>
</div>
<div id="errors"></div>
<div id="stage">
<section id="picture-box" aria-label="the cluster"><div id="picture"></div>
<p class="legend"><span style="color:#1a7f37">● keep-alive</span> <span style="color:#4ac26b">● TTL answer</span> \
<span style="color:#bf3989">● renewal forwarded to the leader</span> <span style="color:#8250df">● raft entry \
(LeaseGrant, LeaseRevoke, LeaseCheckpoint, Put)</span> <span style="color:#8c959f">● heartbeat</span> \
<span style="color:#bc4c00">● vote</span> · gold ring: the primary lessor's 500 ms run loop · blue ring: a \
follower's raft election clock, the ticks since it heard a leader against the random timeout it drew (it campaigns \
when the ring runs out) · lease rings (and, for many leases, bars) drain and refill</p></section>
<section id="lesson"><h2>lesson</h2><div id="lesson-text"></div><button id="next" aria-label="next lesson step" \
title="next step (→ when no lesson question waits)">next ▶</button></section>
</div>
<main class="grid">
<section><h2>members</h2><div id="members"></div><button data-act="heal">heal partitions</button></section>
<section><h2>leases (as the primary sees them)</h2><div id="leases"></div>
<div class="acts"><button data-act="grant">grant lease</button><label>TTL <input id="grant-ttl" type="number" \
value="10" min="1"> s</label></div></section>
<section><h2>keys</h2><div id="keys"></div></section>
<section><h2>clients and keep-alive streams</h2><div id="clients"></div></section>
<section><h2>in flight and committing</h2><div id="flow"></div></section>
<section><h2>selected (click a member or lease)</h2><pre id="detail">nothing selected</pre></section>
<section><h2>what happened, up to now</h2><ol id="story"></ol>
<details><summary>raw trace lines</summary><pre id="recent"></pre></details></section>
<section class="settings"><h2>settings (restart from 0)</h2>
<label>profile <select id="set-profile"><option>v3.4</option><option>v3.5</option></select></label>
<label><input id="set-checkpoint" type="checkbox"> lease checkpoints</label>
<label>election timeout <input id="set-election" type="number" min="10" step="10"> ms</label>
<label>revoke rate <input id="set-rate" type="number" min="1"> /s</label>
<label>seed <input id="set-seed" type="number" min="0"></label>
<details><summary>bug switches</summary><div id="set-bugs"></div></details>
<button id="apply-settings">apply and restart</button> <button id="extend">run 30 s longer</button></section>
<section><h2>back to a test</h2>
<p class="none">Your run as a scenario file: <code>lessor-sim run</code> replays it to the hash above. Drop any \
scenario file on the page to load it.</p>
<button id="export">export YAML</button> <button id="share">share as URL</button>
<input id="share-url" readonly aria-label="share URL"><textarea id="yaml" readonly aria-label="scenario \
YAML"></textarea></section>
</main>
<div id="timeline-wrap"><div id="timeline"></div><div id="cursor"></div></div>
<script type="application/json" id="baked">${jsonInScript(baked)}</script>
<script>${scriptSafe(bundle)}</script>
</body></html>
`;
}
