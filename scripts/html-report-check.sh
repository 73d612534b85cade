#!/usr/bin/env bash
# Opens `gpudoctor report --html` in headless Chromium (Debian's chromium): the DOM has the
# expected headings, charts and table headers; a screenshot of each section is not blank; it
# prints to a PDF of several pages; and no request leaves the file (Chromium's own net log, with
# background networking off and every host name unresolvable, lists no http(s) or ws URL; a
# control page with a remote image shows the log does see one); the fleet section shows every
# node's verify, bench and NCCL part, the bench figures, the all-reduce and GPU memory health of
# the fleet JSON; on a 390 px phone no chart text runs past its chart and no word in a table
# breaks mid-word. Usage: scripts/html-report-check.sh [GPUDOCTOR] [SCREENSHOT-TO-KEEP.png] (the
# fleet section is kept beside it, as NAME-fleet.png)
# Exit 77 (skipped) without chromium or python3.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-build/dev/gpudoctor}"
keep="${2:-}"
chromium="$(command -v chromium || command -v chromium-browser || true)"
if [ -z "$chromium" ]; then
  echo "html-report-check: SKIPPED: chromium is not installed (scripts/setup-debian.sh test)" >&2
  exit 77
fi
if ! command -v python3 >/dev/null; then
  echo "html-report-check: SKIPPED: python3 is not installed" >&2
  exit 77
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
inputs=tests/fixtures/report-inputs
fixture=tests/fixtures/linux-tf215-cudnn86-mismatch
extra=(--bench "$inputs/bench.json" --verify "$inputs/verify.json" --watch "$inputs/watch.jsonl")
if [ -f "$inputs/fleet.json" ]; then extra+=(--fleet "$inputs/fleet.json"); fi
rc=0
"$bin" report --html "$work/report.html" --root "$fixture/root" --env-file "$fixture/env" "${extra[@]}" || rc=$?
if [ "$rc" != 1 ]; then
  echo "html-report-check: report exited $rc, expected 1 (the fixture has error findings)" >&2
  exit 1
fi

chrome() {
  timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
    --user-data-dir="$work/profile" --disable-background-networking --disable-component-update \
    --disable-sync --disable-default-apps --disable-extensions \
    --host-resolver-rules="MAP * ~NOTFOUND" "$@" 2>>"$work/chromium.log"
}
page="file://$work/report.html"
chrome --dump-dom "$page" >"$work/dom.html"
chrome --log-net-log="$work/net.json" --window-size=1000,1400 --screenshot="$work/top.png" "$page" >/dev/null
sections=(verdicts bench verify watch inventory plan)
if [ -f "$inputs/fleet.json" ]; then sections+=(fleet); fi
# Each section alone (the others hidden by one added style rule), so each screenshot shows it.
for s in "${sections[@]}"; do
  sed "s|<style>|<style>header, main > section:not(#$s) { display: none; }|" "$work/report.html" >"$work/section-$s.html"
  chrome --window-size=800,700 --screenshot="$work/section-$s.png" "file://$work/section-$s.html" >/dev/null
