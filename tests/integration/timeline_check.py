#!/usr/bin/env python3
"""timeline_check.py SVG JOB_DIR [--states S,S…] [--deaths ROLE:SIGNAL,…]

What `zsink timeline` drew, as headless Chromium lays it out: the SVG is
put in a page whose script measures every text label (its box on screen),
every lane's line and every death and restart mark, and writes them into
the page, which Chromium dumps (--dump-dom). Checked against the job's
event logs (JOB_DIR/events-*.jsonl):

- every snapshot committed (commit, compact) has its label "sN";
- every checkpoint triggered has its id written (on its bar or over it);
- every job state the coordinator entered has its label, and the states
  named by --states are among them;
- no two labels overlap, and every label is inside the picture;
- every death zsink cluster saw (exit on a signal) is marked on its
  process's lane with the signal and labelled with it; that lane's line
  ends at the mark, and the lane of the process started in its place
  begins where zsink cluster started it (its spawn mark), not before the
  dead one's end; --deaths ROLE:SIGNAL,… are among them.

Prints one line of what it found; exit 1 with the reason when a check
fails."""
import argparse
import glob
import html
import json
import os
import re
import subprocess
import sys
import tempfile

MEASURE = """
<script>
const r = {width: 0, labels: [], lanes: [], marks: []};
const svg = document.querySelector('svg');
r.width = svg.width.baseVal.value;
for (const e of document.querySelectorAll('text.label')) {
  const b = e.getBoundingClientRect();
  r.labels.push({cls: e.getAttribute('class'), text: e.textContent, x0: b.left, x1: b.right,
                 y0: b.top, y1: b.bottom, checkpoint: e.dataset.checkpoint || null,
                 snapshot: e.dataset.snapshot || null, state: e.dataset.state || null});
}
for (const g of document.querySelectorAll('g.lane')) {
  const l = g.querySelector('line.lane-line') || g.querySelector('line');
  r.lanes.push({name: g.dataset.name, pid: +g.dataset.pid,
                x1: l ? l.x1.baseVal.value : -1, x2: l ? l.x2.baseVal.value : -1});
}
for (const g of document.querySelectorAll('g.death, g.exit, g.spawn'))
  r.marks.push({cls: g.getAttribute('class'), name: g.dataset.name, pid: +g.dataset.pid,
                signal: g.dataset.signal || '', x: +g.dataset.x});
const pre = document.createElement('pre');
pre.id = 'result';
pre.textContent = JSON.stringify(r);
document.body.appendChild(pre);
</script>
"""


def fail(why):
    print(f"timeline_check: {why}")
    sys.exit(1)


def measure(svg_path):
    svg = open(svg_path).read()
    with tempfile.NamedTemporaryFile("w", suffix=".html", delete=False) as f:
        f.write('<!DOCTYPE html><html><body style="margin:0">' + svg + MEASURE + "</body></html>")
        page = f.name
    try:
        dom = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                              "--dump-dom", "file://" + page],
                             capture_output=True, text=True, timeout=120).stdout
    finally:
        os.unlink(page)
    m = re.search(r'<pre id="result">(.*?)</pre>', dom, re.S)
    if not m:
        fail(f"Chromium's page has no measurements (dump of {len(dom)} bytes)")
    return json.loads(html.unescape(m.group(1)))


def events(job_dir):
    evs = []
    for path in glob.glob(os.path.join(job_dir, "events-*.jsonl*")):
        for line in open(path):
            try:
                evs.append(json.loads(line))
            except ValueError:
                pass  # a line cut by a crash, as zsink timeline skips it
    return evs


def overlaps(a, b):
    return min(a["x1"], b["x1"]) - max(a["x0"], b["x0"]) > 0.5 \
        and min(a["y1"], b["y1"]) - max(a["y0"], b["y0"]) > 0.5


