#include "cs_mpi_main.h"

#include <mpi.h>

#include "cs_log.h"

int cs_mpi_main(int argc, char **argv, int (*command)(int argc, char **argv, int rank)) {
    int inited = 0, provided, rank = 0, size = 1;
    MPI_Initialized(&inited);
    /* MPI_THREAD_MULTIPLE where the library offers it: the SGT solver then writes its file
     * through MPI-IO on a thread of its own while the main thread exchanges halos
     * (sgt_strain_writer.h asks MPI_Query_thread and writes on the main thread otherwise). */
    if (!inited) MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 1) cs_log_set_rank(rank, size);
    int code = command(argc, argv, rank);
    if (!inited) MPI_Finalize();
    return code;
}
