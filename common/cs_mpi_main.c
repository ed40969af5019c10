#include "cs_mpi_main.h"

#include <mpi.h>

#include "cs_log.h"

int cs_mpi_main(int argc, char **argv, int (*command)(int argc, char **argv, int rank)) {
    int inited = 0, provided, rank = 0, size = 1;
    MPI_Initialized(&inited);
    if (!inited) MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 1) cs_log_set_rank(rank, size);
    int code = command(argc, argv, rank);
    if (!inited) MPI_Finalize();
    return code;
}
