/* The fuzz driver: deterministic mutations of seed inputs fed to each harness (fuzz.h).
 *
 *   cs_fuzz [--iterations N] [--seed S] [--repo DIR] [--crashes DIR] [HARNESS...]
 *   cs_fuzz --replay HARNESS FILE
 *
 * For each harness: every file of tests/fuzz/regressions/HARNESS/ (inputs that once failed) and
 * of tests/fuzz/corpus/HARNESS/ (small valid inputs) is run as it is, then N mutated inputs. The
 * count N is fixed and input i depends only on the seed, the harness and i, so a run does the
 * same work on any machine and a finding is found again by the same command.
 *
 * Inputs run in batches, each in a child process; a batch ends with the leak checker. A crash, a
 * sanitizer report or a hang ends the child, and the parent writes the input it was running
 * (made again from its index) to CRASHES/HARNESS-ITERATION.bin and prints its name. A batch that
 * leaked is run again one input at a time (each in its own child) to find the input that leaks,
 * saved the same way. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#include <sanitizer/lsan_interface.h>
#define FUZZ_HAVE_SANITIZERS 1
#else
#define FUZZ_HAVE_SANITIZERS 0
#endif

#define FUZZ_MAX_INPUT (64 * 1024) /* mutated inputs are cut here: long enough for long lines */
#define BATCH          256         /* inputs per child process and leak check */
#define MAX_SEEDS      64
#define INPUT_SECS     20 /* an input that takes longer is a hang, saved like a crash */

typedef struct {
    const char *name;
    int (*fn)(const uint8_t *, size_t);
} harness;

static const harness harnesses[] = {
    {"params", fuzz_params},
    {"wf_config", fuzz_wf_config},
    {"sites", fuzz_sites},
    {"faults", fuzz_faults},
    {"traces", fuzz_traces},
    {"geometry", fuzz_geometry},
    {"geometry_name", fuzz_geometry_name},
    {"area", fuzz_area},
    {"srf", fuzz_srf},
    {"fk1d", fuzz_fk1d},
    {"depth_table", fuzz_depth_table},
    {"ucvm1d", fuzz_ucvm1d},
    {"points", fuzz_points},
    {"stf", fuzz_stf},
    {"model_hdf5", fuzz_model_hdf5},
    {"material", fuzz_material},
    {"sgt_set", fuzz_sgt_set},
};
#define NHARNESS (sizeof harnesses / sizeof *harnesses)

typedef struct {
    uint8_t *data;
    size_t size;
} blob;

static char repo[4096] = ".";
static char scratch[4096];
static char crash_dir[4096] = "build/fuzz/crashes";

/* The input being run, for the death callback and the hang alarm. */
static const harness *current_harness;
static const uint8_t *current_data;
static size_t current_size;
static char current_label[64];
/* Shared with the parent: the input the child is running, so that the parent can save it
 * whatever ended the child (a sanitizer report, a signal, the hang alarm). */
static volatile long *running;

/* The sanitizers' settings, built in so that a replay anywhere behaves as the run did: an
 * allocation over 512 MB fails as out of memory (the parser must say so) instead of ending the
 * run; the leak checker runs at the end of each batch (fuzz_main's own calls). */
#if FUZZ_HAVE_SANITIZERS
const char *__asan_default_options(void);
const char *__asan_default_options(void) {
    return "allocator_may_return_null=1:max_allocation_size_mb=512:detect_leaks=1:"
           "print_summary=1:handle_abort=1";
}
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void) {
    return "print_stacktrace=1:halt_on_error=1";
}
#endif

/* ---- helpers the harnesses use ---- */

const char *fuzz_scratch(void) {
    return scratch;
}

const char *fuzz_file(const char *name, const uint8_t *data, size_t size) {
    static char path[4200];
    snprintf(path, sizeof path, "%s/%s", scratch, name);
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size)) {
        fprintf(stderr, "fuzz: cannot write %s: %s\n", path, strerror(errno));
        abort();
    }
    fclose(f);
    return path;
}

const char *fuzz_repo_path(const char *relative) {
    static char path[4200];
    snprintf(path, sizeof path, "%s/%s", repo, relative);
    return path;
}

