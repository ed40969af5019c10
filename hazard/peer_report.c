/* `cybershake hazard peer`'s work (peer_report.h). */
#include "peer_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cs_atomic.h"
#include "cs_strutil.h"
#include "hazard_plot.h"

/* A reference file of PEER values: rows of a site number or a name ending in the site's number
 * ("PEER S1-Fault-Site3"), optional lon and lat, then one value per level of the header. */
typedef struct {
    int nlev;
    double levels[64];
    double v[7][64];
    int have[7];
} peer_reference;

static int read_reference(const char *path, peer_reference *ref, cs_error *err) {
    memset(ref, 0, sizeof *ref);
    FILE *f = fopen(path, "r");
    if (!f) return cs_error_errno(err, path, "open");
    char line[8192];
    int first = 1, skip = 1, lineno = 0, rc = 0;
    while (fgets(line, sizeof line, f) && !rc) {
        lineno++;
        char *tok[80];
        int n = 0;
        for (char *save = NULL, *t = strtok_r(line, ",\n\r", &save); t && n < 80;
             t = strtok_r(NULL, ",\n\r", &save))
            tok[n++] = t;
        if (n == 0) continue;
        if (first) {
            skip = !strcmp(tok[0], "name") || (n > 1 && !strcmp(tok[1], "lon")) ? 3 : 1;
            for (int i = skip; i < n && ref->nlev < 64; i++)
                if (cs_parse_double(tok[i], &ref->levels[ref->nlev++])) {
                    char place[4200];
                    snprintf(place, sizeof place, "%s:%d", path, lineno);
                    rc = cs_error_input(err, place, "level", tok[i], "must be a number");
                }
            first = 0;
            continue;
        }
        int k = (int)strlen(tok[0]);
        while (k > 0 && tok[0][k - 1] >= '0' && tok[0][k - 1] <= '9')
            k--;
        int site = atoi(tok[0] + k);
        if (site < 1 || site > 7) continue;
        for (int i = skip; i < n && i - skip < ref->nlev; i++)
            ref->v[site - 1][i - skip] = atof(tok[i]);
        ref->have[site - 1] = 1;
    }
    fclose(f);
    return rc;
}

/* "PEER Set 2 case 2a (ASK14)": the case and its ground-motion model. */
static void plot_title(const char *id, char *title, size_t size) {
    if (!peer_is_set2(id)) {
        snprintf(title, size, "PEER Set 1 case %s (Sadigh et al. 1997)", id);
        return;
    }
    if (!strcmp(id, "s2-1")) {
        snprintf(title, size, "PEER Set 2 case 1 (Sadigh et al. 1997, three sources)");
        return;
    }
    const int cy14 = id[3] == '4' || id[3] == '5' || id[4] == 'd';
    snprintf(title, size, "PEER Set 2 case %s (%s)", id + 3,
             cy14           ? "CY14"
             : id[4] == 'a' ? "ASK14"
             : id[4] == 'b' ? "BSSA14"
                            : "CB14");
}

