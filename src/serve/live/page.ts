/** The live view's page: the playground's picture and panels, fed by serve (no simulation in the page). */
import { TIMELINE_CSS } from '../../playground/timeline.js';
import { liveScript } from '../../playground-app/bundle.js';
import { STAGE_CSS } from '../../playground-app/stage-style.js';
import { PLAYGROUND_CSS } from '../../playground-app/style.js';

const LIVE_CSS = `
#status { font-size: 12px; border-radius: 8px; padding: 1px 8px; background: #eaeef2; }
#status.live { background: #dafbe1; color: #1a7f37; } #status.stopped { background: #ffebe9; color: #82071e; }
#endpoints { padding: 6px 24px 0; font-size: 12px; word-break: break-all; }
#errors:empty { display: none; }
#leases .acts { display: none; }
#story { max-height: 60vh; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 11px; }
`;

/** Script text inside a <script> element must never close it. */
const scriptSafe = (s: string): string => s.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');

export async function livePage(): Promise<string> {
  const script = await liveScript();
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>lessor-sim serve: live view</title>
<style>${TIMELINE_CSS}${PLAYGROUND_CSS}${STAGE_CSS}${LIVE_CSS}</style></head>
<body>
<header><h1>lessor-sim serve: live view</h1><span id="status">connecting…</span>
<span id="now" data-us=""></span></header>
<div id="endpoints"></div>
<div id="errors" role="alert"></div>
<div id="stage">
<section id="picture-box" aria-label="the served cluster"><div id="picture"></div>
<p class="legend">Clients on the left are real connections (gRPCN: one per etcdctl command or program). \
<span style="color:#1a7f37">● keep-alive</span> <span style="color:#4ac26b">● TTL answer</span> \
<span style="color:#bf3989">● renewal forwarded to the leader</span> <span style="color:#8250df">● raft entry \
(LeaseGrant, LeaseRevoke, LeaseCheckpoint, Put)</span> <span style="color:#8c959f">● heartbeat</span> \
<span style="color:#bc4c00">● vote</span> · gold ring: the primary lessor's 500 ms run loop · blue ring: a \
follower's time since it heard the leader · lease rings drain and refill on renewal</p></section>
<section id="lesson"><h2>what happened (trace)</h2><ol id="story"></ol></section>
</div>
<main class="grid">
<section><h2>members (click a fault: it happens now, in the served cluster)</h2><div id="members"></div>
<button data-act="heal">heal partitions</button></section>
<section><h2>leases (as the primary sees them)</h2><div id="leases"></div></section>
<section><h2>clients (real connections)</h2><div id="clients"></div></section>
<section><h2>keys</h2><div id="keys"></div></section>
</main>
<script>${scriptSafe(script)}</script>
</body></html>
`;
}