void fuzz_check_error(const char *name, int rc, const cs_error *err) {
    if (rc == 0) return;
    /* some readers return -1 rather than the status; what the caller reads is err */
    if (err->status == CS_OK || !err->message[0]) {
        fprintf(stderr, "fuzz_%s: a failure without a proper report: rc %d, status %d, '%s'\n",
                name, rc, (int)err->status, err->message);
        abort();
    }
}

/* ---- deterministic randomness: splitmix64 ---- */

typedef struct {
    uint64_t s;
} rng;

static uint64_t next(rng *r) {
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static size_t below(rng *r, size_t n) {
    return n ? (size_t)(next(r) % n) : 0;
}

static uint64_t hash_name(const char *s) {
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 1099511628211ULL;
    return h;
}

/* ---- the mutator ---- */

static const char *interesting[] = {"1e308",
                                    "-1e308",
                                    "1e309",
                                    "-0",
                                    "0",
                                    "nan",
                                    "NaN",
                                    "-nan",
                                    "inf",
                                    "-inf",
                                    "Infinity",
                                    "99999999999999999999",
                                    "-99999999999999999999",
                                    "9223372036854775807",
                                    "9223372036854775808",
                                    "-9223372036854775809",
                                    "2147483647",
                                    "2147483648",
                                    "-2147483649",
                                    "4294967296",
                                    "1e-320",
                                    "4.9e-324",
                                    "-1",
                                    "1",
                                    "0x10",
                                    "+3",
                                    "1e",
                                    "1..2",
                                    "1_000",
                                    "",
                                    " ",
                                    "\"",
                                    "\"\"",
                                    "#",
                                    "=",
                                    ",",
                                    "%s%n",
                                    "0.000000000000000000000000000001"};
#define NINTERESTING (sizeof interesting / sizeof *interesting)
static const char separators[] = ",;= \t\n\r\"#";

static int is_number_char(uint8_t c) {
    return (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E';
}

/* Replaces [at, at + n) of the buffer by the bytes of s (len m), within FUZZ_MAX_INPUT. */
static void splice_in(uint8_t *buf, size_t *len, size_t at, size_t n, const void *s, size_t m) {
    if (at > *len) at = *len;
    if (n > *len - at) n = *len - at;
    if (*len - n + m > FUZZ_MAX_INPUT) m = FUZZ_MAX_INPUT - (*len - n);
    memmove(buf + at + m, buf + at + n, *len - at - n);
    memcpy(buf + at, s, m);
    *len = *len - n + m;
}

/* A position in the buffer at one of the given bytes, or len when there is none. */
static size_t find_byte(rng *r, const uint8_t *buf, size_t len, const char *set) {
    if (!len) return 0;
    size_t start = below(r, len);
    for (size_t k = 0; k < len; k++) {
        size_t i = (start + k) % len;
        if (strchr(set, buf[i]) && buf[i]) return i;
    }
    return len;
}

static void line_bounds(const uint8_t *buf, size_t len, size_t at, size_t *a, size_t *b) {
    *a = at;
    while (*a > 0 && buf[*a - 1] != '\n')
        (*a)--;
    *b = at;
    while (*b < len && buf[*b] != '\n')
        (*b)++;
    if (*b < len) (*b)++; /* with its newline */
}

static void mutate_once(rng *r, uint8_t *buf, size_t *len, const blob *seeds, int nseeds) {
    size_t at = below(r, *len + 1);
    switch (below(r, 15)) {
    case 0: /* bit flip */
        if (*len) buf[below(r, *len)] ^= (uint8_t)(1u << below(r, 8));
        break;
    case 1: { /* a byte set to a separator or a random byte */
        if (!*len) break;
        size_t i = below(r, *len);
        buf[i] =
            below(r, 2) ? (uint8_t)separators[below(r, sizeof separators - 1)] : (uint8_t)next(r);
        break;
    }
    case 2: { /* bytes inserted */
        uint8_t b[8];
        size_t n = 1 + below(r, sizeof b);
        for (size_t k = 0; k < n; k++)
            b[k] = (uint8_t)next(r);
        splice_in(buf, len, at, 0, b, n);
        break;
    }
    case 3: /* a range deleted */
        splice_in(buf, len, at, 1 + below(r, 16), "", 0);
        break;
    case 4: { /* a number replaced by an interesting one */
        size_t i = find_byte(r, buf, *len, "0123456789");
        if (i == *len) break;
        size_t a = i, b = i;
        while (a > 0 && is_number_char(buf[a - 1]))
            a--;
        while (b < *len && is_number_char(buf[b]))
            b++;
        const char *s = interesting[below(r, NINTERESTING)];
        splice_in(buf, len, a, b - a, s, strlen(s));
        break;
    }
    case 5: { /* an interesting number inserted */
        const char *s = interesting[below(r, NINTERESTING)];
        splice_in(buf, len, at, 0, s, strlen(s));
        break;
    }
    case 6: { /* a long run: a long line, a long field, a long number */
        static uint8_t run[8192];
        size_t n = 256 + below(r, sizeof run - 256);
        memset(run, below(r, 2) ? '9' : 'A', n);
        splice_in(buf, len, at, 0, run, n);
        break;
    }
    case 7: /* a NUL byte */
        splice_in(buf, len, at, 0, "", 1);
        break;
    case 8: { /* a separator removed */
        size_t i = find_byte(r, buf, *len, separators);
        if (i < *len) splice_in(buf, len, i, 1, "", 0);
        break;
    }
    case 9: { /* a separator doubled, or one added */
        size_t i = find_byte(r, buf, *len, separators);
        if (i < *len)
            splice_in(buf, len, i, 0, &buf[i], 1);
        else
            splice_in(buf, len, at, 0, &separators[below(r, sizeof separators - 1)], 1);
        break;
    }
    case 10: { /* a line repeated elsewhere */
        if (!*len) break;
        size_t a, b;
        line_bounds(buf, *len, below(r, *len), &a, &b);
        uint8_t copy[4096];
        size_t n = b - a < sizeof copy ? b - a : sizeof copy;
        memcpy(copy, buf + a, n);
        size_t to, dummy;
        line_bounds(buf, *len, below(r, *len + 1), &to, &dummy);
        splice_in(buf, len, to, 0, copy, n);
        break;
    }
    case 11: { /* a line removed */
        if (!*len) break;
        size_t a, b;
        line_bounds(buf, *len, below(r, *len), &a, &b);
        splice_in(buf, len, a, b - a, "", 0);
        break;
    }
    case 12: { /* spliced with another seed: this one's head, the other's tail */
        if (!nseeds) break;
        const blob *o = &seeds[below(r, (size_t)nseeds)];
        size_t from = below(r, o->size + 1);
        *len = at;
        splice_in(buf, len, at, 0, o->data + from, o->size - from);
        break;
    }
    case 13: /* cut short */
        *len = at;
        break;
    case 14: { /* a range copied over another place */
        if (*len < 2) break;
        size_t from = below(r, *len), n = 1 + below(r, 32);
        if (n > *len - from) n = *len - from;
        uint8_t copy[32];
        memcpy(copy, buf + from, n);
        splice_in(buf, len, at, below(r, 2) ? n : 0, copy, n);
        break;
    }
    }
}

/* Input `iteration` of a harness: a seed with 1 to 8 mutations, from (seed, harness, i) alone. */
static size_t make_input(uint64_t seed, const harness *h, long iteration, const blob *seeds,
                         int nseeds, uint8_t *buf) {
    rng r = {seed ^ hash_name(h->name) ^ ((uint64_t)iteration * 0xd1b54a32d192ed03ULL)};
    next(&r);
    size_t len = 0;
    if (nseeds) {
        const blob *s = &seeds[below(&r, (size_t)nseeds)];
        len = s->size < FUZZ_MAX_INPUT ? s->size : FUZZ_MAX_INPUT;
        memcpy(buf, s->data, len);
    }
    int n = 1 + (int)below(&r, 8);
    for (int k = 0; k < n; k++)
        mutate_once(&r, buf, &len, seeds, nseeds);
    return len;
}

/* ---- corpora ---- */

static int by_name(const struct dirent **a, const struct dirent **b) {
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int load_dir(const char *dir, blob *out, int max, char names[][256]) {
    struct dirent **list;
    int n = scandir(dir, &list, NULL, by_name), got = 0;
    for (int i = 0; i < n; i++) {
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, list[i]->d_name);
        struct stat st;
        if (got < max && list[i]->d_name[0] != '.' && !stat(path, &st) && S_ISREG(st.st_mode)) {
            FILE *f = fopen(path, "rb");
            out[got].size = (size_t)st.st_size;
            out[got].data = malloc(out[got].size + 1);
            if (!f || !out[got].data ||
                fread(out[got].data, 1, out[got].size, f) != out[got].size) {
                fprintf(stderr, "fuzz: cannot read %s\n", path);
                exit(2);
            }
            fclose(f);
            if (names) snprintf(names[got], 256, "%s", list[i]->d_name);
            got++;
        }
        free(list[i]);
    }
    if (n > 0) free(list);
    return got;
}

/* ---- running inputs ---- */

static void save_current(const char *why) {
    char path[4400];
    snprintf(path, sizeof path, "%s/%s-%s.bin", crash_dir, current_harness->name, current_label);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        size_t done = 0;
        while (done < current_size) {
            ssize_t w = write(fd, current_data + done, current_size - done);
            if (w <= 0) break;
            done += (size_t)w;
        }
        close(fd);
    }
    dprintf(2, "fuzz_%s: %s on input %s; saved to %s (replay: cs_fuzz --replay %s %s)\n",
            current_harness->name, why, current_label, path, current_harness->name, path);
}

static void on_alarm(int sig) {
    (void)sig;
    _exit(3);
}

void fuzz_stop_clock(void) {
    alarm(0);
}

void fuzz_restart_clock(void) {
    if (current_data) alarm(INPUT_SECS);
}

static void run_one(const harness *h, const char *label, const uint8_t *data, size_t size) {
    current_harness = h;
    current_data = data;
    current_size = size;
    snprintf(current_label, sizeof current_label, "%s", label);
    alarm(INPUT_SECS);
    h->fn(data, size);
    alarm(0);
    current_data = NULL;
}

/* Leak check of this process; 1 when something leaked. */
static int leaked(void) {
#if FUZZ_HAVE_SANITIZERS
    return __lsan_do_recoverable_leak_check() != 0;
#else
    return 0;
#endif
}

typedef struct {
    const harness *h;
    uint64_t seed;
    const blob *fixed; /* regressions, then seeds: run as they are */
    char (*fixed_names)[256];
    int nfixed;
    const blob *seeds;
    int nseeds;
} plan;

/* Runs inputs [from, to) of the plan (fixed inputs first, then mutations) in a child; with
 * `each`, a leak check after every input. Returns 0 clean, 1 crash, 2 leak (leak_at set). */
/* Input i of a plan: a regression or seed as stored, or mutation i - nfixed made into buf; its
 * label (the file's name or the mutation's number) goes into label. */
static const uint8_t *input_of(const plan *p, long i, uint8_t *buf, char *label, size_t lsize,
                               size_t *size) {
    if (i < p->nfixed) {
        snprintf(label, lsize, "%.40s", p->fixed_names[i]);
        *size = p->fixed[i].size;
        return p->fixed[i].data;
    }
    snprintf(label, lsize, "%ld", i - p->nfixed);
    *size = make_input(p->seed, p->h, i - p->nfixed, p->seeds, p->nseeds, buf);
    return buf;
}

static int run_batch(const plan *p, long from, long to, int each, long *leak_at) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fuzz: fork");
        exit(2);
    }
    if (pid == 0) {
        uint8_t *buf = malloc(FUZZ_MAX_INPUT);
        for (long i = from; i < to; i++) {
            char label[64];
            size_t size;
            const uint8_t *data = input_of(p, i, buf, label, sizeof label, &size);
            *running = i;
            run_one(p->h, label, data, size);
            if (each && leaked()) _exit(4);
        }
        free(buf);
        _exit(leaked() ? 5 : 0);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return 0;
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 5)) { /* the input that ended the child */
        static uint8_t buf[FUZZ_MAX_INPUT];
        long i = *running;
        current_harness = p->h;
        current_data = input_of(p, i, buf, current_label, sizeof current_label, &current_size);
        int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        save_current(code == 3 ? "hang" : code == 4 ? "leak" : "crash");
        current_data = NULL;
        if (code == 4) *leak_at = i;
        return code == 4 ? 2 : 1;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 5) {
        /* which input leaked: the batch again, one leak check after each */
        for (long i = from; i < to; i++)
            if (run_batch(p, i, i + 1, 1, leak_at) != 0) return 2;
        fprintf(stderr, "fuzz_%s: a batch leaked but no single input did\n", p->h->name);
        return 2;
    }
    return 1;
}

