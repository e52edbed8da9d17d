/** The playground's own stylesheet (the timeline's comes from the renderer). */
export const PLAYGROUND_CSS = `
body { background: #f6f8fa; }
header { background: #fff; display: flex; gap: 14px; align-items: baseline; flex-wrap: wrap; }
header h1 { margin: 0; }
.hash { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 11px; color: #57606a; word-break: break-all; }
#controls { position: sticky; top: 0; z-index: 5; background: #fff; border-bottom: 1px solid #d8dee4; padding: 8px \
24px; display: flex; gap: 10px; align-items: center; flex-wrap: wrap; }
#controls input[type=range] { flex: 1 1 400px; }
#now { font-family: ui-monospace, Menlo, Consolas, monospace; min-width: 16ch; }
button { font: inherit; font-size: 12px; padding: 2px 8px; border: 1px solid #d0d7de; border-radius: 6px; background: \
#f6f8fa; cursor: pointer; }
button:hover { background: #eaeef2; }
#play { min-width: 8ch; font-weight: 600; }
main.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(420px, 1fr)); gap: 12px; padding: 12px \
24px; }
main.grid > section { background: #fff; border: 1px solid #d8dee4; border-radius: 8px; padding: 8px 12px; margin: 0; \
min-width: 0; contain: content; }
main.grid h2 { margin: 2px 0 8px; font-size: 13px; text-transform: uppercase; letter-spacing: .06em; color: #57606a; }
.card { border: 1px solid #d0d7de; border-radius: 6px; padding: 6px 8px; margin-bottom: 6px; cursor: pointer; }
.member.role-leader { border-left: 5px solid #2da44e; } .member.role-follower { border-left: 5px solid #a5c8f0; } \
.member.role-candidate { border-left: 5px solid #f0a63a; }
.member.crashed { border-left: 5px solid #3a3a3a; background: #eee; } .member.paused, .client.paused { background: \
repeating-linear-gradient(45deg, #f4f4f4 0 6px, #e6e6e6 6px 12px); }
.role { color: #57606a; } .tag { background: #8a8a8a; color: #fff; border-radius: 8px; padding: 0 6px; font-size: \
11px; }
.facts { font-size: 12px; color: #333; } .acts { margin-top: 4px; display: inline-flex; gap: 4px; flex-wrap: wrap; }
.lease { border-bottom: 1px solid #eaeef2; padding: 5px 0; cursor: pointer; }
.bar { position: relative; height: 12px; background: #eaeef2; border-radius: 3px; overflow: visible; margin: 3px 0; }
.bar .fill { height: 100%; background: #4053c4; border-radius: 3px; } .bar .fill.low { background: #e16f24; }
.bar.forever { background: repeating-linear-gradient(45deg, #b0b0b0 0 1px, #fff 1px 5px); }
.bar .was { position: absolute; top: -3px; width: 2px; height: 18px; background: #d1242f; }
.left { font-size: 12px; color: #333; }
.ka { font-size: 11px; border-radius: 8px; padding: 0 6px; } .ka.alive { background: #dafbe1; } .ka.lost { background: \
#ffebe9; }
table { border-collapse: collapse; font-size: 12px; } td, th { text-align: left; padding: 2px 10px 2px 0; \
border-bottom: 1px solid #eaeef2; }
pre { font-size: 11px; white-space: pre-wrap; margin: 0; max-height: 260px; overflow: auto; }
.none { color: #57606a; font-size: 12px; margin: 4px 0; }
ul.flow { margin: 2px 0 6px; padding-left: 18px; font-size: 12px; }
main.grid h3 { font-size: 12px; margin: 6px 0 2px; }
#errors { color: #82071e; white-space: pre-wrap; font-size: 12px; }
#errors:empty { display: none; }
#lesson .intro { white-space: pre-wrap; font-size: 13px; }
#timeline-wrap { position: relative; margin: 0 24px 24px; background: #fff; border: 1px solid #d8dee4; border-radius: \
8px; overflow-x: auto; }
#timeline { position: relative; cursor: crosshair; }
#cursor { position: absolute; top: 0; bottom: 0; width: 2px; background: #d1242f; z-index: 2; pointer-events: none; }
#yaml { width: 100%; height: 160px; font: 11px ui-monospace, Menlo, Consolas, monospace; }
#share-url { width: 100%; font-size: 11px; }
#set-bugs { columns: 2; } #set-bugs label { display: block; font-size: 12px; }
.settings label { font-size: 12px; margin-right: 10px; }
.settings input[type=number] { width: 7ch; }
`;
