#include "sgt_comm.h"

#include <string.h>

void sgt_comm_split(int n, int p, int c, int *start, int *len) {
    int base = n / p, extra = n % p;
    *len = base + (c < extra);
    *start = c * base + (c < extra ? c : extra);
}

/* Columns cut by a px x py decomposition (per z layer): the cost of the halo exchange. */
static double cut_cost(int nx, int ny, int px, int py) {
    return (double)(px - 1) * ny + (double)(py - 1) * nx;
}

static int fits(int n, int p) {
    return p == 1 || n / p >= 8;
}

int sgt_comm_init(sgt_comm *c, int nx, int ny, int px, int py, cs_error *err) {
    memset(c, 0, sizeof *c);
    c->comm = MPI_COMM_NULL;
    c->size = 1;
    int inited = 0;
    MPI_Initialized(&inited);
    if (inited) {
        MPI_Comm_dup(MPI_COMM_WORLD, &c->comm);
        MPI_Comm_rank(c->comm, &c->rank);
        MPI_Comm_size(c->comm, &c->size);
    }
    const int n = c->size;
    if (px > 0 && py > 0) {
        if (px * py != n)
            return cs_error_input(err, "ranks_x x ranks_y", NULL, NULL,
                                  "%d x %d does not match the %d MPI processes; give both so "
                                  "their product is %d, or neither",
                                  px, py, n, n);
    } else if (px > 0 || py > 0) {
        int g = px > 0 ? px : py;
        if (n % g)
            return cs_error_input(err, px > 0 ? "ranks_x" : "ranks_y", NULL, NULL,
                                  "%d does not divide the %d MPI processes", g, n);
        if (px > 0)
            py = n / px;
        else
            px = n / py;
    } else {
        double best = -1;
        for (int a = 1; a <= n; a++) {
            if (n % a || !fits(nx, a) || !fits(ny, n / a)) continue;
            double cost = cut_cost(nx, ny, a, n / a);
            if (best < 0 || cost < best) best = cost, px = a, py = n / a;
        }
        if (best < 0)
            return cs_error_input(err, "grid", NULL, NULL,
                                  "%d x %d columns cannot be split over %d processes with every "
                                  "part at least 8 nodes wide; use fewer processes",
                                  nx, ny, n);
    }
    if (!fits(nx, px) || !fits(ny, py))
        return cs_error_input(err, "ranks_x x ranks_y", NULL, NULL,
                              "%d x %d leaves parts of %d x %d nodes; every part must be at least "
                              "8 nodes wide along a split axis (the 4-node boundary strips of both "
                              "sides must not overlap)",
                              px, py, nx / px, ny / py);
    c->px = px, c->py = py;
    c->cx = c->rank % px, c->cy = c->rank / px;
    c->nbr[0][0] = c->cx > 0 ? c->rank - 1 : MPI_PROC_NULL;
    c->nbr[0][1] = c->cx < px - 1 ? c->rank + 1 : MPI_PROC_NULL;
    c->nbr[1][0] = c->cy > 0 ? c->rank - px : MPI_PROC_NULL;
    c->nbr[1][1] = c->cy < py - 1 ? c->rank + px : MPI_PROC_NULL;
    return 0;
}

void sgt_comm_free(sgt_comm *c) {
    if (c->comm != MPI_COMM_NULL) MPI_Comm_free(&c->comm);
    c->comm = MPI_COMM_NULL;
}

void sgt_comm_layout(const sgt_comm *c, sgt_layout *L) {
    sgt_comm_split(L->nx, c->px, c->cx, &L->i0, &L->lnx);
    sgt_comm_split(L->ny, c->py, c->cy, &L->j0, &L->lny);
    for (int a = 0; a < 2; a++)
        for (int side = 0; side < 2; side++)
            L->nbr[a][side] = c->nbr[a][side] != MPI_PROC_NULL;
    sgt_layout_set_regions(L);
}

int sgt_comm_post(sgt_comm *c, int axis, int nc, void *send[2][3], void *recv[2][3], int count,
                  MPI_Datatype type, cs_error *err) {
    if (c->comm == MPI_COMM_NULL) return 0;
    for (int side = 0; side < 2; side++) {
        int peer = c->nbr[axis][side];
        if (peer == MPI_PROC_NULL) continue;
        for (int q = 0; q < nc; q++) {
            if (c->nreq + 2 > SGT_COMM_MAX_REQ)
                return cs_error_set(err, CS_ERR_INTERNAL, "too many halo messages in flight");
            /* The tag says which way the message travels: a rank's message to its low side is
             * what its low neighbour receives from its high side. */
            int tag_out = (axis * 2 + side) * 4 + q, tag_in = (axis * 2 + (1 - side)) * 4 + q;
            if (MPI_Irecv(recv[side][q], count, type, peer, tag_in, c->comm, &c->req[c->nreq++]) !=
                    MPI_SUCCESS ||
                MPI_Isend(send[side][q], count, type, peer, tag_out, c->comm, &c->req[c->nreq++]) !=
                    MPI_SUCCESS)
                return cs_error_set(err, CS_ERR_INTERNAL, "halo exchange with rank %d failed",
                                    peer);
        }
    }
    return 0;
}

int sgt_comm_wait(sgt_comm *c, cs_error *err) {
    if (!c->nreq) return 0;
    int rc = MPI_Waitall(c->nreq, c->req, MPI_STATUSES_IGNORE);
    c->nreq = 0;
    if (rc != MPI_SUCCESS)
        return cs_error_set(err, CS_ERR_INTERNAL, "halo exchange did not complete");
    return 0;
}

void sgt_comm_reduce_stats(const sgt_comm *c, sgt_mesh_stats *st) {
    if (c->comm == MPI_COMM_NULL || c->size == 1) return;
    long counts[5] = {st->nodes, st->clamped_vs, st->clamped_vp, st->clamped_rho, st->q_from_vs};
    MPI_Allreduce(MPI_IN_PLACE, counts, 5, MPI_LONG, MPI_SUM, c->comm);
    st->nodes = counts[0], st->clamped_vs = counts[1], st->clamped_vp = counts[2];
    st->clamped_rho = counts[3], st->q_from_vs = counts[4];
    /* Extremes with the rank that holds them; that rank broadcasts the node. */
    struct {
        double v;
        int rank;
    } vp = {st->vp_max, c->rank}, vs = {-st->vs_min_seen, c->rank};
    MPI_Allreduce(MPI_IN_PLACE, &vp, 1, MPI_DOUBLE_INT, MPI_MAXLOC, c->comm);
    MPI_Allreduce(MPI_IN_PLACE, &vs, 1, MPI_DOUBLE_INT, MPI_MAXLOC, c->comm);
    st->vp_max = vp.v;
    st->vs_min_seen = -vs.v;
    MPI_Bcast(st->vp_max_at, 3, MPI_INT, vp.rank, c->comm);
    MPI_Bcast(st->vs_min_at, 3, MPI_INT, vs.rank, c->comm);
    MPI_Allreduce(MPI_IN_PLACE, &st->vs_max, 1, MPI_DOUBLE, MPI_MAX, c->comm);
}
