#include "wf_exec.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cs_progress.h"
#include "cs_strutil.h"

int wf_spawn(char *const *argv, const char *log_path, const char *gpus, pid_t *pid, cs_error *err) {
    int fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return cs_error_errno(err, log_path, "cannot open the step's log");
    pid_t parent = getpid();
    pid_t p = fork();
    if (p < 0) {
        close(fd);
        return cs_error_errno(err, argv[0], "cannot fork");
    }
    if (p == 0) {
        setpgid(0, 0);
        /* If the workflow dies (kill -9), so does the step; a resumed run starts it again. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(127);
        dup2(fd, 1);
        dup2(fd, 2);
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0) dup2(devnull, 0);
        if (gpus && *gpus) setenv("CUDA_VISIBLE_DEVICES", gpus, 1);
        execvp(argv[0], argv);
        dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(p, p);
    close(fd);
    *pid = p;
    return 0;
}

/* Echoes the progress lines added to the log since *offset. */
static void echo_progress(const char *log, long *offset) {
    FILE *f = fopen(log, "r");
    if (!f) return;
    if (fseek(f, *offset, SEEK_SET)) {
        fclose(f);
        return;
    }
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        size_t n = strlen(line);
        if (n == 0 || line[n - 1] != '\n') break; /* a line still being written */
        *offset += (long)n;
        if (strstr(line, "%)") && strstr(line, " left")) {
            const char *t = strstr(line, ": ");
            printf("    %s", t ? t + 2 : line);
            fflush(stdout);
        }
    }
    fclose(f);
}

int wf_wait(pid_t pid, const char *follow_log, int *status, cs_error *err) {
    int st = 0;
    pid_t r;
    long offset = 0;
    if (follow_log) {
        FILE *f = fopen(follow_log, "r");
        if (f && !fseek(f, 0, SEEK_END)) offset = ftell(f);
        if (f) fclose(f);
    }
    for (;;) {
        r = waitpid(pid, &st, follow_log ? WNOHANG : 0);
        if (r < 0 && errno == EINTR) continue;
        if (r != 0) break;
        echo_progress(follow_log, &offset);
        cs_sleep(0.25);
    }
    if (follow_log) echo_progress(follow_log, &offset);
    kill(-pid, SIGKILL);
    if (r < 0) return cs_error_errno(err, "waitpid", "cannot wait for a step");
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    return 0;
}

int wf_capture(char *const *argv, char *out, size_t size, int *status, cs_error *err) {
    int fds[2];
    if (pipe(fds)) return cs_error_errno(err, argv[0], "cannot create a pipe");
    pid_t p = fork();
    if (p < 0) {
        close(fds[0]);
        close(fds[1]);
        return cs_error_errno(err, argv[0], "cannot fork");
    }
    if (p == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        execvp(argv[0], argv);
        dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    size_t n = 0;
    ssize_t k;
    char sink[4096];
    while ((k = read(fds[0], n + 1 < size ? out + n : sink,
                     n + 1 < size ? size - 1 - n : sizeof sink)) != 0) {
        if (k < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (n + 1 < size) n += (size_t)k;
    }
    out[n] = 0;
    close(fds[0]);
    int st;
    while (waitpid(p, &st, 0) < 0 && errno == EINTR) {
    }
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
    return 0;
}

void wf_process_identity(pid_t pid, char *out, size_t size) {
    out[0] = 0;
    char path[64], stat[1024], boot[64] = "";
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return;
    size_t n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[n] = 0;
    /* fields after the command name, which may hold spaces and parentheses: state is field 3,
     * starttime field 22 */
    const char *p = strrchr(stat, ')');
    /* a zombie (dead, not yet reaped) is no longer running anything */
    if (!p || p[1] != ' ' || p[2] == 'Z') return;
    unsigned long long ticks = 0;
    int field = 2;
    for (const char *q = p + 1; *q && field < 22; q++)
        if (*q == ' ') {
            field++;
            if (field == 22) ticks = strtoull(q + 1, NULL, 10);
        }
    if (field != 22 || ticks == 0) return;
    f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f) {
        if (!fgets(boot, sizeof boot, f)) boot[0] = 0;
        fclose(f);
    }
    boot[strcspn(boot, "\n")] = 0;
    snprintf(out, size, "%llu@%s", ticks, boot);
}

int wf_kill_stale(pid_t pgid, const char *identity) {
    if (pgid <= 1) return 0;
    if (!identity || !*identity) return -1; /* unknown: an older run's record (wf_exec.h) */
    char now[128];
    wf_process_identity(pgid, now, sizeof now);
    if (!now[0] || strcmp(now, identity)) return 0;
    return kill(-pgid, SIGKILL) == 0;
}

void wf_log_tail(const char *log_path, char *out, size_t size) {
    out[0] = 0;
    FILE *f = fopen(log_path, "r");
    if (!f) return;
    if (fseek(f, -4096, SEEK_END)) rewind(f);
    char *buf = NULL;
    size_t cap = 0;
    char *line;
    while ((line = cs_read_line(f, &buf, &cap))) {
        char *t = cs_trim(line);
        if (*t && !cs_starts_with(t, "== ")) cs_copy(out, size, t);
    }
    free(buf);
    fclose(f);
}
