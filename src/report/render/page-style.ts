/** The page's stylesheet: every color of the timeline lives here, keyed by the classes the SVG uses. */
export const PAGE_CSS = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; color: #1f2328; background: #fff; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, \
"Helvetica Neue", Arial, sans-serif; }
header { padding: 16px 24px 10px; border-bottom: 1px solid #d8dee4; }
h1 { font-size: 20px; margin: 0 0 6px; display: flex; align-items: center; gap: 10px; flex-wrap: wrap; }
h2 { font-size: 15px; margin: 18px 0 8px; }
.verdict { font-size: 12px; color: #fff; border-radius: 10px; padding: 1px 9px; }
.verdict.pass { background: #1a7f37; } .verdict.fail { background: #cf222e; }
.desc { white-space: pre-wrap; max-width: 120ch; margin: 4px 0 10px; color: #333; }
.setup-error { color: #82071e; background: #ffebe9; border: 1px solid #ff818266; padding: 6px 10px; border-radius: \
6px; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 1px 14px; margin: 0; font-size: 13px; }
dl.meta dt { color: #57606a; } dl.meta dd { margin: 0; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, \
monospace; word-break: break-all; }
.scroll { overflow-x: auto; padding: 8px 24px 4px; }
section, footer { padding: 0 24px; }
footer { margin: 18px 0 24px; color: #57606a; font-size: 12px; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 12px; color: #444; padding: 0 24px; }
.legend span { display: inline-flex; align-items: center; gap: 5px; }
.sw { display: inline-block; width: 16px; height: 10px; border-radius: 2px; }
.sw.leader { background: #2da44e; } .sw.follower { background: #a5c8f0; } .sw.candidate { background: #f0a63a; } \
.sw.crashed { background: #3a3a3a; }
.sw.paused { background: repeating-linear-gradient(45deg, #8a8a8a 0 2px, #e0e0e0 2px 5px); }
.sw.ttl { background: rgba(84, 110, 230, .22); border-top: 2px solid #4053c4; } .sw.none { background: \
repeating-linear-gradient(45deg, #b0b0b0 0 1px, #fff 1px 4px); }
.sw.overdue { background: #d1242f; height: 3px; } .sw.alive { background: #4ac26b; } .sw.lost { background: #d1242f; \
height: 3px; }
.sw.held { background: #8250df; } .sw.gone { background: repeating-linear-gradient(45deg, #c62828 0 2px, #f3c1c1 2px \
5px); }
.sw.partition { background: rgba(225, 111, 36, .18); } .sw.bootstrap { background: rgba(0, 0, 0, .07); }
.glyph { font-weight: 700; } .glyph.revoke { color: #d1242f; } .glyph.expired { color: #e16f24; } .glyph.checkpoint { \
color: #8250df; } .glyph.grant { color: #1a7f37; } .glyph.renew { color: #4053c4; }
table.assertions { border-collapse: collapse; font-size: 13px; }
table.assertions th, table.assertions td { text-align: left; padding: 3px 10px 3px 0; border-bottom: 1px solid \
#eaeef2; vertical-align: top; }
table.assertions td.t { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: nowrap; }
td.pass { color: #1a7f37; font-weight: 700; } td.fail { color: #cf222e; font-weight: 700; }
svg.timeline { display: block; font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, \
sans-serif; font-size: 11px; }
svg.timeline text { fill: #24292f; }
.lane-bg { fill: transparent; stroke: #eaeef2; }
.lane-harness .lane-bg { fill: rgba(0, 0, 0, .02); }
.label { font-weight: 600; font-size: 12.5px; }
.sublabel { font-size: 9.5px; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
svg.timeline .sublabel, svg.timeline .row-label, svg.timeline .axis-label, svg.timeline .axis-caption, svg.timeline \
.section, svg.timeline .note { fill: #57606a; }
.row-label { font-size: 10px; }
.section { font-size: 10.5px; font-weight: 700; letter-spacing: .08em; text-transform: uppercase; }
.note { font-style: italic; }
.hit { fill: transparent; }
.role-leader { fill: #2da44e; } .role-follower { fill: #a5c8f0; } .role-candidate, .role-pre-candidate { fill: \
#f0a63a; }
.role-crashed { fill: #3a3a3a; } .role-paused { fill: url(#hatch-paused); } .role-unknown { fill: #c9a0dc; }
svg.timeline .term { fill: #fff; font-weight: 700; font-size: 10px; pointer-events: none; }
.promote path { fill: #0f5323; } .demote path { fill: #57606a; }
.ttl { fill: rgba(84, 110, 230, .22); stroke: #4053c4; stroke-width: 1.2; stroke-linejoin: round; }
.ttl.est { stroke-dasharray: 4 2; }
.ttl-none { fill: url(#hatch-none); stroke: #c8c8c8; }
.ttl-overdue line { stroke: #d1242f; stroke-width: 3; }
.revoke-line { stroke: #d1242f; stroke-width: 1.5; pointer-events: none; }
.lease-grant circle { fill: #1a7f37; } .lease-renew line { stroke: #4053c4; stroke-width: 2; }
.lease-checkpoint path { fill: #8250df; } .lease-expired path { fill: #e16f24; }
.lease-revoke path { stroke: #d1242f; stroke-width: 2.4; fill: none; stroke-linecap: round; }
.tick line { stroke: #8c959f; stroke-width: 1.2; }
.t-raft line { stroke: #5b8fd1; } .t-kv line { stroke: #b08800; } .t-lease line, .t-lessor line { stroke: #6f7fd8; }
.t-client line { stroke: #1b7c83; } .t-server line { stroke: #8a5a44; } .t-ctl line { stroke: #6639ba; }
.t-step line { stroke: #24292f; stroke-width: 1.5; } .t-error line { stroke: #d1242f; stroke-width: 2; }
.st-alive { fill: #4ac26b; } .st-lost { fill: #d1242f; } .st-waiting { fill: #c297ff; } .st-held { fill: #8250df; }
.st-held-lease-gone { fill: url(#hatch-gone); stroke: #c62828; stroke-width: .8; }
.cmk line { stroke: #0f5323; stroke-width: 1; } .cmk.client-keepalive-send line { stroke: #7fbf95; }
.cmk.client-keepalive-closed line, .cmk.client-lock-failed line { stroke: #d1242f; stroke-width: 2.2; }
.cmk.client-lock-acquired line, .cmk.client-unlock line { stroke: #3c1e70; stroke-width: 2; }
.client-paused rect { fill: url(#hatch-paused); opacity: .5; } svg.timeline .paused-label { font-size: 10px; fill: \
#333; }
.write-accepted circle { fill: #1a7f37; } .write-rejected circle { fill: #d1242f; }
.write-accepted path, .write-rejected path { stroke: #fff; stroke-width: 1.6; fill: none; stroke-linecap: round; }
.assert.pass circle { fill: #1a7f37; } .assert.fail circle { fill: #d1242f; }
.assert-glyph { fill: none; stroke: #fff; stroke-width: 1.7; stroke-linecap: round; stroke-linejoin: round; \
pointer-events: none; }
.assert-count { font-size: 10px; }
.axis-line, .axis-tick { stroke: #57606a; } .axis-label { font-size: 10.5px; } .axis-caption { font-size: 10px; \
font-style: italic; }
.grid { stroke: #eef1f4; } .grid.zero { stroke: #8c959f; stroke-dasharray: 2 3; }
.band.bootstrap rect { fill: rgba(0, 0, 0, .045); } .band.partition rect { fill: rgba(225, 111, 36, .09); }
.gm-line { stroke-width: 1.3; pointer-events: none; } .gm-connector { stroke-width: .8; stroke-dasharray: 1 2; \
pointer-events: none; }
.gm-label { font-size: 10.5px; font-weight: 600; }
.gm-leader line { stroke: #1a7f37; } .gm-leader .gm-line { stroke-dasharray: 5 3; } svg.timeline .gm-leader text { \
fill: #116329; }
.gm-partition line, .gm-heal line { stroke: #e16f24; } .gm-heal .gm-line { stroke-dasharray: 5 3; } svg.timeline \
.gm-partition text, svg.timeline .gm-heal text { fill: #bc4c00; }
.gm-crash line { stroke: #24292f; } .gm-restart line { stroke: #6e7781; } .gm-restart .gm-line { stroke-dasharray: 5 \
3; }
.gm-clock line { stroke: #8250df; } .gm-clock .gm-line { stroke-dasharray: 1 2; } svg.timeline .gm-clock text { fill: \
#6639ba; }
.gm-fail line { stroke: #d1242f; } svg.timeline .gm-fail text { fill: #cf222e; }
.mk.hover, .seg.hover, .gm.hover .gm-label { filter: brightness(.8); }
.seg.hover, .ttl.hover, .ttl-none.hover { stroke: #1f2328; stroke-width: 1.5; }
.mk { cursor: default; }
#tip { position: fixed; z-index: 10; left: 0; top: 0; max-width: min(820px, 90vw); padding: 6px 9px; border-radius: 5px;
  background: #1f2328; color: #f6f8fa; font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  white-space: pre-wrap; pointer-events: none; box-shadow: 0 3px 12px rgba(0, 0, 0, .25); }
#tip[hidden] { display: none; }
`;
