#!/bin/sh
# Every ```sh block of README.md and docs/*.md runs as written (tests/cli/docs_blocks.py extracts
# them), so the documentation cannot drift from the commands. Each page runs in its own scratch
# folder, its blocks in order (a later block uses what an earlier one made), with `sh -e`: the
# folder holds links to the checkout's tracked top-level entries and build/, so build/bin/cybershake,
# sites/, erf/, tests/data/ resolve as from the repository's root, and every output stays in the
# scratch folder. The blocks run without the environment the other suites set for mpirun (they
# use `cybershake mpirun`, which works as root and with more ranks than cores by itself), with
# the system python3 first on the PATH.
#
# A block is left out only under an annotation on the line before it,
#     <!-- docs-test: skip REASON -->
# REASON one of: needs a GPU; is the test command itself; submits to a batch system; long
# benchmark. A block that fails, an annotation without a reason or with another, fails the suite.
# Each case is named PAGE:LINE (the line of the block's opening fence). DOCS_PAGES="README.md
# docs/sgt.md" runs those pages' blocks only.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

BLOCKS="$T_ROOT/blocks"
mkdir -p "$BLOCKS" "$T_ROOT/bin"
ln -s "$(command -v "$PY")" "$T_ROOT/bin/python3"
if ! "$PY" "$REPO/tests/cli/docs_blocks.py" "$REPO" "$BLOCKS"; then
    echo "FAIL tests/cli/docs_blocks.py"
    T_FAIL=$((T_FAIL + 1))
fi

# The scratch folder of a page: links to the checkout's tracked top-level entries (not to what a
# reader left at its root, a study.sqlite or a demo-out/) and to build/.
page_dir() {
    d="$T_ROOT/pages/$(echo "$1" | tr '/.' '__')"
    [ -d "$d" ] && { echo "$d"; return; }
    mkdir -p "$d"
    {
        git -C "$REPO" ls-files 2>/dev/null | cut -d/ -f1 | sort -u
        echo build; echo .git
    } | while read -r e; do
        [ -e "$REPO/$e" ] && [ ! -e "$d/$e" ] && ln -s "$REPO/$e" "$d/$e"
    done
    echo "$d"
}

run_block() {
    cd "$B_DIR" || return 1
    env -u OMPI_ALLOW_RUN_AS_ROOT -u OMPI_ALLOW_RUN_AS_ROOT_CONFIRM \
        -u OMPI_MCA_rmaps_base_oversubscribe -u CS_REPO PATH="$T_ROOT/bin:$PATH" \
        timeout 600 sh -e "$B_SCRIPT" </dev/null >"$T/out" 2>"$T/err"
    rc=$?
    [ "$rc" = 0 ] && return 0
    echo "    the block at $B_NAME exited $rc (in $B_DIR):" >&2
    sed 's/^/    | /' "$B_SCRIPT" >&2
    tail -n 15 "$T/err" | sed 's/^/    stderr: /' >&2
    return 1
}
skip_block() { skip "$B_REASON"; }
bad_block() {
    echo "    $B_NAME: $B_REASON" >&2
    return 1
}

# The rule itself: a skip without a reason or with another, an annotation before no sh block, and
# a block tagged bash are each a bad row (which fails the suite); an allowed reason skips.
t_annotations_are_checked() {
    mkdir -p fake/docs && echo "# r" >fake/README.md || return 1
    cat >fake/docs/a.md <<'MD'
<!-- docs-test: skip -->
```sh
echo a
```
<!-- docs-test: skip it is slow -->

```sh
echo b
```
<!-- docs-test: skip needs a GPU -->
text
```bash
echo c
```
<!-- docs-test: skip long benchmark -->
```sh
echo d
```
MD
    mkdir out && "$PY" "$REPO/tests/cli/docs_blocks.py" fake out || return 1
    cut -f1-3,5 out/blocks.tsv >rows
    grep -q "^docs/a.md	2	bad	'docs-test: skip' without a reason" rows &&
        grep -q "^docs/a.md	7	bad	'it is slow' is not an allowed reason" rows &&
        grep -q "^docs/a.md	10	bad	an annotation with no sh block after it" rows &&
        grep -q "^docs/a.md	12	bad	a bash block" rows &&
        grep -q "^docs/a.md	16	skip	long benchmark" rows && [ "$(wc -l <rows)" = 5 ] ||
        { sed 's/^/    /' rows >&2; return 1; }
}
tcase annotations_are_checked t_annotations_are_checked

ran=0
skipped=0
if [ -f "$BLOCKS/blocks.tsv" ]; then
    tab=$(printf '\t')
    while IFS="$tab" read -r page line state script reason; do
        if [ -n "${DOCS_PAGES:-}" ]; then # DOCS_PAGES="README.md docs/sgt.md": those pages only
            case " $DOCS_PAGES " in *" $page "*) ;; *) continue ;; esac
        fi
        B_NAME="$page:$line"
        B_SCRIPT=$script
        B_REASON=$reason
        case $state in
        run)
            B_DIR=$(page_dir "$page")
            ran=$((ran + 1))
            tcase "$B_NAME" run_block
            ;;
        skip)
            skipped=$((skipped + 1))
            tcase "$B_NAME" skip_block
            ;;
        *) tcase "$B_NAME" bad_block ;;
        esac
    done <"$BLOCKS/blocks.tsv"
fi
echo "docs: $ran blocks run, $skipped skipped"
tsummary