done
chrome --window-size=390,844 --screenshot="$work/phone.png" "$page" >/dev/null
# Layout on a 390 px phone, measured by the browser: a copy of the page without its CSP and with
# a script that lists every chart text running past its viewBox (review 43B, 04: "109.132 GFLOP/"
# cut at the right) and every word of a table cell broken across lines (05: "NVIDI/A/drive/r");
# words inside paths and identifiers (a "/" or "_" beside them) may break, as may cells that scroll.
cat >"$work/layout.js" <<'JS'
addEventListener('load', () => {
  const out = [];
  for (const svg of document.querySelectorAll('.chart svg')) {
    const vb = svg.viewBox.baseVal;
    for (const t of svg.querySelectorAll('text')) {
      const b = t.getBBox();
      if (b.width > 0 && (b.x < vb.x - 0.5 || b.x + b.width > vb.x + vb.width + 0.5))
        out.push(`chart text cut: #${svg.parentNode.id} "${t.textContent}" spans ${Math.round(b.x)}..${Math.round(b.x + b.width)} of ${vb.width}`);
    }
  }
  const walker = document.createTreeWalker(document.querySelector('main') || document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const cell = n.parentElement.closest('td, th');
    if (!cell || cell.closest('.scroll') || !cell.getClientRects().length) continue;
    for (const m of n.data.matchAll(/(^|[\s(])([A-Za-z]{2,20})(?=[\s,.;:)]|$)/g)) {
      const r = document.createRange();
      r.setStart(n, m.index + m[1].length);
      r.setEnd(n, m.index + m[0].length);
      if (new Set([...r.getClientRects()].map(x => Math.round(x.top))).size > 1)
        out.push(`word broken: "${m[2]}" in #${(cell.closest('section') || {}).id} "${cell.textContent.slice(0, 50)}"`);
    }
  }
  const pre = document.createElement('pre');
  pre.id = 'layout-probe';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
JS
python3 - "$work" <<'PY'
import re, sys
work = sys.argv[1]
page = open(f"{work}/report.html").read()
page = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", page)
open(f"{work}/layout.html", "w").write(page.replace("</body>", "<script>" + open(f"{work}/layout.js").read() + "</script></body>"))
PY
chrome --window-size=390,844 --virtual-time-budget=5000 --dump-dom "file://$work/layout.html" >"$work/layout-dom.html"
# Printed (the page's print style): a PDF of several pages.
chrome --no-pdf-header-footer --print-to-pdf="$work/print.pdf" "$page" >/dev/null
# The control: a page that does ask for a remote image, which the net log must show.
printf '<!DOCTYPE html><img src="http://canary.invalid/x.png">' >"$work/control.html"
chrome --log-net-log="$work/control-net.json" --screenshot="$work/control.png" "file://$work/control.html" >/dev/null

python3 - "$work" "$inputs/fleet.json" "${sections[@]}" <<'PY'
import html.parser, json, os, re, struct, sys, zlib

work, fleet_json, sections = sys.argv[1], sys.argv[2], sys.argv[3:]
problems = []

class Dom(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.headings, self.svgs, self.stack, self.ths, self.remote = [], [], [], [], []
        self.text_for = None
        self.ids, self.section, self.texts = set(), None, {}
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "section":
            self.section = a.get("id")
        for k in ("src", "href", "action", "data", "poster"):
            v = (a.get(k) or "").strip().lower()
            if v.startswith(("http:", "https:", "//", "ws:", "wss:")):
                self.remote.append((tag, k, v))
        if tag in ("h1", "h2", "h3"):
            self.text_for = [tag, ""]
        if tag == "svg":
            self.svgs.append({"role": a.get("role"), "title": False, "desc": False})
        if tag in ("title", "desc") and self.svgs and "svg" in self.stack:
            self.svgs[-1][tag] = True
        if tag == "th":
            self.ths.append(a.get("scope"))
        if tag in ("script", "iframe", "object", "embed", "link", "img"):
            self.remote.append((tag, "element", ""))
        self.stack.append(tag)
    def handle_endtag(self, tag):
        if self.text_for and tag == self.text_for[0]:
            self.headings.append(tuple(self.text_for))
            self.text_for = None
        while self.stack and self.stack.pop() != tag:
            pass
    def handle_data(self, data):
        if self.text_for:
            self.text_for[1] += data
        if self.section:
            self.texts[self.section] = self.texts.get(self.section, "") + " " + data

dom = Dom()
dom.feed(open(f"{work}/dom.html", encoding="utf-8").read())
h2 = [t.strip() for tag, t in dom.headings if tag == "h2"]
want = {"verdicts": "Verdicts", "bench": "Benchmarks", "verify": "Verification", "fleet": "Fleet",
        "watch": "GPU activity over time",
        "inventory": "Inventory", "plan": "Install plan"}
for s in sections:
    if want[s] not in h2:
        problems.append(f"heading '{want[s]}' missing from the DOM (h2s: {h2})")
# The fleet's newer parts, as the fleet JSON holds them: every node's verify, bench and NCCL part,
# the bench figures (median, MAD), the all-reduce (bus bandwidth, slowest link and its nodes),
# GPU memory health, each in the rendered page's text.
if "fleet" in sections:
    def number(v):  # render/html_report.cpp's number(): 3 decimals, 3 significant digits below 1
        if v != 0 and abs(v) < 1:
            t = f"{v:.3g}"
            return t if "e" in t else t.rstrip("0").rstrip(".")
        t = f"{v:.3f}".rstrip("0")
        return t.rstrip(".")
    fleet, page = json.load(open(fleet_json)), " ".join(dom.texts.get("fleet", "").split())
    h3 = [" ".join(t.split()) for tag, t in dom.headings if tag == "h3"]
    wanted = ["Nodes", "Findings across the nodes (identical ones once)"]
    expect = [n["node"] for n in fleet["nodes"]]
    if any(n.get("verify") for n in fleet["nodes"]):
        expect += ["verify --quick"] + [n["verify"]["status"] for n in fleet["nodes"] if n.get("verify")]
    if fleet.get("bench"):
        wanted.append("Benchmark figures across the nodes")
        for b in fleet["bench"]:
            expect += [b["key"], number(b["median"]), number(b["mad"])]
        if "chart-fleet-bench-0" not in dom.ids:
            problems.append("no chart of a bench figure across the nodes")
    if fleet.get("nccl"):
        n = fleet["nccl"]
        wanted.append("NCCL all-reduce across the fleet")
        expect += [n["status"], number(n["busbw_gbps"]) + " GB/s", n["slowest_node"], n["slowest_transport"]]
        expect += n["slowest_transport_nodes"]
        expect += [x["nccl"]["transport"] for x in fleet["nodes"] if x.get("nccl") and x["nccl"]["transport"]]
    memory = [(x["node"], g) for x in fleet["nodes"] for g in x.get("gpu_memory") or []]
    if memory:
        wanted.append("GPU memory health (ECC)")
        for node, g in memory:  # its table row: node, GPU, model, ECC errors, retired pages
            cells = [node, str(g["gpu"]), g["name"] or "—"]
            cells += [str(g[k]) if g.get(k) is not None else "—" for k in ("ecc_uncorrected_volatile", "retired_pages")]
            expect.append(" ".join(cells))
    for w in wanted:
        if w not in h3:
            problems.append(f"fleet heading '{w}' missing (h3s: {h3})")
    for e in expect:
        if " ".join(str(e).split()) not in page:
            problems.append(f"the fleet section does not show '{e}'")
    print(f"html-report-check: fleet: {len(wanted)} parts, {len(expect)} figures and names from {os.path.basename(fleet_json)} in the page")
if not any(tag == "h1" for tag, _ in dom.headings):
    problems.append("no h1")
if len(dom.svgs) < 4:
    problems.append(f"{len(dom.svgs)} SVG charts, expected at least 4 (verdicts, 2 bench groups, verify)")
for i, s in enumerate(dom.svgs):
    if s["role"] != "img" or not s["title"] or not s["desc"]:
        problems.append(f"SVG {i} lacks role=img, <title> or <desc>: {s}")
if any(scope not in ("col", "row") for scope in dom.ths):
    problems.append("a <th> without scope")
# watch.jsonl (the fake driver's watch_series: two GPUs, five samples): a line per GPU in each of
# the four charts over time, each drawn through the five samples.
paths = re.findall(r'<path d="([^"]*)" class="series', open(f"{work}/dom.html", encoding="utf-8").read())
if len(paths) != 8 or any(p.count("L") != 4 for p in paths):
    problems.append(f"watch charts: {len(paths)} lines, expected 8 of 5 points each: {[p[:40] for p in paths]}")
if dom.remote:
    problems.append(f"elements or attributes that load from elsewhere: {dom.remote[:5]}")

# Chromium's own services (updater, clock, accounts) still call home with background networking
# off; those hosts are not the page's. The control page proves a page's request is logged.
BROWSER_SERVICES = re.compile(r"^(https?)://([a-z0-9-]+\.)*(google\.com|googleapis\.com|gvt1\.com)(/|$)")
def urls(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    found = set(re.findall(r'"url":"((?:https?|wss?)://[^"]*)"', text))
    return sorted(u for u in found if not BROWSER_SERVICES.match(u))
leaked = urls(f"{work}/net.json")
if leaked:
    problems.append(f"requests left the page: {leaked[:5]}")
if not any("canary.invalid" in u for u in urls(f"{work}/control-net.json")):
    problems.append("the control page's remote image is not in its net log: the request check sees nothing")

def png_pixels(path):
    """A tiny PNG reader (8-bit RGB/RGBA, non-interlaced, as Chromium writes): (width, rows)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0, (depth, ctype, interlace)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = 4 if ctype == 6 else 3
    raw, stride, prev, rows = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride): line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif f == 3:
            for i in range(stride): line[i] = (line[i] + ((line[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, bpp, rows

def variety(path):
    w, bpp, rows = png_pixels(path)
    colours, inked, total = set(), 0, 0
    for row in rows[::4]:
        for x in range(0, w * bpp, 4 * bpp):
            px = row[x:x + 3]
            colours.add(px)
            total += 1
            inked += px != b"\xff\xff\xff"
    return len(colours), inked / max(total, 1)

layout = re.search(r'<pre id="layout-probe">(.*?)</pre>', open(f"{work}/layout-dom.html").read(), re.S)
if not layout:
    problems.append("the 390 px layout probe did not run (no #layout-probe in the DOM)")
else:
    import html as html_text
    found = json.loads(html_text.unescape(layout.group(1)))
    problems += [f"390 px: {f}" for f in found]
    print(f"html-report-check: 390 px layout: {len(found)} chart text(s) cut or word(s) broken")

pdf = open(f"{work}/print.pdf", "rb").read()
pages = max([int(n) for n in re.findall(rb"/Count (\d+)", pdf)] or [0])
if not pdf.startswith(b"%PDF") or pages < 2:
    problems.append(f"printing gave no multi-page PDF ({len(pdf)} bytes, {pages} pages)")
else:
    print(f"html-report-check: printed: {pages} pages, {len(pdf)} bytes")

seen = {}
for name in ["top", "phone"] + [f"section-{s}" for s in sections]:
    n, share = variety(f"{work}/{name}.png")
    digest = hash(open(f"{work}/{name}.png", "rb").read())
    if n < 8 or share < 0.02:
        problems.append(f"{name}.png looks blank: {n} colours, {share:.1%} non-white")
    if digest in seen:
        problems.append(f"{name}.png is the same picture as {seen[digest]}.png: the section did not scroll into view")
    seen[digest] = name
    print(f"html-report-check: {name}.png: {n} colours, {share:.0%} non-white")
if problems:
    print("html-report-check: FAILED\n  " + "\n  ".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"html-report-check: ok: {len(h2)} sections, {len(dom.svgs)} accessible charts, {len(dom.ths)} scoped headers, no request left the file")
PY
if [ -n "$keep" ]; then
  chrome --window-size=1000,2600 --screenshot="$work/keep.png" "$page" >/dev/null
  cp "$work/keep.png" "$keep"
  if [ -f "$work/section-fleet.html" ]; then  # and the fleet section alone beside it
    chrome --window-size=1000,3600 --screenshot="$work/keep-fleet.png" "file://$work/section-fleet.html" >/dev/null
    cp "$work/keep-fleet.png" "${keep%.png}-fleet.png"
  fi
fi
