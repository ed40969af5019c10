"""The shell blocks of README.md and docs/*.md, for tests/cli/test_docs.sh.

    docs_blocks.py REPO OUT     writes OUT/NNN.sh (one a block) and OUT/blocks.tsv:
                                page, line, run|skip|bad, script, reason or problem
    docs_blocks.py REPO         lists the blocks (and every fenced block's language)

A block is a fenced code block whose info string is `sh` (indented fences too, as inside a list
item: the indentation is taken off). Every one is run as written, unless the line just before it
(blank lines aside) is an annotation

    <!-- docs-test: skip REASON -->

with REASON one of ALLOWED. An annotation with no reason, another reason, or with no `sh` block
after it is a `bad` row, which the test fails; so is a fence tagged bash, shell or console (write
`sh`: the test runs them with sh -e).
"""
import os
import re
import sys

ALLOWED = (
    "needs a GPU",
    "is the test command itself",
    "submits to a batch system",
    "long benchmark",
)
ANNOTATION = re.compile(r"^\s*<!--\s*docs-test:(.*?)-->\s*$")
FENCE = re.compile(r"^(\s*)```\s*([A-Za-z0-9_+-]*)\s*$")


def pages(repo):
    out = ["README.md"]
    docs = os.path.join(repo, "docs")
    out += sorted("docs/" + f for f in os.listdir(docs) if f.endswith(".md"))
    return out


def blocks(repo, page):
    """(line of the opening fence, info string, text, annotation or None, problem or None)."""
    lines = open(os.path.join(repo, page), encoding="utf-8").read().split("\n")
    found = []
    pending = None  # (line, annotation text) of an annotation waiting for its block
    i = 0
    while i < len(lines):
        m = ANNOTATION.match(lines[i])
        if m:
            if pending:
                found.append((pending[0], "", "", None, "an annotation with no sh block after it"))
            pending = (i + 1, m.group(1).strip())
            i += 1
            continue
        m = FENCE.match(lines[i])
        if not m:
            if lines[i].strip() and pending:
                found.append((pending[0], "", "", None, "an annotation with no sh block after it"))
                pending = None
            i += 1
            continue
        indent, info = m.group(1), m.group(2)
        start = i + 1
        body = []
        i += 1
        while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
            line = lines[i]
            body.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            i += 1
        i += 1  # the closing fence
        note, problem = None, None
        if pending:
            note = pending[1]
            pending = None
            if info != "sh":
                problem = "an annotation before a block that is not sh"
        if info in ("bash", "shell", "console", "zsh"):
            problem = f"a {info} block: tag it sh (the test runs every sh block with sh -e)"
        found.append((start, info, "\n".join(body) + "\n", note, problem))
    if pending:
        found.append((pending[0], "", "", None, "an annotation with no sh block after it"))
    return found


def classify(note):
    """run, skip or bad, and the reason or the problem."""
    if note is None:
        return "run", ""
    m = re.match(r"^skip\b\s*(.*)$", note)
    if not m:
        return "bad", f"'docs-test:{note}': the only annotation is 'skip REASON'"
    reason = m.group(1).strip()
    if not reason:
        return "bad", "'docs-test: skip' without a reason (one of: " + "; ".join(ALLOWED) + ")"
    if reason not in ALLOWED:
        return "bad", f"'{reason}' is not an allowed reason (one of: " + "; ".join(ALLOWED) + ")"
    return "skip", reason


def main():
    repo = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else None
    rows = []
    n = 0
    for page in pages(repo):
        for line, info, text, note, problem in blocks(repo, page):
            if problem:
                rows.append((page, line, "bad", "-", problem))
                continue
            if info != "sh":
                if out is None:
                    print(f"{page}:{line} ```{info} (not run)")
                continue
            state, why = classify(note)
            n += 1
            script = "-"
            if out is not None:
                script = os.path.join(out, f"{n:03d}.sh")
                with open(script, "w", encoding="utf-8") as f:
                    f.write(text)
            rows.append((page, line, state, script, why))
    if out is None:
        for r in rows:
            print(f"{r[0]}:{r[1]} {r[2]} {r[4]}")
        return
    with open(os.path.join(out, "blocks.tsv"), "w", encoding="utf-8") as f:
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")


if __name__ == "__main__":
    main()
