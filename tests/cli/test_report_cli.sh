#!/bin/sh
# `cybershake report` on the small site the workflow tests run (tests/workflow/small_site.sh):
# the report of the study after a run end to end; every link and image of the page resolves to
# a file in the report or an anchor of the page, every plot is a PNG with something drawn, and
# headless Chromium renders the page (the screenshot is kept beside the report; skipped where
# Chromium is not installed). A report replaces an older one, never another folder.
. "$(dirname "$0")/lib.sh"
. "$REPO/tests/workflow/small_site.sh"
export REPO

study() {
    make_study && make_config "gmpe = bssa14" || return 1
    "$CS" run DEMO --study s.sqlite --config run.cfg >run.out 2>run.err || { cat run.err >&2; return 1; }
}

t_help() {
    run "$CS" report --help && expect_rc 0 && expect_out "usage: cybershake report STUDY --out DIR" || return 1
    run "$CS" --help && expect_out "report" || return 1
    run "$CS" report s.sqlite && expect_rc 2 && expect_err "--out" || return 1
}

t_report_of_a_study_renders() {
    study || return 1
    run "$CS" report s.sqlite --out rep
    expect_rc 0 && expect_out "report: rep/index.html" || { cat "$T/out" "$T/err" >&2; return 1; }
    # no temporary folder left beside it
    [ -z "$(ls -a | grep '^\.rep\.tmp')" ] || { echo "    temporary folder left" >&2; return 1; }
    "$PY" - <<'PYEOF' || return 1
import html.parser, os, subprocess, sys
class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs, self.ids, self.text = [], set(), []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        for k in ("href", "src"):
            if k in a:
                self.refs.append((tag, a[k]))
        assert tag != "script", "the report has a script"
        assert not (tag == "link" and a.get("rel") == "stylesheet"), "an external stylesheet"
    def handle_data(self, d):
        self.text.append(d)
p = Page()
p.feed(open("rep/index.html", encoding="utf-8").read())
text = " ".join(p.text)
imgs = [r for t, r in p.refs if t == "img"]
for t, r in p.refs:
    assert "://" not in r and not r.startswith("//"), f"{r}: not a local reference"
    if r.startswith("#"):
        assert r[1:] in p.ids, f"{r}: no such anchor"
    else:
        assert os.path.isfile(os.path.join("rep", r)), f"{r}: no such file"
kinds = {k: [i for i in imgs if i.startswith(k)] for k in ("map_", "curve_", "uhs_", "disagg_", "seis_")}
for k, v in kinds.items():
    assert v, f"no {k} plot in the report"
# every PNG written is shown
assert sorted(f for f in os.listdir("rep") if f.endswith(".png")) == sorted(imgs), "a plot is not shown"
for want in ("DEMO, run 1", "Provenance", "GMPE BSSA14", "configuration SHA-256", "seismograms", "SA(5) RotD50"):
    assert want in text, f"the page lacks {want!r}"
sizes = {"map_": (900, 660), "curve_": (760, 560), "uhs_": (760, 560), "disagg_": (980, 760), "seis_": (900, 600)}
for k, v in kinds.items():
    for f in v:
        subprocess.run([sys.executable, os.environ["REPO"] + "/tests/cli/png_check.py", "rep/" + f,
                        str(sizes[k][0]), str(sizes[k][1]), "20"], check=True, stdout=subprocess.DEVNULL)
# the recorded checksums in the page are the files'
import hashlib, sqlite3
for path, sha in sqlite3.connect("s.sqlite").execute("SELECT Path, SHA256 FROM Run_Files"):
    assert sha in text, f"{path}: its checksum is not in the report"
print(f"    {len(imgs)} plots, {len(p.refs)} references, all resolved")
PYEOF
    # again into the same folder: replaced; a folder that is not a report: refused
    run "$CS" report s.sqlite --out rep && expect_rc 0 || return 1
    mkdir other && echo keep >other/file
    run "$CS" report s.sqlite --out other && expect_rc 1 && expect_err "not a report" || return 1
    [ "$(cat other/file)" = keep ] || return 1
    chromium=$(command -v chromium || command -v chromium-browser || true)
    [ -n "$chromium" ] || { skip "chromium is not installed (apt-get install chromium): the report was checked, not rendered"; return 77; }
    HOME="$T" timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --screenshot="$T/rep/screenshot.png" --window-size=1200,2400 "file://$T/rep/index.html" >chromium.log 2>&1
    [ -s rep/screenshot.png ] || { tail -5 chromium.log >&2; return 1; }
    # the rendered page: the images were drawn into it (a page of text alone has few colours)
    "$PY" "$REPO/tests/cli/png_check.py" rep/screenshot.png 1200 2400 200 >png.out || return 1
    sed 's/^/    rendered: /' png.out
    # kept where a passing run's temporary folders are removed
    mkdir -p "$REPO/build/test-output" && cp rep/screenshot.png "$REPO/build/test-output/report_screenshot.png"
    echo "    screenshot: $T/rep/screenshot.png, kept as build/test-output/report_screenshot.png"
}

tcase help t_help
tcase report_of_a_study_renders t_report_of_a_study_renders
tsummary
