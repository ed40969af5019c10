/* `cybershake hazard ...`: hazard curves of a run, stored in the study, exported as CSV and
 * drawn. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_atomic.h"
#include "cs_cli.h"
#include "cs_strutil.h"
#include "cs_version.h"
#include "disagg.h"
#include "gmpe.h"
#include "hazard_db.h"
#include "hazard_plot.h"
#include "peer.h"

int cs_hazard_cli_main(int argc, char **argv);

#define MAX_LEVELS 1000

static int parse_levels(const char *text, double *levels, int *n, cs_error *err) {
    char buf[16384];
    cs_copy(buf, sizeof buf, text);
    *n = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        double v;
        char *s = cs_trim(t);
        if (cs_parse_double(s, &v) || !(v > 0))
            return cs_error_input(err, "--levels", NULL, s, "a level is a positive number");
        if (*n == MAX_LEVELS)
            return cs_error_input(err, "--levels", NULL, text, "at most %d levels", MAX_LEVELS);
        if (*n > 0 && !(v > levels[*n - 1]))
            return cs_error_input(err, "--levels", NULL, s, "levels must increase");
        levels[(*n)++] = v;
    }
    if (*n < 2) return cs_error_input(err, "--levels", NULL, text, "give at least two levels");
    return 0;
}

/* OpenQuake's hazard-curve CSV: a metadata comment line, then lon, lat, poe-<level>... with
 * probabilities of exceedance in the investigation time. */
static int write_csv(const char *path, const hazard_run *r, const char *imname, const char *units,
                     const double *levels, const double *poe, int n, cs_error *err) {
    cs_atomic_file a;
    if (cs_atomic_open(&a, path, err)) return -1;
    fprintf(a.f,
            "#,,\"generated_by='cybershake %s', kind='cybershake', investigation_time=%g, "
            "imt='%s', units='%s', site='%s', run_id=%lld\"\n",
            CS_VERSION, r->time_span, imname, units, r->site, r->run_id);
    fprintf(a.f, "lon,lat");
    for (int i = 0; i < n; i++)
        fprintf(a.f, ",poe-%.6g", levels[i]);
    fprintf(a.f, "\n%.6f,%.6f", r->lon, r->lat);
    for (int i = 0; i < n; i++)
        fprintf(a.f, ",%.6e", poe[i]);
    fprintf(a.f, "\n");
    return cs_atomic_commit(&a, NULL, err);
}

/* Classical PSHA over the run's ruptures with a ground-motion model: each rupture one lognormal
 * variation (median and sigma of the model at its Rjb/Rrup, magnitude and rake), the curve by
 * the same integrator, stored as a curve of the run under a dataset naming the model. */
static int gmpe_curves(cs_db *db, const hazard_run *run, const hazard_set *set, const hazard_im *im,
                       long long type_id, const char *list, double vs30, double trunc,
                       const double *levels, int nlev, char names[4][32],
                       double annual[4][MAX_LEVELS], int *ng, cs_error *err) {
    if (strcmp(im->measure, "SA") && strcmp(im->measure, "PGA"))
        return cs_error_input(err, "--gmpe", NULL, list, "GMPE curves are for SA and PGA");
    char buf[128];
    cs_copy(buf, sizeof buf, list);
    double *rjb = malloc(sizeof(double) * (size_t)(set->n ? set->n : 1));
    double *rrup = malloc(sizeof(double) * (size_t)(set->n ? set->n : 1));
    double *rake = malloc(sizeof(double) * (size_t)(set->n ? set->n : 1));
    double *lnm = malloc(sizeof(double) * (size_t)(set->n ? set->n : 1));
    hazard_rupture *rups = malloc(sizeof *rups * (size_t)(set->n ? set->n : 1));
    int rc = rjb && rrup && rake && lnm && rups
                 ? 0
                 : cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    for (long q = 0; q < set->n && !rc; q++)
        rc = hazard_rupture_geometry(db, run, set->source[q], set->rupture[q], &rjb[q], &rrup[q],
                                     &rake[q], err);
    double period = strcmp(im->measure, "PGA") ? im->period : 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t && !rc;
         t = strtok_r(NULL, ",", &save)) {
        if (*ng == 4) {
            rc = cs_error_input(err, "--gmpe", NULL, list, "at most 4 models");
            break;
        }
        int bssa = !strcmp(t, "bssa14"), sadigh = !strcmp(t, "sadigh97");
        if (!bssa && !sadigh) {
            rc = cs_error_input(err, "--gmpe", NULL, t, "models: bssa14, sadigh97 (rock)");
            break;
        }
        for (long q = 0; q < set->n && !rc; q++) {
            gmpe_value g;
            rc = bssa ? gmpe_bssa14(period, set->mag[q], rjb[q], rake[q], vs30, &g, err)
                      : gmpe_sadigh97_rock(period, set->mag[q], rrup[q], rake[q], &g, err);
            lnm[q] = g.ln_median;
            rups[q] = (hazard_rupture){.prob = set->rups[q].prob,
                                       .nvalues = 1,
                                       .values = &lnm[q],
                                       .lognormal = 1,
                                       .sigma = g.sigma,
                                       .trunc = trunc,
                                       .upper_only = 1};
        }
        double poe[MAX_LEVELS];
        if (!rc) rc = hazard_curve(rups, set->n, levels, nlev, poe, err);
        char inputs[256];
        long long id;
        snprintf(inputs, sizeof inputs,
                 "GMPE %s, Vs30 %g m/s, sigma %s%g, the run's ruptures and probabilities; "
                 "cybershake %s",
                 bssa ? "BSSA14" : "Sadigh et al. 1997 rock", vs30,
                 trunc > 0 ? "truncated (upper tail) at " : "untruncated", trunc, CS_VERSION);
        if (!rc) rc = hazard_store(db, run, type_id, levels, poe, nlev, inputs, &id, err);
        for (int i = 0; i < nlev && !rc; i++)
            annual[*ng][i] = hazard_annual(poe[i], run->time_span);
        if (!rc) cs_copy(names[(*ng)++], 32, bssa ? "BSSA14" : "Sadigh et al. 1997");
    }
    free(rjb);
    free(rrup);
    free(rake);
    free(lnm);
    free(rups);
    return rc;
}

