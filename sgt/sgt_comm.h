/* The ranks of one solver run: the decomposition of the grid's columns over a px x py grid of
 * processes (each keeps whole z columns), the velocity halo exchange with the neighbours, and
 * the agreement on failures that keeps every rank from waiting for one that has stopped.
 *
 * Without MPI_Init (unit tests, library use in one process) everything works for one rank and
 * the exchanges do nothing. */
#ifndef SGT_COMM_H
#define SGT_COMM_H

#include <mpi.h>

#include "cs_error.h"
#include "cs_mpi_agree.h"
#include "sgt_mesh.h"
#include "sgt_state.h"

#define SGT_COMM_MAX_REQ 32

typedef struct sgt_comm {
    MPI_Comm comm; /* a duplicate of MPI_COMM_WORLD, or MPI_COMM_NULL without MPI */
    int rank, size;
    int px, py, cx, cy; /* process grid and this rank's place in it */
    int nbr[2][2];      /* neighbour ranks [axis][0 low, 1 high], MPI_PROC_NULL where none */
    MPI_Request req[SGT_COMM_MAX_REQ];
    int nreq;
} sgt_comm;

/* Decomposes nx x ny columns over the ranks: px x py given (0 for either picks the pair that
 * cuts the fewest columns). Every subdomain must be at least 8 nodes wide along a decomposed
 * axis, so that its boundary strips (4 nodes) do not overlap. */
int sgt_comm_init(sgt_comm *c, int nx, int ny, int px, int py, cs_error *err);
void sgt_comm_free(sgt_comm *c);
/* Start and length of part c of n nodes split into p near-equal parts. */
void sgt_comm_split(int n, int p, int c, int *start, int *len);
/* Sets a layout's i0, j0, lnx, lny, neighbour flags and regions for this rank. */
void sgt_comm_layout(const sgt_comm *c, sgt_layout *L);

/* Posts the exchange along an axis of nc arrays: send[side][q] goes to the neighbour on that
 * side, what it sends lands in recv[side][q]; count elements of `type` each. */
int sgt_comm_post(sgt_comm *c, int axis, int nc, void *send[2][3], void *recv[2][3], int count,
                  MPI_Datatype type, cs_error *err);
int sgt_comm_wait(sgt_comm *c, cs_error *err);

/* Combines the mesh statistics of all ranks (counts summed, extremes with their nodes). */
void sgt_comm_reduce_stats(const sgt_comm *c, sgt_mesh_stats *st);

#endif
