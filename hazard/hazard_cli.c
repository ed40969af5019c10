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

static int cmd_curve(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake hazard curve STUDY RUN_ID|SITE --im 'RotD50 3.0' [--levels L1,L2,...]\n"
        "          [--csv FILE.csv] [--plot FILE.png|FILE.svg]\n\n"
        "The hazard curve of a run (or of a site's newest finished run): P(IM > x) =\n"
        "1 - prod_r (1 - P_r)^f_r(x), f_r the fraction of rupture r's variations above x, at\n"
        "--levels (default 51 levels log-spaced from 1e-4 to 10, in the IM's units: g for SA\n"
        "and PGA). Stored in Hazard_Curves and Hazard_Curve_Points (probability over the\n"
        "forecast's time span) under a Hazard_Dataset recording the inputs; --csv writes it in\n"
        "OpenQuake's hazard-curve layout, --plot draws it (annual probability of exceedance,\n"
        "lines at 2% and 10% in 50 years). --im takes 'COMPONENT PERIOD' for SA ('RotD50 3.0',\n"
        "'geometric mean 5'), or 'MEASURE COMPONENT' ('PGA RotD50', 'PGV E'). docs/hazard.md.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    const char *imtext = NULL, *levels_text = NULL, *csv = NULL, *plot = NULL;
    static const struct option opts[] = {{"im", required_argument, 0, 'i'},
                                         {"levels", required_argument, 0, 'l'},
                                         {"csv", required_argument, 0, 'c'},
                                         {"plot", required_argument, 0, 'p'},
                                         {0}};
    optind = 0;
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c == 'i')
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
        plot_curve pc = {label, levels, annual, nlev};
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
                        &pc,
                        1,
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
            if (cs_parse_double(optarg, &tolerance) || !(tolerance > 0 && tolerance < 1))
                return cs_cli_usage(argv[0], "--tolerance is a fraction in (0, 1), got '%s'",
                                    optarg);
        } else if (c == 's')
            sites_text = optarg;
        else if (c == 'k') {
            if (cs_parse_double(optarg, &po.step_km) || !(po.step_km > 0.001 && po.step_km <= 5))
                return cs_cli_usage(argv[0], "--step needs km in (0.001, 5], got '%s'", optarg);
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

int cs_hazard_cli_main(int argc, char **argv) {
    static const cs_cli_command cmds[] = {
        {"curve", cmd_curve, "the hazard curve of a run: store, CSV, plot"},
        {"peer", cmd_peer, "a PEER PSHA verification case (Set 1) with Sadigh et al. 1997"},
    };
    return cs_cli_dispatch("cybershake hazard", "Hazard curves of a study's runs.", cmds,
                           (int)(sizeof cmds / sizeof cmds[0]), argc, argv);
}
