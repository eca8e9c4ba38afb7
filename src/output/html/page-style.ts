/**
 * The reports' one stylesheet, inline (the page loads nothing). Colors are CSS variables so the
 * charts follow the reader's light or dark scheme; system fonts only (no web font to fetch).
 */
export const PAGE_STYLE = `
:root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --bg: #ffffff; --panel: #f6f8fa; --line: #d1d9e0;
  --accent: #0969da; --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --skip: #818b98; --note: #fff8c5; --pollution: #ffebe9; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --panel: #151b23; --line: #3d444d;
    --accent: #4493f8; --ok: #3fb950; --bad: #f85149; --warn: #d29922; --skip: #9198a1; --note: #3b2e0a; --pollution: #42191a; }
}
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); margin: 24px auto; max-width: 1160px; padding: 0 16px; }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 28px 0 8px; }
.muted, caption { color: var(--muted); } caption { text-align: left; padding-bottom: 4px; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 8px; overflow-x: auto; white-space: pre-wrap; word-break: break-all; margin: 4px 0; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 10px; text-align: left; vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
a { color: var(--accent); }
.figures { display: flex; flex-wrap: wrap; gap: 8px 24px; margin: 12px 0; }
.figure { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 6px 12px; }
.figure b { display: block; font-size: 18px; font-variant-numeric: tabular-nums; }
svg { display: block; max-width: 100%; height: auto; }
svg text { fill: var(--fg); font: 11px system-ui, sans-serif; } svg .muted { fill: var(--muted); }
svg .axis { stroke: var(--line); } svg .bar { fill: var(--accent); } svg .series { stroke: var(--accent); fill: none; stroke-width: 1.5; }
svg .band { fill: var(--accent); opacity: 0.2; } svg .dot { fill: var(--accent); }
svg .lane { stroke: var(--muted); stroke-dasharray: 4 3; } svg .arrow { stroke: var(--fg); } svg .arrow.error { stroke: var(--bad); }
svg .head { fill: var(--fg); } svg .head.error { fill: var(--bad); }
svg text.error, .error { color: var(--bad); fill: var(--bad); } svg .arrow.notification { stroke-dasharray: 6 3; }
svg .note-stderr { fill: var(--note); stroke: var(--warn); } svg .note-pollution { fill: var(--pollution); stroke: var(--bad); }
.verdict { font-weight: 600; } .pass { color: var(--ok); } .fail { color: var(--bad); } .warn { color: var(--warn); } .skip { color: var(--skip); }
svg .pass { fill: var(--ok); } svg .fail { fill: var(--bad); } svg .warn { fill: var(--warn); } svg .skip { fill: var(--skip); }
tr.stderr td { background: var(--note); } tr.pollution td { background: var(--pollution); }
footer { margin-top: 32px; color: var(--muted); font-size: 12px; }
`;