def check_labels(r, evs, want_states):
    labels = r["labels"]
    snaps = {str(e["snapshot"]) for e in evs if e["e"] in ("commit", "compact")}
    drawn = {l["snapshot"] for l in labels if "snapshot" in l["cls"].split()}
    if snaps - drawn:
        fail(f"snapshots without their label: {sorted(snaps - drawn, key=int)}")
    for l in labels:
        if "snapshot" in l["cls"].split() and l["text"] != "s" + l["snapshot"]:
            fail(f"snapshot {l['snapshot']} labelled {l['text']!r}")
    ids = {str(e["id"]) for e in evs if e["e"] == "trigger"}
    written = {l["checkpoint"] for l in labels if "checkpoint-id" in l["cls"].split()}
    if ids - written:
        fail(f"checkpoints without their id written: {sorted(ids - written, key=int)}")
    states = sorted(e["state"] for e in evs if e["e"] == "state")
    shown = sorted(l["state"] for l in labels if "state" in l["cls"].split())
    if states != shown:
        fail(f"job states entered {states}, labelled {shown}")
    if set(want_states) - set(shown):
        fail(f"job states {sorted(set(want_states) - set(shown))} not drawn (drawn: {shown})")
    for i, a in enumerate(labels):
        if a["x0"] < 0 or a["x1"] > r["width"]:
            fail(f"label {a['text']!r} outside the picture: {a['x0']:.1f}..{a['x1']:.1f} "
                 f"of {r['width']}")
        for b in labels[i + 1:]:
            if overlaps(a, b):
                fail(f"labels {a['text']!r} and {b['text']!r} overlap: {a} {b}")
    return len(snaps), len(ids), len(states)


def lane(r, name, pid):
    for l in r["lanes"]:
        if l["name"] == name and l["pid"] == pid:
            return l
    fail(f"no lane for {name} (pid {pid})")


def check_deaths(r, evs, want_deaths):
    labels = [l["text"] for l in r["labels"] if "death" in l["cls"].split()]
    seen = []
    for e in evs:
        if e["e"] != "exit" or "signal" not in e:
            continue
        mark = [m for m in r["marks"] if m["cls"] == "death" and m["name"] == e["role"]
                and m["pid"] == e["role_pid"] and m["signal"] == e["sig"]]
        if not mark:
            fail(f"{e['role']} (pid {e['role_pid']}) died on {e['sig']}: no such mark")
        name = e["sig"] if e["sig"].startswith("SIG") else f"signal {e['signal']}"
        if labels.count(name) <= sum(1 for s in seen if s[1] == e["sig"]):
            fail(f"{e['role']} (pid {e['role_pid']}) died on {e['sig']}: not labelled so "
                 f"(death labels: {labels})")
        l = lane(r, e["role"], e["role_pid"])
        if abs(l["x2"] - mark[0]["x"]) > 0.5:
            fail(f"{e['role']} (pid {e['role_pid']}): its lane ends at {l['x2']:.1f}, "
                 f"it died at {mark[0]['x']:.1f}")
        seen.append((e["role"], e["sig"]))
    for e in evs:
        if e["e"] != "spawn":
            continue
        mark = [m for m in r["marks"] if m["cls"] == "spawn" and m["name"] == e["role"]
                and m["pid"] == e["role_pid"]]
        if not mark:
            fail(f"{e['role']} (pid {e['role_pid']}) started again: no mark")
        l = lane(r, e["role"], e["role_pid"])
        if abs(l["x1"] - mark[0]["x"]) > 0.5:
            fail(f"{e['role']} (pid {e['role_pid']}): its lane starts at {l['x1']:.1f}, "
                 f"it was started at {mark[0]['x']:.1f}")
        before = [x for x in r["lanes"] if x["name"] == e["role"] and x["x1"] < l["x1"]]
        if before and max(x["x2"] for x in before) > l["x1"] + 0.5:
            fail(f"{e['role']} (pid {e['role_pid']}) starts at {l['x1']:.1f}, before the "
                 f"one it replaces ended ({max(x['x2'] for x in before):.1f})")
    for want in want_deaths:
        role, sig = want.split(":")
        if (role, sig) not in seen:
            fail(f"no death of {role} on {sig} drawn (drawn: {seen})")
    return seen


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("svg")
    ap.add_argument("job_dir")
    ap.add_argument("--states", default="")
    ap.add_argument("--deaths", default="")
    a = ap.parse_args()
    r = measure(a.svg)
    evs = events(a.job_dir)
    if not evs:
        fail(f"no events in {a.job_dir}")
    snaps, ids, states = check_labels(r, evs, [s for s in a.states.split(",") if s])
    deaths = check_deaths(r, evs, [d for d in a.deaths.split(",") if d])
    rows = len({round(l["y0"]) for l in r["labels"]})
    print(f"{len(r['labels'])} labels ({snaps} snapshots, {ids} checkpoint ids, {states} job "
          f"states, {len(deaths)} deaths) at {rows} heights, none overlapping; "
          f"{len(r['lanes'])} lanes, width {r['width']:.0f}; deaths {deaths}")


main()
