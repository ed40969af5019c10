/* Runner of the unit tests: `cs_unit_tests [PATTERN...]` runs the tests whose name contains one
 * of the patterns (all by default). */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tf.h"

typedef struct {
    const char *name, *file;
    void (*fn)(void);
} tf_test;

static tf_test tests[1024];
static int ntests;
static int cur_failed, cur_skipped;
static char cur_msg[2048];
static char cur_tmp[512];
static char repo[4096];

void tf_register(const char *name, const char *file, void (*fn)(void)) {
    if (ntests < 1024) tests[ntests++] = (tf_test){name, file, fn};
}

void tf_fail(const char *file, int line, const char *fmt, ...) {
    if (cur_failed) return;
    cur_failed = 1;
    int n = snprintf(cur_msg, sizeof cur_msg, "%s:%d: ", file, line);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cur_msg + n, sizeof cur_msg - (size_t)n, fmt, ap);
    va_end(ap);
}

void tf_skip(const char *reason) {
    cur_skipped = 1;
    snprintf(cur_msg, sizeof cur_msg, "%s", reason);
}

int tf_failed(void) {
    return cur_failed;
}

const char *tf_tmpdir(void) {
    if (!cur_tmp[0]) {
        snprintf(cur_tmp, sizeof cur_tmp, "%s/cs_test.XXXXXX",
                 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        if (!mkdtemp(cur_tmp)) {
            perror("mkdtemp");
            exit(3);
        }
    }
    return cur_tmp;
}

const char *tf_path(const char *name) {
    static char bufs[8][1024];
    static int k;
    char *b = bufs[k++ % 8];
    snprintf(b, 1024, "%s/%s", tf_tmpdir(), name);
    return b;
}

const char *tf_repo(void) {
    return repo;
}

static void remove_tree(const char *path) {
    DIR *d = opendir(path);
    if (!d) {
        unlink(path);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", path, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            remove_tree(p);
        else
            unlink(p);
    }
    closedir(d);
    rmdir(path);
}

int main(int argc, char **argv) {
    const char *r = getenv("CS_REPO");
    snprintf(repo, sizeof repo, "%s", r ? r : ".");
    int passed = 0, failed = 0, skipped = 0;
    for (int i = 0; i < ntests; i++) {
        int selected = argc < 2;
        for (int a = 1; a < argc; a++)
            if (strstr(tests[i].name, argv[a])) selected = 1;
        if (!selected) continue;
        cur_failed = cur_skipped = 0;
        cur_msg[0] = cur_tmp[0] = '\0';
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        tests[i].fn();
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double dt = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        if (cur_failed) {
            failed++;
            printf("FAIL %s (%.2fs): %s\n", tests[i].name, dt, cur_msg);
            if (cur_tmp[0]) printf("     files kept in %s\n", cur_tmp);
        } else if (cur_skipped) {
            skipped++;
            printf("skip %s: %s\n", tests[i].name, cur_msg);
        } else {
            passed++;
            printf("ok   %s (%.2fs)\n", tests[i].name, dt);
        }
        fflush(stdout);
        if (!cur_failed && cur_tmp[0]) remove_tree(cur_tmp);
    }
    printf("TESTSUMMARY passed=%d failed=%d skipped=%d\n", passed, failed, skipped);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
