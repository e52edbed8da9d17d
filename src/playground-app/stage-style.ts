/** Styles of the picture, the lesson beside it and the narrated trace; narrow screens get one column. */
export const STAGE_CSS = `
#stage { display: flex; flex-wrap: wrap; gap: 12px; padding: 12px 24px 0; }
#stage > section { background: #fff; border: 1px solid #d8dee4; border-radius: 8px; margin: 0; min-width: 0; }
#picture-box { flex: 3 1 560px; padding: 4px 6px; }
#picture .pic-stack { position: relative; }
#picture svg { display: block; width: 100%; height: auto; max-height: 64vh; }
#picture svg.back { will-change: transform; }
#picture svg.front { position: absolute; inset: 0; pointer-events: none; }
.legend { font-size: 11px; color: #57606a; margin: 2px 6px 4px; line-height: 1.5; }
#stage #lesson { flex: 1 1 300px; padding: 8px 12px; max-height: 72vh; overflow: auto; }
#stage #lesson h2 { margin: 2px 0 6px; font-size: 13px; text-transform: uppercase; letter-spacing: .06em;
  color: #57606a; }
#lesson h3 { margin: 4px 0 0; font-size: 16px; } #lesson .topic { margin: 0 0 6px; font-size: 12px; color: #57606a; }
#lesson .say, #lesson .intro p { font-size: 14px; line-height: 1.45; }
.predict { border-left: 4px solid #8250df; background: #fbefff; border-radius: 4px; padding: 4px 10px; margin: 8px 0; }
.predict .question { font-size: 14px; }
button.choice { display: block; width: 100%; text-align: left; margin: 5px 0; font-size: 13px; padding: 6px 8px; }
button.choice.picked { background: #ddf4ff; border-color: #0969da; }
button.choice:disabled { cursor: default; color: #1f2328; }
.verdict { font-size: 14px; font-weight: 600; } .verdict.held { color: #1a7f37; } .verdict.missed { color: #9a6700; }
.playing { color: #57606a; font-style: italic; }
#story { font-size: 12px; padding-left: 20px; margin: 0 0 6px; max-height: 260px; overflow: auto; }
#story li { margin: 2px 0; }
main.grid { grid-template-columns: repeat(auto-fill, minmax(min(420px, 100%), 1fr)); }
#controls input[type=range] { min-width: 0; }
#lessons { max-width: 100%; }
@media (max-width: 640px) {
  header, #controls { padding-left: 8px; padding-right: 8px; }
  #stage, main.grid { padding: 8px; }
  #picture-box, #stage #lesson { flex-basis: 100%; max-height: none; }
  #controls input[type=range] { flex-basis: 100%; }
  #timeline-wrap { margin: 0 8px 16px; }
  #set-bugs { columns: 1; }
}
`;
