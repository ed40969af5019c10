#!/bin/sh
# The field's own clients that some tests use as independent checks (ObsPy reading the toolkit's
# SAC files; netCDF4, Unidata's netCDF-C library, reading the basemap's NetCDF grid), from PyPI
# into build/venv-clients (over Debian's numpy and scipy). The toolkit does
# not depend on them; a test whose client is missing reports itself skipped, never passed.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
venv="$here/build/venv-clients"
[ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv --system-site-packages "$venv" || exit 0
"$venv/bin/python" -c "import obspy" 2>/dev/null ||
    "$venv/bin/pip" install -q --disable-pip-version-check "obspy==1.5.1" ||
    echo "install-test-clients: ObsPy could not be installed (no network?); its checks will be skipped" >&2
"$venv/bin/python" -c "import netCDF4" 2>/dev/null ||
    "$venv/bin/pip" install -q --disable-pip-version-check "netCDF4==1.7.5.1.post1" ||
    echo "install-test-clients: netCDF4 could not be installed (no network?); its checks will be skipped" >&2
exit 0
