/* Agreement on failure across MPI ranks: the fixed points where every rank of a solver or an
 * extraction learns whether any rank failed, so that none is left waiting in an exchange for one
 * that stopped. */
#ifndef CS_MPI_AGREE_H
#define CS_MPI_AGREE_H

#include <mpi.h>

#include "cs_error.h"

/* Every rank of comm passes its status; all return nonzero if any rank failed. The lowest rank
 * that failed keeps its message; every other rank gets CS_ERR_PEER naming it, so that a failure
 * all ranks share (a bad input) is reported once. MPI_COMM_NULL: returns rc. */
int cs_mpi_agree(MPI_Comm comm, int rc, cs_error *err);

#endif
