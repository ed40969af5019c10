#!/bin/sh
# The toolkit's libraries for a machine that lacks them and has no package manager (the GPU
# machines: CUDA, Open MPI and serial HDF5 only), as Debian 12 packages unpacked into a folder.
#
#   sh bench/deps_prefix.sh download DEBS     here (Debian 12, network): the .deb files into DEBS
#   sh bench/deps_prefix.sh unpack DEBS DIR   there: unpack them into DIR (never into /)
#   make DEPS_PREFIX=DIR all                  there: the whole toolkit against DIR
#   export PROJ_DATA=DIR/usr/share/proj       there: where PROJ finds its database
#
# The list is the runtime closure of SQLite, libcurl, PROJ, FFTW, cairo and OpenSSL on Debian 12
# (apt-cache depends --recurse --no-recommends ...), less the C library and the compiler's
# runtime (the host's own must be used) and fonts beyond DejaVu, plus the sqlite3 shell, and the
# -dev packages for headers and link names. About 27 MB.
set -eu

RUNTIME="libsqlite3-0 libfftw3-double3 libproj25 proj-data libcurl4 libcairo2 libssl3
fontconfig-config fonts-dejavu-core libbrotli1 libbsd0 libcom-err2 libdb5.3 libdeflate0 libexpat1
libffi8 libfontconfig1 libfreetype6 libgmp10 libgnutls30 libgssapi-krb5-2 libhogweed6 libidn2-0
libjbig0 libjpeg62-turbo libk5crypto3 libkeyutils1 libkrb5-3 libkrb5support0 libldap-2.5-0
liblerc4 libmd0 libnettle8 libnghttp2-14 libp11-kit0 libpixman-1-0 libpng16-16 libpsl5 librtmp1
libsasl2-2 libsasl2-modules-db libssh2-1 libtasn1-6 libtiff6 libunistring2 libwebp7 libx11-6
libx11-data libxau6 libxcb-render0 libxcb-shm0 libxcb1 libxdmcp6 libxext6 libxrender1
sqlite3 libreadline8 readline-common libtinfo6"
DEV="libsqlite3-dev libfftw3-dev libproj-dev libcurl4-openssl-dev libcairo2-dev libssl-dev"

case "${1:-}" in
download)
    dest=${2:?usage: deps_prefix.sh download DEBS}
    mkdir -p "$dest"
    # shellcheck disable=SC2086 # the lists are words
    (cd "$dest" && apt-get download $RUNTIME $DEV)
    echo "$(ls "$dest"/*.deb | wc -l) packages, $(du -sh "$dest" | cut -f1) in $dest"
    ;;
unpack)
    debs=${2:?usage: deps_prefix.sh unpack DEBS DIR}
    dir=${3:?usage: deps_prefix.sh unpack DEBS DIR}
    case "$dir" in /) echo "refusing to unpack into /" >&2; exit 2 ;; esac
    mkdir -p "$dir"
    for f in "$debs"/*.deb; do dpkg -x "$f" "$dir"; done
    # Absolute links inside the packages (e.g. a .so pointing to /usr/lib/...) would reach the
    # host's files: point them into the folder.
    find "$dir" -type l | while read -r l; do
        t=$(readlink "$l")
        case "$t" in /*) ln -sfn "$dir$t" "$l" ;; esac
    done
    # The sqlite3 shell (scripts and the demo use it) runs through a wrapper that points it at
    # the folder's libraries; the toolkit's programs carry their run path themselves.
    mkdir -p "$dir/bin"
    printf '#!/bin/sh\nLD_LIBRARY_PATH="%s/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "%s/usr/bin/sqlite3" "$@"\n' \
        "$dir" "$dir" >"$dir/bin/sqlite3"
    chmod +x "$dir/bin/sqlite3"
    echo "unpacked $(ls "$debs"/*.deb | wc -l) packages into $dir (put $dir/bin on PATH for sqlite3)"
    ;;
*)
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