static int cmd_curve(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake hazard curve STUDY RUN_ID|SITE --im 'RotD50 3.0' [--levels L1,L2,...]\n"
        "          [--csv FILE.csv] [--plot FILE.png|FILE.svg] [--gmpe bssa14,sadigh97]\n"
        "          [--vs30 M/S] [--truncation N]\n\n"
        "The hazard curve of a run (or of a site's newest finished run): P(IM > x) =\n"
        "1 - prod_r (1 - P_r)^f_r(x), f_r the fraction of rupture r's variations above x, at\n"
        "--levels (default 51 levels log-spaced from 1e-4 to 10, in the IM's units: g for SA\n"
        "and PGA). Stored in Hazard_Curves and Hazard_Curve_Points (probability over the\n"
        "forecast's time span) under a Hazard_Dataset recording the inputs; --csv writes it in\n"
        "OpenQuake's hazard-curve layout, --plot draws it (annual probability of exceedance,\n"
        "lines at 2% and 10% in 50 years). --im takes 'COMPONENT PERIOD' for SA ('RotD50 3.0',\n"
        "'geometric mean 5'), or 'MEASURE COMPONENT' ('PGA RotD50', 'PGV E'). --gmpe bssa14,\n"
        "sadigh97 adds classical curves of those models over the same ruptures (the same\n"
        "integrator; --vs30, default the site's or 760 m/s; --truncation N sigmas, default none),\n"
        "stored and drawn on the same plot. docs/hazard.md.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    const char *imtext = NULL, *levels_text = NULL, *csv = NULL, *plot = NULL, *compare = NULL;
    double vs30_opt = NAN, trunc = 0;
    static const struct option opts[] = {
        {"im", required_argument, 0, 'i'},         {"levels", required_argument, 0, 'l'},
        {"csv", required_argument, 0, 'c'},        {"plot", required_argument, 0, 'p'},
        {"gmpe", required_argument, 0, 'g'},       {"vs30", required_argument, 0, 'v'},
        {"truncation", required_argument, 0, 't'}, {0}};
    optind = 0;
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c == 'g')
            compare = optarg;
        else if (c == 'v') {
            if (cs_cli_number(argv[0], "--vs30 (m/s)", optarg, 100, 3000, &vs30_opt)) return 2;
        } else if (c == 't') {
            if (cs_cli_number(argv[0], "--truncation (sigmas)", optarg, 0.1, 10, &trunc)) return 2;
        } else if (c == 'i')
            imtext = optarg;
        else if (c == 'l')
            levels_text = optarg;
        else if (c == 'c')
            csv = optarg;
        else if (c == 'p')
            plot = optarg;
        else
            return cs_cli_usage(argv[0], "unknown option");
    }
    if (optind != argc - 2) return cs_cli_usage(argv[0], "expects STUDY and RUN_ID or SITE");
    if (!imtext) return cs_cli_usage(argv[0], "--im is required (e.g. --im 'RotD50 3.0')");
    cs_error err;
    cs_error_clear(&err);
    hazard_im im;
    static double levels[MAX_LEVELS], poe[MAX_LEVELS], annual[MAX_LEVELS];
    int nlev;
    if (hazard_im_parse(imtext, &im, &err)) return cs_cli_fail(argv[0], &err);
    size_t pl = plot ? strlen(plot) : 0;
    if (plot && (pl < 5 || (strcmp(plot + pl - 4, ".png") && strcmp(plot + pl - 4, ".svg")))) {
        cs_error_input(&err, "--plot", NULL, plot, "a plot is written as .png or .svg");
        return cs_cli_fail(argv[0], &err);
    }
    if (levels_text) {
        if (parse_levels(levels_text, levels, &nlev, &err)) return cs_cli_fail(argv[0], &err);
    } else {
        hazard_default_levels(levels, &nlev);
    }
    cs_db *db;
    if (cs_db_open_current(argv[optind], &db, &err)) return cs_cli_fail(argv[0], &err);
    hazard_run run;
    hazard_set set = {0};
    long long type_id = 0, curve_id = 0;
    char units[16] = "", imname[64], inputs[512];
    hazard_im_name(&im, imname, sizeof imname);
    int rc = hazard_run_find(db, argv[optind + 1], &run, &err);
    if (!rc) rc = hazard_im_type(db, &run, &im, &type_id, units, sizeof units, &err);
    if (!rc) rc = hazard_load(db, &run, type_id, &set, &err);
    if (!rc) rc = hazard_curve(set.rups, set.n, levels, nlev, poe, &err);
    snprintf(inputs, sizeof inputs,
             "PeakAmplitudes of the run; P(IM>x|rupture) = fraction of variations above x "
             "(equal weights); Poisson; cybershake %s",
             CS_VERSION);
    if (!rc) rc = hazard_store(db, &run, type_id, levels, poe, nlev, inputs, &curve_id, &err);
    /* GMPE curves over the same ruptures, by the same integrator, stored beside it */
    int ng = 0;
    char gnames[4][32];
    static double gannual[4][MAX_LEVELS];
    double vs30 = isnan(vs30_opt) ? hazard_site_vs30(db, &run) : vs30_opt;
    if (isnan(vs30)) vs30 = 760;
    if (!rc && compare)
        rc = gmpe_curves(db, &run, &set, &im, type_id, compare, vs30, trunc, levels, nlev, gnames,
                         gannual, &ng, &err);
    cs_db_close(db);
    if (!rc && csv) rc = write_csv(csv, &run, imname, units, levels, poe, nlev, &err);
    for (int i = 0; i < nlev; i++)
        annual[i] = hazard_annual(poe[i], run.time_span);
    double pa2 = hazard_annual(0.02, 50), pa10 = hazard_annual(0.10, 50);
    if (!rc && plot) {
        char title[256], xlabel[128], label[128];
        snprintf(title, sizeof title, "%s, run %lld: %s", run.site, run.run_id, imname);
        snprintf(xlabel, sizeof xlabel, "%s (%s)", imname, units);
        snprintf(label, sizeof label, "CyberShake (%ld ruptures, %ld variations)", set.n,
                 set.nvalues);
        plot_curve pc[5] = {{label, levels, annual, nlev}};
        char glabels[4][96];
        for (int g = 0; g < ng; g++) {
            snprintf(glabels[g], sizeof glabels[g], "%s (Vs30 %g m/s, same ruptures)", gnames[g],
                     vs30);
            pc[1 + g] = (plot_curve){glabels[g], levels, gannual[g], nlev};
        }
        plot_hline lines[2] = {{"2% in 50 yr", pa2}, {"10% in 50 yr", pa10}};
        double ymin = 1e-6;
        for (int i = 0; i < nlev; i++)
            if (annual[i] > 0 && annual[i] < ymin) ymin = annual[i];
        plot_spec ps = {title,
                        xlabel,
                        "annual probability of exceedance",
                        levels[0],
                        levels[nlev - 1],
                        fmax(ymin, 1e-8),
                        1,
                        pc,
                        1 + ng,
                        lines,
                        2};
        rc = plot_loglog(plot, &ps, &err);
    }
    if (rc) {
        hazard_set_free(&set);
        return cs_cli_fail(argv[0], &err);
    }
    printf("hazard curve %lld: site %s, run %lld, %s: %ld ruptures, %ld variations, %d levels\n",
           curve_id, run.site, run.run_id, imname, set.n, set.nvalues, nlev);
    double x2 = hazard_level_at(levels, annual, nlev, pa2),
           x10 = hazard_level_at(levels, annual, nlev, pa10);
    printf("  2%% in 50 years (annual %.3g): %s%.4g %s\n", pa2,
           isnan(x2) ? "below the lowest level, " : "", isnan(x2) ? levels[0] : x2, units);
    printf("  10%% in 50 years (annual %.3g): %s%.4g %s\n", pa10,
           isnan(x10) ? "below the lowest level, " : "", isnan(x10) ? levels[0] : x10, units);
    for (int g = 0; g < ng; g++) {
        double y2 = hazard_level_at(levels, gannual[g], nlev, pa2),
               y10 = hazard_level_at(levels, gannual[g], nlev, pa10);
        printf("  %s (Vs30 %g m/s): 2%% in 50 years %.4g %s, 10%% in 50 years %.4g %s\n", gnames[g],
               vs30, y2, units, y10, units);
    }
    if (csv) printf("  csv: %s\n", csv);
    if (plot) printf("  plot: %s\n", plot);
    hazard_set_free(&set);
    return 0;
}

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