static int fuzz_harness(const harness *h, long iterations, uint64_t seed) {
    static blob fixed[2 * MAX_SEEDS];
    static char fixed_names[2 * MAX_SEEDS][256];
    char dir[4400];
    snprintf(dir, sizeof dir, "%s/tests/fuzz/regressions/%s", repo, h->name);
    int nreg = load_dir(dir, fixed, MAX_SEEDS, fixed_names);
    snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus/%s", repo, h->name);
    int nseed = load_dir(dir, fixed + nreg, MAX_SEEDS, fixed_names + nreg);
    plan p = {h, seed, fixed, fixed_names, nreg + nseed, fixed + nreg, nseed};
    long total = p.nfixed + iterations, crashes = 0;
    for (long from = 0; from < total && !crashes; from += BATCH) {
        long to = from + BATCH < total ? from + BATCH : total, leak_at = -1;
        if (run_batch(&p, from, to, 0, &leak_at)) crashes++;
    }
    printf("fuzz_%s: %ld inputs (%d regressions, %d seeds, %ld mutations), %ld crashes\n", h->name,
           total, nreg, nseed, iterations, crashes);
    fflush(stdout);
    for (int i = 0; i < p.nfixed; i++)
        free(fixed[i].data);
    return crashes ? 1 : 0;
}