int peer_report(const peer_request *rq, FILE *out, int *nbad, cs_error *err) {
    const char *id = rq->id, *refpath = rq->reference, *csv = rq->csv, *plot = rq->plot;
    const peer_options po = rq->po;
    const double tolerance = rq->tolerance;
    const peer_site *sites;
    const int nsites = peer_case_sites(id, &sites);
    const int *want = rq->want;
    const double *levels;
    peer_case_levels(id, &levels);
    *nbad = 0;
    peer_reference ref;
    if (refpath && read_reference(refpath, &ref, err)) return err->status;
    static double poe[7][PEER_NLEVELS];
    double worst = 0;
    int bad = 0, cutoffs = 0;
    char worst_at[128] = "";
    fprintf(out, "PEER Set %d case %s: annual probability of exceedance of PGA (g)\nsite",
            peer_is_set2(id) ? 2 : 1, peer_is_set2(id) ? id + 3 : id);
    for (int i = 0; i < PEER_NLEVELS; i++)
        fprintf(out, " %9g", levels[i]);
    fprintf(out, "\n");
    for (int st = 0; st < nsites; st++) {
        if (!want[st]) continue;
        hazard_rupture *rups;
        long n;
        if (peer_case_ruptures(id, &sites[st], &po, &rups, &n, err) ||
            hazard_curve(rups, n, levels, PEER_NLEVELS, poe[st], err)) {
            peer_free(rups, n);
            return err->status;
        }
        fprintf(out, "%4d", st + 1);
        for (int i = 0; i < PEER_NLEVELS; i++) {
            poe[st][i] += 0.0; /* no -0 printed */
            fprintf(out, " %9.3e", poe[st][i]);
        }
        fprintf(out, "\n");
        /* sigma = 0: the largest median at the site, where the curve ends */
        double last = 0;
        for (long q = 0; q < n; q++)
            if (!rups[q].lognormal && rups[q].nvalues > 0)
                last = fmax(last, rups[q].values[rups[q].nvalues - 1]);
        double plateau = 0;
        if (refpath && ref.have[st])
            for (int j = 0; j < ref.nlev; j++)
                plateau = fmax(plateau, ref.v[st][j]);
        if (refpath && ref.have[st])
            for (int j = 0; j < ref.nlev; j++) {
                int i = 0;
                while (i < PEER_NLEVELS && fabs(levels[i] - ref.levels[j]) > 1e-9)
                    i++;
                if (i == PEER_NLEVELS) continue;
                double a = poe[st][i], b = ref.v[st][j];
                if (a > 0 && b > 0 && last > 0 && (b < 0.01 * plateau || levels[i] * 1.1 > last)) {
                    /* the curve's last 1%, or its last 10% in level: the sigma = 0 steps of a
                     * cut-off, where the few largest-median positions decide and the
                     * rupture spacing moves the value by percents */
                    cutoffs++;
                } else if (a > 0 && b > 0) {
                    double d = fabs(a - b) / b;
                    if (d > worst) {
                        worst = d;
                        snprintf(worst_at, sizeof worst_at,
                                 "site %d at %g g: %.4e here, %.4e there", st + 1, levels[i], a, b);
                    }
                    if (d > tolerance) bad++;
                } else if ((a > 0) != (b > 0)) {
                    /* a sigma = 0 cut-off: some rupture's median within 10% of the level */
                    int near = 0;
                    for (long q = 0; q < n && !near; q++)
                        for (int v = 0; v < rups[q].nvalues && !near; v++) {
                            double lm =
                                rups[q].lognormal ? rups[q].values[v] : log(rups[q].values[v]);
                            near = fabs(lm - log(levels[i])) < log(1.1);
                        }
                    if (near)
                        cutoffs++;
                    else {
                        bad++;
                        fprintf(out,
                                "     site %d at %g g: %.4e here, %.4e there, away from any "
                                "cut-off\n",
                                st + 1, levels[i], a, b);
                    }
                }
            }
        peer_free(rups, n);
    }
    if (csv) {
        cs_atomic_file a;
        if (cs_atomic_open(&a, csv, err)) return err->status;
        fprintf(a.f, "site,lon,lat");
        for (int i = 0; i < PEER_NLEVELS; i++)
            fprintf(a.f, ",%g", levels[i]);
        fprintf(a.f, "\n");
        for (int st = 0; st < nsites; st++) {
            if (!want[st]) continue;
            fprintf(a.f, "%d,%.5f,%.5f", st + 1, sites[st].lon, sites[st].lat);
            for (int i = 0; i < PEER_NLEVELS; i++)
                fprintf(a.f, ",%.8e", poe[st][i]);
            fprintf(a.f, "\n");
        }
        if (cs_atomic_commit(&a, NULL, err)) return err->status;
    }
    if (plot) {
        plot_curve pc[7];
        char labels[7][32], title[64];
        int nc = 0;
        for (int st = 0; st < nsites; st++)
            if (want[st]) {
                snprintf(labels[st], sizeof labels[st], "site %d", st + 1);
                pc[nc++] = (plot_curve){labels[st], levels, poe[st], PEER_NLEVELS};
            }
        plot_title(id, title, sizeof title);
        const int tail = levels[PEER_NLEVELS - 1] > 1;
        plot_spec ps = {title,
                        "PGA (g)",
                        "annual probability of exceedance",
                        1e-3,
                        levels[PEER_NLEVELS - 1],
                        tail ? 1e-13 : 1e-6,
                        1,
                        pc,
                        nc,
                        NULL,
                        0};
        if (hazard_plot_loglog(plot, &ps, err)) return err->status;
    }
    if (refpath) {
        fprintf(out,
                "against %s: largest relative difference %.3g%% (%s); %d level(s) at sigma = 0 "
                "cut-offs; %d beyond %g%%\n",
                refpath, 100 * worst, worst_at[0] ? worst_at : "none", cutoffs, bad,
                100 * tolerance);
    }
    *nbad = bad;
    return 0;
}