static int cmd_peer(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake hazard peer CASE [--sites 1,2,...] [--step KM] [--reference FILE.csv]\n"
        "          [--tolerance F] [--csv OUT.csv] [--plot FILE.png|svg]\n\n"
        "A PEER PSHA verification case of Set 1 (1, 2, 4, 5, 8a, 8b, 8c) built from its\n"
        "definition: fault, floating ruptures every --step km (0.02), magnitude-frequency\n"
        "distribution, Sadigh et al. (1997) rock PGA, the hazard stage's integrator. Prints the\n"
        "annual probability of exceedance at the PEER levels (0.001 to 1 g) for the fault sites\n"
        "(1-7, or --sites). --reference compares with published values (the PEER 2010 or "
        "nshmp-haz\n"
        "CSVs of ../shared/reference/peer): the largest relative difference where both are\n"
        "nonzero, except where the reference has fallen below 1% of its plateau (the last steps\n"
        "before a sigma = 0 cut-off); where only one is zero, a rupture's median must lie within\n"
        "10% of the level (the cut-off itself); exit 1 if a difference exceeds --tolerance (1%)\n"
        "or a zero lies elsewhere. docs/hazard.md.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    const char *sites_text = NULL, *refpath = NULL, *csv = NULL, *plot = NULL;
    peer_options po = {0.02};
    double tolerance = 0.01;
    static const struct option opts[] = {{"sites", required_argument, 0, 's'},
                                         {"step", required_argument, 0, 'k'},
                                         {"reference", required_argument, 0, 'r'},
                                         {"csv", required_argument, 0, 'c'},
                                         {"plot", required_argument, 0, 'p'},
                                         {"tolerance", required_argument, 0, 't'},
                                         {0}};
    optind = 0;
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c == 't') {
            if (cs_cli_number(argv[0], "--tolerance", optarg, 1e-12, 0.99, &tolerance)) return 2;
        } else if (c == 's')
            sites_text = optarg;
        else if (c == 'k') {
            if (cs_cli_number(argv[0], "--step (km)", optarg, 0.001, 5, &po.step_km)) return 2;
        } else if (c == 'r')
            refpath = optarg;
        else if (c == 'c')
            csv = optarg;
        else if (c == 'p')
            plot = optarg;
        else
            return cs_cli_usage(argv[0], "unknown option");
    }
    if (optind != argc - 1) return cs_cli_usage(argv[0], "expects one argument: CASE");
    const char *id = argv[optind];
    int want[7] = {1, 1, 1, 1, 1, 1, 1};
    if (sites_text) {
        memset(want, 0, sizeof want);
        char buf[256];
        cs_copy(buf, sizeof buf, sites_text);
        for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            long v;
            if (cs_parse_long(t, &v) || v < 1 || v > 7)
                return cs_cli_usage(argv[0], "--sites takes numbers 1 to 7, got '%s'", t);
            want[v - 1] = 1;
        }
    }
    cs_error err;
    cs_error_clear(&err);
    peer_reference ref;
    if (refpath && read_reference(refpath, &ref, &err)) return cs_cli_fail(argv[0], &err);
    static double poe[7][PEER_NLEVELS];
    double worst = 0;
    int bad = 0, cutoffs = 0;
    char worst_at[128] = "";
    printf("PEER Set 1 case %s: annual probability of exceedance of PGA (g)\nsite", id);
    for (int i = 0; i < PEER_NLEVELS; i++)
        printf(" %9g", peer_levels[i]);
    printf("\n");
    for (int st = 0; st < 7; st++) {
        if (!want[st]) continue;
        hazard_rupture *rups;
        long n;
        if (peer_case_ruptures(id, &peer_fault_sites[st], &po, &rups, &n, &err) ||
            hazard_curve(rups, n, peer_levels, PEER_NLEVELS, poe[st], &err)) {
            peer_free(rups, n);
            return cs_cli_fail(argv[0], &err);
        }
        printf("%4d", st + 1);
        for (int i = 0; i < PEER_NLEVELS; i++)
            printf(" %9.3e", poe[st][i]);
        printf("\n");
        double plateau = 0;
        if (refpath && ref.have[st])
            for (int j = 0; j < ref.nlev; j++)
                plateau = fmax(plateau, ref.v[st][j]);
        if (refpath && ref.have[st])
            for (int j = 0; j < ref.nlev; j++) {
                int i = 0;
                while (i < PEER_NLEVELS && fabs(peer_levels[i] - ref.levels[j]) > 1e-9)
                    i++;
                if (i == PEER_NLEVELS) continue;
                double a = poe[st][i], b = ref.v[st][j];
                if (a > 0 && b > 0 && b < 0.01 * plateau) {
                    cutoffs++; /* the curve's last 1%: the sigma = 0 steps of a cut-off */
                } else if (a > 0 && b > 0) {
                    double d = fabs(a - b) / b;
                    if (d > worst) {
                        worst = d;
                        snprintf(worst_at, sizeof worst_at,
                                 "site %d at %g g: %.4e here, %.4e there", st + 1, peer_levels[i],
                                 a, b);
                    }
                    if (d > tolerance) bad++;
                } else if ((a > 0) != (b > 0)) {
                    /* a sigma = 0 cut-off: some rupture's median within 10% of the level */
                    int near = 0;
                    for (long q = 0; q < n && !near; q++)
                        for (int v = 0; v < rups[q].nvalues && !near; v++) {
                            double lm =
                                rups[q].lognormal ? rups[q].values[v] : log(rups[q].values[v]);
                            near = fabs(lm - log(peer_levels[i])) < log(1.1);
                        }
                    if (near)
                        cutoffs++;
                    else {
                        bad++;
                        printf("     site %d at %g g: %.4e here, %.4e there, away from any "
                               "cut-off\n",
                               st + 1, peer_levels[i], a, b);
                    }
                }
            }
        peer_free(rups, n);
    }
    if (csv) {
        cs_atomic_file a;
        if (cs_atomic_open(&a, csv, &err)) return cs_cli_fail(argv[0], &err);
        fprintf(a.f, "site,lon,lat");
        for (int i = 0; i < PEER_NLEVELS; i++)
            fprintf(a.f, ",%g", peer_levels[i]);
        fprintf(a.f, "\n");
        for (int st = 0; st < 7; st++) {
            if (!want[st]) continue;
            fprintf(a.f, "%d,%.5f,%.5f", st + 1, peer_fault_sites[st].lon,
                    peer_fault_sites[st].lat);
            for (int i = 0; i < PEER_NLEVELS; i++)
                fprintf(a.f, ",%.8e", poe[st][i]);
            fprintf(a.f, "\n");
        }
        if (cs_atomic_commit(&a, NULL, &err)) return cs_cli_fail(argv[0], &err);
    }
    if (plot) {
        plot_curve pc[7];
        char labels[7][32], title[64];
        int nc = 0;
        for (int st = 0; st < 7; st++)
            if (want[st]) {
                snprintf(labels[st], sizeof labels[st], "site %d", st + 1);
                pc[nc++] = (plot_curve){labels[st], peer_levels, poe[st], PEER_NLEVELS};
            }
        snprintf(title, sizeof title, "PEER Set 1 case %s (Sadigh et al. 1997)", id);
        plot_spec ps = {
            title, "PGA (g)", "annual probability of exceedance", 1e-3, 1, 1e-6, 1, pc, nc,
            NULL,  0};
        if (plot_loglog(plot, &ps, &err)) return cs_cli_fail(argv[0], &err);
    }
    if (refpath) {
        printf("against %s: largest relative difference %.3g%% (%s); %d level(s) at sigma = 0 "
               "cut-offs; %d beyond %g%%\n",
               refpath, 100 * worst, worst_at[0] ? worst_at : "none", cutoffs, bad,
               100 * tolerance);
        return bad ? 1 : 0;
    }
    return 0;
}

