/* `cybershake extract`, `cybershake synth` and `cybershake seismogram`. */
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h> /* opterr */

#include "cs_atomic.h"
#include "cs_cli.h"
#include "extract_cli.h"
#include "cs_log.h"
#include "cs_mpi_main.h"
#include "cs_opt.h"
#include "cs_strutil.h"
#include "extract_run.h"
#include "im.h"
#include "im_band.h"
#include "sac.h"
#include "seis_file.h"
#include "synth.h"

/* --sgt E.h5,N.h5[,Z.h5]: two files (a horizontal-only set) or three, in any order, into
 * target's char[3][4096]; the third slot is left empty for two. */
static int parse_sgt(const char *arg, void *target, cs_error *err) {
    char(*out)[4096] = target;
    char buf[3 * 4096 + 8];
    cs_copy(buf, sizeof buf, arg);
    int n = 0;
    out[2][0] = '\0';
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (n == 3)
            return cs_error_set(err, CS_ERR_USAGE, "--sgt takes 2 or 3 files, got '%s'", arg);
        cs_copy(out[n++], 4096, t);
    }
    if (n < 2)
        return cs_error_set(err, CS_ERR_USAGE,
                            "--sgt needs the files of forces E,N (and Z), any order, got '%s'",
                            arg);
    return 0;
}

/* --method frequency|time, into target's int. */
static int parse_method(const char *arg, void *target, cs_error *err) {
    int *method = target;
    if (!strcmp(arg, "frequency"))
        *method = SYNTH_FREQUENCY;
    else if (!strcmp(arg, "time"))
        *method = SYNTH_TIME;
    else
        return cs_error_set(err, CS_ERR_USAGE, "--method is frequency or time, got '%s'", arg);
    return 0;
}

/* --backend cpu|cuda, into target's int (EXTRACT_CPU, EXTRACT_CUDA). */
static int parse_backend(const char *arg, void *target, cs_error *err) {
    int *b = target;
    if (!strcmp(arg, "cpu"))
        *b = EXTRACT_CPU;
    else if (!strcmp(arg, "cuda"))
        *b = EXTRACT_CUDA;
    else
        return cs_error_set(err, CS_ERR_USAGE, "--backend is cpu or cuda, got '%s'", arg);
    return 0;
}

#define NOPTS(opts) ((int)(sizeof(opts) / sizeof *(opts)))

/* The extractor's options into o and *periods (NULL: CyberShake's within the band); 0, or the
 * exit status after saying what is wrong. Only rank 0 repeats getopt's own messages. */
static int extract_args(int argc, char **argv, int rank, extract_options *o, const char **periods) {
    memset(o, 0, sizeof *o);
    rupgen_defaults(&o->gen);
    o->method = SYNTH_FREQUENCY;
    const char *site = "", *erf = "", *scenario = "", *seismograms = "";
    long run_id = 0, seed = 0, slips = o->gen.nslip;
    *periods = NULL;
    const cs_opt opts[] = {
        CS_OPT_INT("run", &run_id, 1, LONG_MAX, "needs a Run_ID"),
        CS_OPT_STR("site", &site),
        CS_OPT_STR("erf", &erf),
        CS_OPT_FN("sgt", o->sgt, parse_sgt),
        CS_OPT_STR("scenario", &scenario),
        CS_OPT_INT("seed", &seed, 0, LONG_MAX, "needs a whole number >= 0"),
        CS_OPT_POS("hypo-spacing", &o->gen.hypo_spacing_km, "needs km > 0"),
        CS_OPT_INT("slips", &slips, 1, INT_MAX, "needs a whole number >= 1"),
        CS_OPT_STR("periods", periods),
        CS_OPT_STR("seismograms", &seismograms),
        CS_OPT_FN("method", &o->method, parse_method),
        CS_OPT_POS("max-memory", &o->max_memory_gb, "needs GB > 0"),
        CS_OPT_FN("backend", &o->backend, parse_backend),
    };
    opterr = rank == 0;
    int first, npos;
    int prc = cs_opt_parse(argv[0], argc, argv, opts, NOPTS(opts), 1, 1,
                           "expects one argument: STUDY", &first, &npos);
    if (prc) return prc;
    o->run_id = run_id;
    o->gen.seed = (unsigned long long)seed;
    o->gen.nslip = (int)slips;
    cs_copy(o->site, sizeof o->site, site);
    cs_copy(o->erf, sizeof o->erf, erf);
    cs_copy(o->scenario, sizeof o->scenario, scenario);
    cs_copy(o->seismograms, sizeof o->seismograms, seismograms);
    cs_copy(o->study, sizeof o->study, argv[first]);
    if (o->run_id == 0 && (!o->site[0] || !o->erf[0] || !o->sgt[0][0]))
        return cs_cli_usage(argv[0], "a new run needs --site, --erf and --sgt (or --run RUN_ID)");
    if (o->run_id > 0 && (o->site[0] || o->erf[0]))
        return cs_cli_usage(argv[0], "--run takes the run's own site and forecast");
    return 0;
}