static void remove_scratch(void) {
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
    if (system(cmd)) fprintf(stderr, "fuzz: could not remove %s\n", scratch);
}

static const harness *find_harness(const char *name) {
    const char *n = strncmp(name, "fuzz_", 5) ? name : name + 5;
    for (size_t i = 0; i < NHARNESS; i++)
        if (!strcmp(harnesses[i].name, n)) return &harnesses[i];
    fprintf(stderr, "fuzz: no harness '%s'; the harnesses:", name);
    for (size_t i = 0; i < NHARNESS; i++)
        fprintf(stderr, " %s", harnesses[i].name);
    fprintf(stderr, "\n");
    exit(2);
}

int main(int argc, char **argv) {
    long iterations = 1000;
    uint64_t seed = 1;
    const char *replay = NULL;
    int first = 1;
    for (; first < argc && argv[first][0] == '-'; first++) {
        const char *a = argv[first];
        const char *v = first + 1 < argc ? argv[first + 1] : NULL;
        if (!strcmp(a, "--iterations") && v)
            iterations = atol(v), first++;
        else if (!strcmp(a, "--seed") && v)
            seed = strtoull(v, NULL, 10), first++;
        else if (!strcmp(a, "--repo") && v)
            snprintf(repo, sizeof repo, "%s", v), first++;
        else if (!strcmp(a, "--crashes") && v)
            snprintf(crash_dir, sizeof crash_dir, "%s", v), first++;
        else if (!strcmp(a, "--replay") && v)
            replay = v, first++;
        else {
            fprintf(stderr,
                    "usage: cs_fuzz [--iterations N] [--seed S] [--repo DIR] [--crashes DIR] "
                    "[HARNESS...]\n       cs_fuzz --replay HARNESS FILE\n");
            return 2;
        }
    }
    if (iterations < 0) iterations = 0;
    const char *tmp = getenv("TMPDIR");
    snprintf(scratch, sizeof scratch, "%s/cs_fuzz.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(scratch)) {
        perror("fuzz: mkdtemp");
        return 2;
    }
    atexit(remove_scratch);
    mkdir(crash_dir, 0755);
    signal(SIGALRM, on_alarm);
    running =
        mmap(NULL, sizeof *running, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (running == MAP_FAILED) {
        perror("fuzz: mmap");
        return 2;
    }
    *running = -1;
    if (replay) {
        if (first >= argc) return fprintf(stderr, "fuzz: --replay HARNESS FILE\n"), 2;
        const harness *h = find_harness(replay);
        FILE *f = fopen(argv[first], "rb");
        if (!f) return perror(argv[first]), 2;
        static uint8_t buf[1 << 24];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        run_one(h, "replay", buf, n);
        printf("fuzz_%s: %s ran to its end\n", h->name, argv[first]);
        return leaked() ? 1 : 0;
    }
    int failed = 0;
    if (first == argc)
        for (size_t i = 0; i < NHARNESS; i++)
            failed |= fuzz_harness(&harnesses[i], iterations, seed);
    for (int i = first; i < argc; i++)
        failed |= fuzz_harness(find_harness(argv[i]), iterations, seed);
    return failed;
}