typedef struct {
    long idx;
    double c;
} ranked;

static int cmp_ranked(const void *a, const void *b) {
    double x = ((const ranked *)a)->c, y = ((const ranked *)b)->c;
    return (x < y) - (x > y);
}

/* The result into Disaggregations, Disagg_Bins (nonzero bins) and Disagg_Ruptures (the top n),
 * in one transaction. */
static int store_disagg(cs_db *db, const hazard_run *run, long long type_id, const char *target,
                        double annual, const disagg_bins *b, const disagg_result *d,
                        const hazard_set *set, const ranked *top, int ntop, long long *id,
                        cs_error *err) {
    if (cs_db_begin(db, err)) return -1;
    sqlite3_stmt *st = NULL;
    int rc = cs_db_prepare(db,
                           "INSERT INTO Disaggregations (Run_ID, IM_Type_ID, IM_Level, Annual_Poe, "
                           "Target, Mean_M, Mean_R, Mean_Eps, Mode_M, Mode_R, Mode_Eps, "
                           "Created_At) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                           "strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
                           &st, err);
    if (!rc) {
        double v[8] = {d->level,    annual,    d->mean_m, d->mean_r,
                       d->mean_eps, d->mode_m, d->mode_r, d->mode_eps};
        sqlite3_bind_int64(st, 1, run->run_id);
        sqlite3_bind_int64(st, 2, type_id);
        sqlite3_bind_double(st, 3, v[0]);
        sqlite3_bind_double(st, 4, v[1]);
        sqlite3_bind_text(st, 5, target, -1, SQLITE_TRANSIENT);
        for (int i = 2; i < 8; i++)
            sqlite3_bind_double(st, 4 + i, v[i]);
        if (sqlite3_step(st) != SQLITE_DONE) rc = cs_db_fail(db, "adding the disaggregation", err);
        *id = sqlite3_last_insert_rowid(cs_db_handle(db));
    }
    sqlite3_finalize(st);
    st = NULL;
    if (!rc)
        rc = cs_db_prepare(db,
                           "INSERT INTO Disagg_Bins (Disagg_ID, M_Low, M_High, R_Low, R_High, "
                           "Eps_Low, Eps_High, Contribution) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           &st, err);
    for (int i = 0; i < b->nm && !rc; i++)
        for (int j = 0; j < b->nr && !rc; j++)
            for (int k = 0; k < b->ne && !rc; k++) {
                double c = d->bins[((size_t)i * b->nr + j) * b->ne + k];
                if (c <= 0) continue;
                double v[7] = {b->m[i], b->m[i + 1], b->r[j], b->r[j + 1], b->e[k], b->e[k + 1], c};
                sqlite3_reset(st);
                sqlite3_bind_int64(st, 1, *id);
                for (int q = 0; q < 7; q++)
                    sqlite3_bind_double(st, 2 + q, v[q]);
                if (sqlite3_step(st) != SQLITE_DONE) rc = cs_db_fail(db, "adding a bin", err);
            }
    sqlite3_finalize(st);
    st = NULL;
    if (!rc)
        rc = cs_db_prepare(db,
                           "INSERT INTO Disagg_Ruptures (Disagg_ID, Source_ID, Rupture_ID, "
                           "Contribution) VALUES (?, ?, ?, ?)",
                           &st, err);
    for (int i = 0; i < ntop && !rc; i++) {
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, *id);
        sqlite3_bind_int64(st, 2, set->source[top[i].idx]);
        sqlite3_bind_int64(st, 3, set->rupture[top[i].idx]);
        sqlite3_bind_double(st, 4, top[i].c);
        if (sqlite3_step(st) != SQLITE_DONE) rc = cs_db_fail(db, "adding a rupture", err);
    }
    sqlite3_finalize(st);
    if (rc) {
        cs_db_rollback(db);
        return -1;
    }
    return cs_db_commit(db, err);
}

