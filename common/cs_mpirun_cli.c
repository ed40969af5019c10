/* cybershake mpirun -np N [--dry-run] COMMAND [ARGS...] */
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cs_mpirun.h"

static const char *usage =
    "usage: cybershake mpirun -np N [--dry-run] COMMAND [ARGS...]\n"
    "\n"
    "Runs `mpirun -np N cybershake COMMAND ARGS...` with what this machine needs: as root, Open\n"
    "MPI's --allow-run-as-root; with more ranks than cores, --oversubscribe --bind-to none (Open\n"
    "MPI refuses both otherwise) and, unless OMP_NUM_THREADS is set, one OpenMP thread a rank\n"
    "(unbound, each rank would start a thread per core). The launcher is $MPIRUN, else mpirun\n"
    "from the PATH.\n"
    "\n"
    "  -np N, -n N   ranks\n"
    "  --dry-run     print the launcher's command line and run nothing\n"
    "\n"
    "e.g. cybershake mpirun -np 4 sgt run.par --set ranks_x=2\n";

/* The strict whole-number parse of -np's value: 0, or -1 when it is none (the caller says so). */
static int ranks_of(const char *s, int *np) {
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < 1 || v > 1000000) return -1;
    *np = (int)v;
    return 0;
}

int cs_mpirun_cli_main(int argc, char **argv) {
    int np = 0, dry = 0, i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(a, "-np") || !strcmp(a, "-n") || !strcmp(a, "--np")) {
            if (i + 1 >= argc || ranks_of(argv[i + 1], &np)) {
                fprintf(stderr,
                        "cybershake mpirun: %s needs a whole number of ranks from 1, got '%s'\n", a,
                        i + 1 < argc ? argv[i + 1] : "");
                return 2;
            }
            i++;
        } else if (!strcmp(a, "--dry-run")) {
            dry = 1;
        } else if (!strcmp(a, "--")) {
            i++;
            break;
        } else if (a[0] == '-') {
            fprintf(stderr, "cybershake mpirun: unknown option '%s' (see --help)\n", a);
            return 2;
        } else {
            break;
        }
    }
    if (!np || i >= argc) {
        fprintf(stderr, "cybershake mpirun: %s\n%s", np ? "no command given" : "-np N is needed",
                usage);
        return 2;
    }
    cs_mpirun_host h = {getenv("MPIRUN") && *getenv("MPIRUN") ? getenv("MPIRUN") : "mpirun", 0,
                        geteuid() == 0, sysconf(_SC_NPROCESSORS_ONLN)};
#ifdef OPEN_MPI
    h.open_mpi = 1;
#endif
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        fprintf(stderr, "cybershake mpirun: cannot find this program's path (/proc/self/exe)\n");
        return 1;
    }
    self[n] = 0;
    char **v;
    cs_error err;
    cs_error_clear(&err);
    if (cs_mpirun_argv(&h, np, self, argc - i, argv + i, &v, &err)) {
        fprintf(stderr, "cybershake mpirun: %s\n", err.message);
        return 1;
    }
    /* more ranks than cores, unbound: a thread a rank, not a thread a core in every rank (on
     * two cores, four ranks of two threads spent most of their time waiting at barriers) */
    int one_thread = h.open_mpi && np > h.cores && !getenv("OMP_NUM_THREADS");
    if (dry) {
        if (one_thread) printf("OMP_NUM_THREADS=1 ");
        for (char **p = v; *p; p++)
            printf("%s%s", p == v ? "" : " ", *p);
        printf("\n");
        free(v);
        return 0;
    }
    fflush(stdout);
    if (one_thread) setenv("OMP_NUM_THREADS", "1", 1);
    execvp(v[0], v);
    fprintf(stderr,
            "cybershake mpirun: cannot run '%s': %s (install Open MPI, or name the "
            "launcher in MPIRUN)\n",
            v[0], strerror(errno));
    free(v);
    return 1;
}
