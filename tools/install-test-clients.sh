#!/bin/sh
# The field's own clients that some tests use as independent checks (ObsPy reading the toolkit's
# SAC files), from PyPI into build/venv-clients (over Debian's numpy and scipy). The toolkit does
# not depend on them; a test whose client is missing reports itself skipped, never passed.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
venv="$here/build/venv-clients"
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import obspy" 2>/dev/null; then exit 0; fi
/usr/bin/python3 -m venv --system-site-packages "$venv" &&
    "$venv/bin/pip" install -q --disable-pip-version-check "obspy==1.5.1" ||
    echo "install-test-clients: ObsPy could not be installed (no network?); its checks will be skipped" >&2
exit 0
