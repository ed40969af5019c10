/* `cybershake mpirun`: the MPI launcher's command line for this machine, so that the documented
 * `cybershake mpirun -np N COMMAND ...` works where a bare `mpirun -np N` is refused: as root
 * (Open MPI refuses root unless told), and with more ranks than cores (Open MPI refuses more
 * ranks than slots unless told to oversubscribe; a 2-core machine has 2 slots). */
#ifndef CS_MPIRUN_H
#define CS_MPIRUN_H

#include "cs_error.h"

typedef struct {
    const char *launcher; /* "mpirun", or $MPIRUN */
    int open_mpi;         /* the launcher is Open MPI's (the flags below are its own) */
    int root;             /* running as root */
    long cores;           /* cores online */
} cs_mpirun_host;

/* The launcher's argv for np ranks of `self` (this program) running argv[0..argc-1]:
 * LAUNCHER [--allow-run-as-root] [--oversubscribe --bind-to none] -np N SELF ARGS..., NULL
 * terminated, in one allocation (free it). */
int cs_mpirun_argv(const cs_mpirun_host *h, int np, const char *self, int argc, char **argv,
                   char ***out, cs_error *err);

int cs_mpirun_cli_main(int argc, char **argv);

#endif