static const char extract_help[] =
    "usage: mpirun -np N cybershake extract STUDY --site SITE --erf NAME --sgt "
    "E.h5,N.h5[,Z.h5]\n"
    "          [--scenario NAME | --seed N --hypo-spacing KM --slips N]\n"
    "          [--periods 2,3,5,10] [--seismograms FILE.h5] [--method frequency|time]\n"
    "          [--max-memory GB] [--backend cpu|cuda]\n"
    "       mpirun -np N cybershake extract STUDY --run RUN_ID [--seismograms FILE.h5] ...\n\n"
    "Synthesises, by reciprocity from the site's SGT files (forces E, N, Z; or E and N\n"
    "for horizontal motion only, without vertical measures), the\n"
    "seismogram of every rupture variation of every rupture within the site's cutoff (its\n"
    "CyberShake_Site_Ruptures, from 'cybershake plan'), and writes its intensity measures\n"
    "within the SGTs' band into PeakAmplitudes: 5%-damped SA RotD50/RotD100/geometric mean\n"
    "and Z at --periods (default: CyberShake's 1..10 s at or above 1/fmax; a period below\n"
    "1/fmax is refused), the Konno-Ohmachi-smoothed FAS (E, N, Z, EAS) at 1/period, the\n"
    "D5-75 and D5-95 of the record band-passed around 1/period (periods >= sqrt(2)/fmax)\n"
    "and band-limited PGV. PGA, Arias, CAV and the broadband D5-75 and D5-95 are\n"
    "measures a deterministic simulation up to fmax does not give: not stored\n"
    "(docs/extract.md, \"The band\"). Variations come from the scenario's SRF files when\n"
    "it has them, else from the generator (--seed, --hypo-spacing km, --slips; scenario\n"
    "'gp-SEED'). The first form starts a run and prints its Run_ID; --run resumes one: the\n"
    "ruptures it finished are skipped, its SGT files' SHA-256 are checked (a run that\n"
    "'cybershake run' opened takes --sgt and the scenario options on its first extraction).\n"
    "--seismograms\n"
    "keeps every record in one HDF5 file (cybershake seismogram reads it). Rank 0 keeps the\n"
    "database; the other ranks take ruptures as they finish. --max-memory (default 4) bounds\n"
    "what a rank holds for one rupture: a rupture whose SGT spectra do not fit is taken in\n"
    "chunks of its points (the frequency path; the time path is not bounded). --backend cuda\n"
    "synthesises on GPUs, one per rank (with N > 1 ranks, ranks 1..N-1 take the node's\n"
    "GPUs in turn; rank 0 keeps the study). docs/extract.md.\n";

/* The run's closing lines (rank 0). */
static void print_result(const extract_result *r, const char *seismograms) {
    printf("run %lld: %ld ruptures (%ld done before, %ld now), %ld variations in %.1f s", r->run_id,
           r->ruptures_total, r->ruptures_done_before, r->ruptures_done_now, r->variations_now,
           r->seconds);
    if (r->seconds > 0 && r->variations_now > 0)
        printf(" (%.2f variations/s)", r->variations_now / r->seconds);
    printf("\n");
    printf("memory: peak resident %.3f GB in the largest worker, %.3f GB in rank 0\n",
           r->peak_rss / 1e9, r->peak_rss_rank0 / 1e9);
    if (seismograms[0]) printf("seismograms: %s\n", seismograms);
}

