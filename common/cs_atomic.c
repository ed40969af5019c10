#include "cs_atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cs_fault.h"
#include "cs_strutil.h"

/* 0, or -1 when a part does not fit (the callers name the path and the rule). */
static int split_path(const char *path, char *dir, size_t dsize, char *base, size_t bsize) {
    char a[4096], b[4096];
    if (cs_copy(a, sizeof a, path) || cs_copy(b, sizeof b, path)) return -1;
    if (cs_copy(dir, dsize, dirname(a)) || cs_copy(base, bsize, basename(b))) return -1;
    return 0;
}

int cs_atomic_reserve(const char *path, char *tmp, size_t tmp_size, cs_error *err) {
    char dir[4096], base[1024];
    if (split_path(path, dir, sizeof dir, base, sizeof base))
        return cs_error_input(err, path, NULL, NULL, "path too long");
    int n = snprintf(tmp, tmp_size, "%s/.%s.tmp.XXXXXX", dir, base);
    if (n < 0 || (size_t)n >= tmp_size)
        return cs_error_input(err, path, NULL, NULL, "path too long");
    int fd = mkstemp(tmp);
    if (fd < 0) return cs_error_errno(err, tmp, "create temporary file");
    close(fd);
    return 0;
}

static int sync_dir_of(const char *path, cs_error *err) {
    char dir[4096], base[1024];
    if (split_path(path, dir, sizeof dir, base, sizeof base)) return 0;
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd < 0) return cs_error_errno(err, dir, "open folder to sync");
    int rc = fsync(fd);
    /* Some file systems refuse fsync on folders; the rename is still atomic there. */
    if (rc != 0 && errno != EINVAL && errno != ENOTSUP) {
        cs_error_errno(err, dir, "sync folder");
        close(fd);
        return CS_ERR_IO;
    }
    close(fd);
    return 0;
}

int cs_atomic_publish(const char *tmp, const char *path, char sha[CS_SHA256_HEX], cs_error *err) {
    int fd = open(tmp, O_RDONLY);
    if (fd < 0) return cs_error_errno(err, tmp, "open temporary file to sync");
    if (fsync(fd) != 0) {
        cs_error_errno(err, tmp, "sync temporary file");
        close(fd);
        return CS_ERR_IO;
    }
    close(fd);
    if (sha) CS_CALL(err, cs_sha256_file(tmp, sha, err));
    /* mkstemp makes 0600 files; outputs are ordinary files readable like any other. */
    mode_t um = umask(0);
    umask(um);
    chmod(tmp, 0666 & ~um);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    cs_fault_point2("file-before-rename", base);
    if (rename(tmp, path) != 0) return cs_error_errno(err, path, "rename temporary file to");
    cs_fault_point2("file-renamed", base);
    return sync_dir_of(path, err);
}

int cs_atomic_open(cs_atomic_file *a, const char *path, cs_error *err) {
    memset(a, 0, sizeof *a);
    if (cs_copy(a->final_path, sizeof a->final_path, path))
        return cs_error_input(err, path, NULL, NULL, "path too long");
    CS_CALL(err, cs_atomic_reserve(path, a->tmp_path, sizeof a->tmp_path, err));
    a->f = fopen(a->tmp_path, "wb");
    if (!a->f) {
        cs_error_errno(err, a->tmp_path, "open temporary file");
        unlink(a->tmp_path);
        a->tmp_path[0] = '\0';
        return CS_ERR_IO;
    }
    return 0;
}

int cs_atomic_commit(cs_atomic_file *a, char sha[CS_SHA256_HEX], cs_error *err) {
    if (!a->f) return cs_error_set(err, CS_ERR_INTERNAL, "%s: not open", a->final_path);
    int bad = ferror(a->f);
    if (fflush(a->f) != 0) bad = 1;
    if (fsync(fileno(a->f)) != 0) bad = 1;
    if (fclose(a->f) != 0) bad = 1;
    a->f = NULL;
    if (bad) {
        cs_error_errno(err, a->tmp_path, "write");
        cs_atomic_abort(a);
        return CS_ERR_IO;
    }
    int rc;
    CS_CALL_GOTO(rc, err, cs_atomic_publish(a->tmp_path, a->final_path, sha, err), fail);
    a->tmp_path[0] = '\0';
    return 0;
fail:
    cs_atomic_abort(a);
    return rc;
}

void cs_atomic_abort(cs_atomic_file *a) {
    if (a->f) {
        fclose(a->f);
        a->f = NULL;
    }
    if (a->tmp_path[0]) {
        unlink(a->tmp_path);
        a->tmp_path[0] = '\0';
    }
}

int cs_atomic_write_file(const char *path, const void *data, size_t n, char sha[CS_SHA256_HEX],
                         cs_error *err) {
    cs_atomic_file a;
    CS_CALL(err, cs_atomic_open(&a, path, err));

    if (n && fwrite(data, 1, n, a.f) != n) {
        cs_error_errno(err, a.tmp_path, "write");
        cs_atomic_abort(&a);
        return CS_ERR_IO;
    }
    return cs_atomic_commit(&a, sha, err);
}

long long cs_file_size(const char *path) {
    struct stat st;
    return stat(path, &st) ? -1 : (long long)st.st_size;
}