static void bin_name(char *out, size_t size, const double *e, int i, const char *unit) {
    if (e[i] <= -1e8)
        snprintf(out, size, "<%g%s", e[i + 1], unit);
    else if (e[i + 1] >= 1e8)
        snprintf(out, size, ">%g%s", e[i], unit);
    else
        snprintf(out, size, "%g-%g%s", e[i], e[i + 1], unit);
}

int cs_disagg_cli_main(int argc, char **argv);
int cs_disagg_cli_main(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake hazard disagg STUDY RUN_ID|SITE --im 'RotD50 3.0'\n"
        "          (--poe '2% in 50 yr' | --poe ANNUAL | --level X) [--top N]\n"
        "          [--m-bins E1,E2,...] [--r-bins ...] [--eps-bins ...] [--plot FILE.png|svg]\n\n"
        "Disaggregates the run's hazard curve at a level (--level, in the IM's units) or at an\n"
        "annual probability of exceedance (--poe): each rupture's share lambda_r P(IM > x | r)\n"
        "of the total, the same exceedance rule as the curve. Prints the mean and modal\n"
        "magnitude, Rrup and epsilon, the --top N ruptures (10), and the M x Rrup table;\n"
        "stores it (Disaggregations, Disagg_Bins, Disagg_Ruptures); --plot draws the M x Rrup\n"
        "contributions. Default bins: PEER Set 2 Case 1's (M 5-7 by 0.1, Rrup 0-100 km by 20,\n"
        "epsilon -1..2 by 1, open bins beyond). Also 'cybershake db disagg'. docs/hazard.md.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    const char *imtext = NULL, *poetext = NULL, *plot = NULL;
    double level = NAN;
    long top_n = 10;
    disagg_bins b;
    disagg_default_bins(&b);
    static const struct option opts[] = {{"im", required_argument, 0, 'i'},
                                         {"poe", required_argument, 0, 'p'},
                                         {"level", required_argument, 0, 'l'},
                                         {"top", required_argument, 0, 't'},
                                         {"m-bins", required_argument, 0, 'M'},
                                         {"r-bins", required_argument, 0, 'R'},
                                         {"eps-bins", required_argument, 0, 'E'},
                                         {"plot", required_argument, 0, 'P'},
                                         {0}};
    optind = 0;
    int c;
    cs_error err;
    cs_error_clear(&err);
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'i':
            imtext = optarg;
            break;
        case 'p':
            poetext = optarg;
            break;
        case 'P':
            plot = optarg;
            break;
        case 'l':
            if (cs_parse_double(optarg, &level) || !(level > 0))
                return cs_cli_usage(argv[0], "--level needs a positive number, got '%s'", optarg);
            break;
        case 't':
            if (cs_parse_long(optarg, &top_n) || top_n < 1 || top_n > 10000)
                return cs_cli_usage(argv[0], "--top needs 1 to 10000, got '%s'", optarg);
            break;
        case 'M':
            if (disagg_parse_edges(optarg, "--m-bins", b.m, &b.nm, &err))
                return cs_cli_fail(argv[0], &err);
            break;
        case 'R':
            if (disagg_parse_edges(optarg, "--r-bins", b.r, &b.nr, &err))
                return cs_cli_fail(argv[0], &err);
            break;
        case 'E':
            if (disagg_parse_edges(optarg, "--eps-bins", b.e, &b.ne, &err))
                return cs_cli_fail(argv[0], &err);
            break;
        default:
            return cs_cli_usage(argv[0], "unknown option");
        }
    }
    if (optind != argc - 2) return cs_cli_usage(argv[0], "expects STUDY and RUN_ID or SITE");
    if (!imtext) return cs_cli_usage(argv[0], "--im is required");
    if (!poetext == isnan(level)) return cs_cli_usage(argv[0], "give one of --poe and --level");
    hazard_im im;
    double annual = NAN;
    if (hazard_im_parse(imtext, &im, &err) || (poetext && disagg_parse_poe(poetext, &annual, &err)))
        return cs_cli_fail(argv[0], &err);
    cs_db *db;
    if (cs_db_open_current(argv[optind], &db, &err)) return cs_cli_fail(argv[0], &err);
    hazard_run run;
    hazard_set set = {0};
    disagg_result d = {0};
    ranked *rk = NULL;
    long long type_id = 0, id = 0;
    char units[16] = "", imname[64], target[64];
    hazard_im_name(&im, imname, sizeof imname);
    int rc = hazard_run_find(db, argv[optind + 1], &run, &err);
    if (!rc) rc = hazard_im_type(db, &run, &im, &type_id, units, sizeof units, &err);
    if (!rc) rc = hazard_load(db, &run, type_id, &set, &err);
    if (!rc && poetext) rc = disagg_level_for(set.rups, set.n, run.time_span, annual, &level, &err);
    if (!rc) rc = disagg_compute(set.rups, set.mag, set.rrup, set.n, level, &b, &d, &err);
    if (!rc && isnan(annual)) annual = hazard_annual(-expm1(-d.total), run.time_span);
    int ntop = 0;
    if (!rc) {
        rk = malloc(sizeof *rk * (size_t)(set.n ? set.n : 1));
        if (!rk) rc = cs_error_set(&err, CS_ERR_RESOURCE, "out of memory");
    }
    if (!rc) {
        for (long i = 0; i < set.n; i++)
            rk[i] = (ranked){i, d.contribution[i]};
        qsort(rk, (size_t)set.n, sizeof *rk, cmp_ranked);
        ntop = (int)(top_n < set.n ? top_n : set.n);
        while (ntop > 0 && rk[ntop - 1].c <= 0)
            ntop--;
        if (poetext)
            snprintf(target, sizeof target, "poe %s", poetext);
        else
            snprintf(target, sizeof target, "level %g", level);
        rc = store_disagg(db, &run, type_id, target, annual, &b, &d, &set, rk, ntop, &id, &err);
    }
    if (!rc) {
        printf("disaggregation %lld: site %s, run %lld, %s at %.5g %s (annual probability of "
               "exceedance %.4g)\n",
               id, run.site, run.run_id, imname, level, units, annual);
        printf("  mean M %.2f, Rrup %.1f km, epsilon %.2f; modal M %.2f, Rrup %.1f km, epsilon "
               "%.2f\n",
               d.mean_m, d.mean_r, d.mean_eps, d.mode_m, d.mode_r, d.mode_eps);
        printf("  %-8s %-8s %-32s %6s %9s %8s %8s\n", "source", "rupture", "name", "M", "Rrup km",
               "epsilon", "share %");
        sqlite3_stmt *nm = NULL;
        cs_db_prepare(db,
                      "SELECT coalesce(Source_Name, '') FROM Ruptures WHERE ERF_ID = ? AND "
                      "Source_ID = ? AND Rupture_ID = ?",
                      &nm, &err);
        for (int i = 0; i < ntop; i++) {
            long q = rk[i].idx;
            char name[64] = "";
            if (nm) {
                sqlite3_reset(nm);
                sqlite3_bind_int64(nm, 1, run.erf_id);
                sqlite3_bind_int64(nm, 2, set.source[q]);
                sqlite3_bind_int64(nm, 3, set.rupture[q]);
                if (sqlite3_step(nm) == SQLITE_ROW)
                    cs_copy(name, sizeof name, (const char *)sqlite3_column_text(nm, 0));
            }
            printf("  %-8lld %-8lld %-32.32s %6.2f %9.1f %8.2f %8.2f\n", set.source[q],
                   set.rupture[q], name, set.mag[q], set.rrup[q], d.eps[q], 100 * rk[i].c);
        }
        sqlite3_finalize(nm);
    }
    cs_db_close(db);
    /* the M x Rrup table (summed over epsilon), bins with any share */
    double *mr = NULL;
    if (!rc) {
        mr = calloc((size_t)b.nm * b.nr, sizeof(double));
        if (!mr) rc = cs_error_set(&err, CS_ERR_RESOURCE, "out of memory");
    }
    int m0 = b.nm, m1 = -1, r1 = -1;
    if (!rc) {
        for (int i = 0; i < b.nm; i++)
            for (int j = 0; j < b.nr; j++)
                for (int k = 0; k < b.ne; k++) {
                    double v = d.bins[((size_t)i * b.nr + j) * b.ne + k];
                    mr[i * b.nr + j] += v;
                    if (v > 0) {
                        m0 = i < m0 ? i : m0;
                        m1 = i > m1 ? i : m1;
                        r1 = j > r1 ? j : r1;
                    }
                }
        char nmx[32];
        printf("  share %% by magnitude (rows) and Rrup (columns):\n  %-10s", "");
        for (int j = 0; j <= r1; j++) {
            bin_name(nmx, sizeof nmx, b.r, j, "");
            printf(" %9s", nmx);
        }
        printf("\n");
        for (int i = m0; i <= m1; i++) {
            bin_name(nmx, sizeof nmx, b.m, i, "");
            printf("  M %-8s", nmx);
            for (int j = 0; j <= r1; j++)
                printf(" %9.2f", 100 * mr[i * b.nr + j]);
            printf("\n");
        }
    }
    if (!rc && plot && m1 >= m0) {
        int nx = m1 - m0 + 1, ny = r1 + 1;
        char(*xn)[32] = calloc((size_t)nx, 32), (*yn)[32] = calloc((size_t)ny, 32);
        const char **xp = calloc((size_t)nx, sizeof *xp), **yp = calloc((size_t)ny, sizeof *yp);
        double *v = calloc((size_t)nx * ny, sizeof(double));
        if (xn && yn && xp && yp && v) {
            for (int i = 0; i < nx; i++) {
                bin_name(xn[i], 32, b.m, m0 + i, "");
                xp[i] = xn[i];
                for (int j = 0; j < ny; j++)
                    v[i * ny + j] = mr[(m0 + i) * b.nr + j];
            }
            for (int j = 0; j < ny; j++) {
                bin_name(yn[j], 32, b.r, j, " km");
                yp[j] = yn[j];
            }
            char title[160];
            snprintf(title, sizeof title, "%s, run %lld: %s at %.3g %s (share %%)", run.site,
                     run.run_id, imname, level, units);
            plot_grid_spec g = {title, "magnitude", "Rrup", nx, ny, xp, yp, v};
            rc = plot_grid(plot, &g, &err);
            if (!rc) printf("  plot: %s\n", plot);
        } else {
            rc = cs_error_set(&err, CS_ERR_RESOURCE, "out of memory");
        }
        free(xn);
        free(yn);
        free(xp);
        free(yp);
        free(v);
    }
    free(mr);
    free(rk);
    disagg_free(&d);
    hazard_set_free(&set);
    return rc ? cs_cli_fail(argv[0], &err) : 0;
}

int cs_hazard_cli_main(int argc, char **argv) {
    static const cs_cli_command cmds[] = {
        {"curve", cmd_curve, "the hazard curve of a run: store, CSV, plot"},
        {"disagg", cs_disagg_cli_main,
         "disaggregate a run's curve by M, Rrup, epsilon and rupture"},
        {"peer", cmd_peer, "a PEER PSHA verification case (Set 1) with Sadigh et al. 1997"},
    };
    return cs_cli_dispatch("cybershake hazard", "Hazard curves of a study's runs.", cmds,
                           (int)(sizeof cmds / sizeof cmds[0]), argc, argv);
}