static int extract_command(int argc, char **argv, int rank) {
    if (cs_cli_wants_help(argc, argv)) {
        if (rank == 0) fputs(extract_help, stdout);
        return 0;
    }
    extract_options o;
    const char *periods;
    int prc = extract_args(argc, argv, rank, &o, &periods);
    if (prc) return prc;
    cs_error err;
    cs_error_clear(&err);
    if (periods) {
        if (im_config_parse(&o.ims, periods, &err)) return cs_cli_fail(argv[0], &err);
    } else {
        im_config_default(&o.ims, 0);
        o.ims.nperiods = 0; /* CyberShake's periods within the SGTs' band (im_config_band) */
    }
    extract_result r;
    if (extract_run(MPI_COMM_WORLD, &o, &r, &err)) {
        if (err.status != CS_ERR_PEER || rank == 0) cs_cli_fail(argv[0], &err);
        return cs_exit_code(err.status);
    }
    if (rank == 0) print_result(&r, o.seismograms);
    return 0;
}

int cs_extract_cli_main(int argc, char **argv) {
    return cs_mpi_main(argc, argv, extract_command);
}

/* The measures a record is asked for at the band fmax: CyberShake's periods when none are
 * given; those outside the band are listed by print_ims as not given, and a request none of
 * whose periods is in the band is refused with the rule (formats/im_band.h). */
static int band_config(im_config *ims, const char *periods, double fmax, cs_error *err) {
    if (!periods) {
        im_config_default(ims, 0);
    } else {
        CS_CALL(err, im_config_parse(ims, periods, err));
        int any = 0;
        for (int p = 0; p < ims->nperiods; p++)
            any |= im_band_valid("SA", ims->periods[p], fmax, NULL, 0);
        if (!any) return im_config_band(ims, fmax, err);
    }
    ims->fmax = fmax;
    return 0;
}

/* The band, the measures it gives, then each one it does not, with the rule. */
static void print_ims(const im_config *ims, const double *values) {
    im_type *t;
    int *ok, n;
    cs_error err;
    if (im_types_all(ims, &t, &ok, &n, &err)) return;
    char band[256];
    im_band_describe(ims->fmax, band, sizeof band);
    printf("  band: %s\n", band);
    for (int i = 0, k = 0; i < n; i++) {
        if (!ok[i]) continue;
        if (t[i].period > 0)
            printf("  %-6s %5.2f s  %-15s %.6g %s\n", t[i].measure, t[i].period, t[i].component,
                   values[k], t[i].units);
        else
            printf("  %-14s %-15s %.6g %s\n", t[i].measure, t[i].component, values[k], t[i].units);
        k++;
    }
    /* once per SA period and per measure (their components share the rule) */
    for (int i = 0; i < n; i++) {
        if (ok[i] || (i > 0 && !ok[i - 1] && !strcmp(t[i].measure, t[i - 1].measure) &&
                      t[i].period == t[i - 1].period))
            continue;
        char why[512];
        im_band_valid(t[i].measure, t[i].period, ims->fmax, why, sizeof why);
        if (t[i].period > 0)
            printf("  %-6s %5.2f s  not given: %s\n", t[i].measure, t[i].period, why);
        else
            printf("  %-14s not given: %s\n", t[i].measure, why);
    }
    free(t);
    free(ok);
}

static int write_csv(const char *path, const float *vel, int nt, double dt, cs_error *err) {
    cs_atomic_file a;
    CS_CALL(err, cs_atomic_open(&a, path, err));
    fprintf(a.f, "time_s,E_m_per_s,N_m_per_s,Z_m_per_s\n");
    for (int t = 0; t < nt; t++)
        fprintf(a.f, "%.6f,%.9g,%.9g,%.9g\n", t * dt, vel[t], vel[nt + t], vel[2 * nt + t]);
    return cs_atomic_commit(&a, NULL, err);
}

