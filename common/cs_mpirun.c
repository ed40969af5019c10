#include "cs_mpirun.h"

#include <stdio.h>
#include <stdlib.h>

int cs_mpirun_argv(const cs_mpirun_host *h, int np, const char *self, int argc, char **argv,
                   char ***out, cs_error *err) {
    if (np < 1) return cs_error_input(err, "-np", NULL, NULL, "needs at least 1 rank, got %d", np);
    /* the pointers, then the rank count's text */
    char **v = calloc(1, ((size_t)argc + 12) * sizeof *v + 24);
    if (!v) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    char *num = (char *)(v + argc + 12);
    int n = 0;
    v[n++] = (char *)h->launcher;
    if (h->open_mpi && h->root) v[n++] = "--allow-run-as-root";
    if (h->open_mpi && np > h->cores) {
        v[n++] = "--oversubscribe";
        v[n++] = "--bind-to";
        v[n++] = "none";
    }
    v[n++] = "-np";
    snprintf(num, 24, "%d", np);
    v[n++] = num;
    v[n++] = (char *)self;
    for (int i = 0; i < argc; i++)
        v[n++] = argv[i];
    v[n] = NULL;
    *out = v;
    return 0;
}
