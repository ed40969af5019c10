#include "cs_mpi_agree.h"

int cs_mpi_agree(MPI_Comm comm, int rc, cs_error *err) {
    if (comm == MPI_COMM_NULL) return rc;
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int mine = rc ? rank : size, first = size;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
    if (first == size) return 0;
    if (first != rank)
        return cs_error_set(err, CS_ERR_PEER, "stopped because rank %d failed", first);
    return rc;
}