/* PREFIX.E.sac, PREFIX.N.sac and, where the record has a vertical component, PREFIX.Z.sac. */
static int write_sac3(const char *prefix, const float *vel, int nt, double dt, double lon,
                      double lat, const char *station, const char *event, int vertical,
                      cs_error *err) {
    static const char *comp[3] = {"E", "N", "Z"};
    static const double az[3] = {90, 0, 0}, inc[3] = {90, 90, 0};
    for (int c = 0; c < (vertical ? 3 : 2); c++) {
        char path[4200];
        snprintf(path, sizeof path, "%s.%s.sac", prefix, comp[c]);
        sac_meta m = {dt, 0, lat, lon, az[c], inc[c], station, comp[c], event};
        CS_CALL(err, sac_write(path, &m, vel + (size_t)c * nt, nt, err));
    }
    return 0;
}

int cs_synth_cli_main(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake synth --sgt E.h5,N.h5[,Z.h5] FILE.srf [--method frequency|time]\n"
        "          [--periods LIST] [--csv OUT.csv] [--sac PREFIX]\n\n"
        "The seismogram at the site of the SGT files from one SRF (1.0 or 2.0), by reciprocity;\n"
        "prints its intensity measures within the SGTs' band (as cybershake seismogram does);\n"
        "--csv writes time, E, N, Z (m/s), --sac writes PREFIX.E.sac, PREFIX.N.sac,\n"
        "PREFIX.Z.sac.\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    char sgt[3][4096];
    const char *csv = NULL, *sac = NULL, *periods = NULL;
    int method = SYNTH_FREQUENCY;
    sgt[0][0] = '\0';
    const cs_opt opts[] = {
        CS_OPT_FN("sgt", sgt, parse_sgt), CS_OPT_FN("method", &method, parse_method),
        CS_OPT_STR("periods", &periods),  CS_OPT_STR("csv", &csv),
        CS_OPT_STR("sac", &sac),
    };
    int first, npos;
    int prc = cs_opt_parse(argv[0], argc, argv, opts, NOPTS(opts), 0, -1, NULL, &first, &npos);
    if (prc) return prc;
    if (npos != 1 || !sgt[0][0])
        return cs_cli_usage(argv[0], "expects --sgt E,N,Z and one SRF file");
    cs_error err;
    cs_error_clear(&err);
    im_config ims;
    sgt_set s;
    if (sgt_set_open_list(&s, sgt, &err)) return cs_cli_fail(argv[0], &err);
    if (band_config(&ims, periods, s.fmax, &err)) {
        sgt_set_close(&s);
        return cs_cli_fail(argv[0], &err);
    }
    ims.vertical = s.has_force[2];
    synth_seismogram rec;
    float *velf = NULL;
    double *values = NULL;
    int rc;
    CS_CALL_GOTO(rc, &err, synth_srf_seismogram(&s, argv[first], method, &rec, &err), done);
    velf = malloc(sizeof(float) * 3 * (size_t)rec.nt);
    values = malloc(sizeof(double) * IM_MAX_TYPES);
    if (!velf || !values) {
        rc = cs_error_set(&err, CS_ERR_RESOURCE, "out of memory");
        goto done;
    }
    CS_CALL_GOTO(rc, &err, im_compute(&ims, rec.vel, rec.nt, rec.dt, values, &err), done);
    for (int i = 0; i < 3 * rec.nt; i++)
        velf[i] = (float)rec.vel[i];
    printf("%s at site %.6f %.6f: %ld subfaults, %d samples at %g s (%s path)\n", argv[first],
           s.site_lon, s.site_lat, rec.nsubfaults, rec.nt, rec.dt,
           method == SYNTH_TIME ? "time" : "frequency");
    print_ims(&ims, values);
    if (csv) CS_CALL_GOTO(rc, &err, write_csv(csv, velf, rec.nt, rec.dt, &err), done);
    if (sac)
        CS_CALL_GOTO(rc, &err,
                     write_sac3(sac, velf, rec.nt, rec.dt, s.site_lon, s.site_lat, "SITE", "synth",
                                s.has_force[2], &err),
                     done);
done:
    free(rec.vel);
    free(velf);
    free(values);
    sgt_set_close(&s);
    return rc ? cs_cli_fail(argv[0], &err) : 0;
}

int cs_seismogram_cli_main(int argc, char **argv) {
    static const char help[] =
        "usage: cybershake seismogram FILE.h5 --source S --rupture R --variation V\n"
        "          [--csv OUT.csv] [--sac PREFIX] [--periods LIST] [--fmax HZ]\n\n"
        "One record of a run's seismogram file (cybershake extract --seismograms): prints its\n"
        "peaks and intensity measures within the run's band (SA at periods T >= 1/fmax,\n"
        "band-limited PGV; the others are listed as not given, with the rule: docs/extract.md,\n"
        "\"The band\"); --periods none of which is in the band is refused. The band is the\n"
        "file's fmax attribute; --fmax gives it for a file written before it was kept (without\n"
        "either every measure is printed, the band marked not recorded). --csv writes time,\n"
        "E, N, Z (m/s); --sac writes PREFIX.E.sac, PREFIX.N.sac, PREFIX.Z.sac (velocity, m/s).\n";
    if (cs_cli_wants_help(argc, argv)) return fputs(help, stdout), 0;
    const char *csv = NULL, *sac = NULL, *periods = NULL;
    long key[3] = {-1, -1, -1};
    double fmax = 0;
    const cs_opt opts[] = {
        CS_OPT_INT("source", &key[0], 0, LONG_MAX, "needs a whole number >= 0"),
        CS_OPT_INT("rupture", &key[1], 0, LONG_MAX, "needs a whole number >= 0"),
        CS_OPT_INT("variation", &key[2], 0, LONG_MAX, "needs a whole number >= 0"),
        CS_OPT_STR("csv", &csv),
        CS_OPT_STR("sac", &sac),
        CS_OPT_STR("periods", &periods),
        CS_OPT_NUM("fmax", &fmax, DBL_TRUE_MIN, 100, "needs Hz in (0, 100]"),
    };
    int first, npos;
    int prc = cs_opt_parse(argv[0], argc, argv, opts, NOPTS(opts), 0, -1, NULL, &first, &npos);
    if (prc) return prc;
    if (npos != 1 || key[0] < 0 || key[1] < 0 || key[2] < 0)
        return cs_cli_usage(argv[0], "expects FILE.h5 --source S --rupture R --variation V");
    cs_error err;
    cs_error_clear(&err);
    im_config ims;
    if (periods && im_config_parse(&ims, periods, &err)) return cs_cli_fail(argv[0], &err);
    float *vel = NULL;
    seis_meta m;
    memset(&m, 0, sizeof m);
    if (seis_read_record(argv[first], key[0], key[1], key[2], &vel, &m, &err))
        return cs_cli_fail(argv[0], &err);
    int rc0 = 0;
    /* the file's band; --fmax for a file without one, never against it */
    if (fmax > 0 && m.fmax > 0 && fabs(fmax - m.fmax) > 1e-9 * m.fmax)
        rc0 = cs_error_input(&err, argv[first], "fmax", NULL,
                             "the file records a band up to %g Hz; --fmax %g contradicts it",
                             m.fmax, fmax);
    if (rc0 || band_config(&ims, periods, m.fmax > 0 ? m.fmax : fmax, &err)) {
        free(vel);
        return cs_cli_fail(argv[0], &err);
    }
    ims.vertical = m.vertical;
    double *vd = malloc(sizeof(double) * 3 * (size_t)m.nt), values[IM_MAX_TYPES];
    int rc = vd ? 0 : cs_error_set(&err, CS_ERR_RESOURCE, "out of memory");
    if (!rc) {
        for (int i = 0; i < 3 * m.nt; i++)
            vd[i] = vel[i];
        rc = im_compute(&ims, vd, m.nt, m.dt, values, &err);
    }
    if (!rc) {
        printf("source %ld rupture %ld variation %ld: %d samples at %g s, site %.6f %.6f, run "
               "%lld\n",
               key[0], key[1], key[2], m.nt, m.dt, m.site_lon, m.site_lat, m.run_id);
        print_ims(&ims, values);
        char event[64];
        snprintf(event, sizeof event, "S%ld_R%ld_V%ld", key[0], key[1], key[2]);
        if (csv) rc = write_csv(csv, vel, m.nt, m.dt, &err);
        if (!rc && sac)
            rc = write_sac3(sac, vel, m.nt, m.dt, m.site_lon, m.site_lat,
                            m.site[0] ? m.site : "SITE", event, m.vertical, &err);
    }
    free(vd);
    free(vel);
    return rc ? cs_cli_fail(argv[0], &err) : 0;
}
