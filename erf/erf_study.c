#include "erf_study.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_db.h"
#include "cs_progress.h"
#include "cs_strutil.h"
#include "erf_db.h"
#include "erf_geometry.h"
#include "srf.h"

/* Does a comma-separated list hold the file stem of a key ("bFault.ch" of "bFault.ch:L540")? */
static int stem_selected(const char *list, const char *key) {
    if (!list) return 1;
    size_t stem = strcspn(key, ":");
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        if (n == stem && !strncmp(p, key, n)) return 1;
        p += n + (p[n] == ',');
    }
    return 0;
}

/* The forecast and its ruptures, inside the bulk transaction. */
static int build_in_transaction(cs_db *db, const erf_build_request *q, erf_built *out,
                                cs_error *err) {
    CS_CALL(err, erf_db_create(db, q->name, q->description, q->options.time_span_years, q->inputs,
                               &out->erf_id, err));
    erf_db_counter sink = {0};
    int rc;
    CS_CALL_GOTO(rc, err, erf_db_writer_open(db, out->erf_id, &sink.w, err), done);
    const erf_fault_set *set = q->set;
    cs_progress prog;
    cs_progress_begin(&prog, "fault sources", set->nsources, "sources");
    for (int i = 0; i < set->nsources; i++) {
        const erf_fault_source *s = &set->sources[i];
        if (!stem_selected(q->files, s->key)) continue;
        if (isfinite(q->within_km) &&
            erf_fault_trace_distance(s, q->near_lon, q->near_lat) > q->within_km)
            continue;
        out->nsources++;
        rc = erf_fault_ruptures(s, &q->options, erf_db_counter_add, &sink, err);
        cs_progress_update(&prog, i + 1);
        if (rc) {
            CS_TRACE(err);
            goto done;
        }
    }
    cs_progress_end(&prog);
done:
    erf_db_writer_close(&sink.w);
    out->nruptures += sink.nruptures;
    out->npoints += sink.npoints;
    out->total_rate += sink.total_rate;
    if (!rc && out->nsources == 0)
        rc = cs_error_set(err, CS_ERR_INPUT,
                          "no fault source passed the selection (--near/--within/--files)");
    return rc;
}

int erf_build_forecast(const char *study, const erf_build_request *q, erf_built *out,
                       cs_error *err) {
    memset(out, 0, sizeof *out);
    cs_db *db = NULL;
    int rc;
    CS_CALL_GOTO(rc, err, cs_db_open_current(study, &db, err), done);
    CS_CALL_GOTO(rc, err, erf_db_bulk_begin(db, err), done);
    rc = build_in_transaction(db, q, out, err);
    if (rc) CS_TRACE(err);
    /* ends the transaction either way: commits when ok, rolls back otherwise */
    int end = erf_db_bulk_end(db, !rc, err);
    if (!rc && end) {
        CS_TRACE(err);
        rc = end;
    }
done:
    cs_db_close(db);
    return rc;
}

/* The files' ruptures, inside the transaction. */
static int import_in_transaction(cs_db *db, const char *name, double span_years, char *const *files,
                                 int nfiles, long long *erf_id, long *npoints, cs_error *err) {
    cs_error probe;
    double existing_span;
    if (erf_db_find(db, name, erf_id, &existing_span, &probe) != 0)
        CS_CALL(err, erf_db_create(db, name, "CyberShake rupture geometry files", span_years,
                                   "rupture geometry files", erf_id, err));
    erf_db_writer w = {0};
    int rc;
    CS_CALL_GOTO(rc, err, erf_db_writer_open(db, *erf_id, &w, err), done);
    for (int i = 0; i < nfiles; i++) {
        long long s, r;
        erf_rupture rup;
        CS_CALL_GOTO(rc, err, erf_geometry_ids_from_path(files[i], &s, &r, err), done);
        CS_CALL_GOTO(rc, err, erf_geometry_read(files[i], s, r, &rup, err), done);
        snprintf(rup.source_name, sizeof rup.source_name, "source %lld", s);
        cs_copy(rup.source_type, sizeof rup.source_type, "geometry file");
        rc = erf_db_writer_add(&w, &rup, NAN, NULL, err);
        *npoints += erf_rupture_npoints(&rup);
        erf_rupture_free(&rup);
        if (rc) {
            CS_TRACE(err);
            goto done;
        }
    }
done:
    erf_db_writer_close(&w);
    return rc;
}

int erf_import_geometry(const char *study, const char *name, double span_years, char *const *files,
                        int nfiles, long long *erf_id, long *npoints, cs_error *err) {
    *npoints = 0;
    cs_db *db = NULL;
    int rc;
    CS_CALL_GOTO(rc, err, cs_db_open_current(study, &db, err), done);
    CS_CALL_GOTO(rc, err, cs_db_begin(db, err), done);
    rc = import_in_transaction(db, name, span_years, files, nfiles, erf_id, npoints, err);
    if (!rc)
        rc = cs_db_commit(db, err);
    else
        cs_db_rollback(db);
    if (rc) CS_TRACE(err);
done:
    cs_db_close(db);
    return rc;
}

/* The scenario's row: its id in *scenario_id. */
static int add_scenario(cs_db *db, long long erf_id, const erf_variations_request *q,
                        long long *scenario_id, cs_error *err) {
    char params[1024], model[600];
    rupgen_params_format(q->params, params, sizeof params);
    snprintf(model, sizeof model, " model=%s:%s", q->model_format, q->model_file);
    strncat(params, model, sizeof params - strlen(params) - 1);
    sqlite3_stmt *st;
    CS_CALL(err, cs_db_prepare(db,
                               "INSERT INTO Rupture_Variation_Scenario_IDs (ERF_ID, "
                               "Rup_Var_Scenario_Name, Rup_Var_Scenario_Description, Generator, "
                               "Parameters, Seed) VALUES (?, ?, 'Graves-Pitarka-like kinematic "
                               "generator', 'cybershake rupgen 1', ?, ?)",
                               &st, err));
    sqlite3_bind_int64(st, 1, erf_id);
    sqlite3_bind_text(st, 2, q->scenario, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, params, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)q->params->seed);
    int rc = sqlite3_step(st) != SQLITE_DONE ? cs_db_fail(db, "adding the scenario", err) : 0;
    sqlite3_finalize(st);
    *scenario_id = sqlite3_last_insert_rowid(cs_db_handle(db));
    return rc;
}

/* One rupture's variations: their rows through ins, and the selected ones' SRFs. */
static int rupture_variations(cs_db *db, sqlite3_stmt *ins, long long erf_id, const erf_rupture *r,
                              const erf_variations_request *q, erf_variations_made *out,
                              cs_error *err) {
    const rupgen_params *p = q->params;
    rupgen_layout lay;
    CS_CALL(err, rupgen_plan(r, p, &lay, err));
    int write = q->srf_dir && (q->only_source < 0 || q->only_source == r->source_id) &&
                (q->only_rupture < 0 || q->only_rupture == r->rupture_id);
    for (int k = 0; k < lay.nvariations; k++) {
        rupgen_info info;
        char lfn[4200] = "";
        if (write) {
            srf_file s;
            snprintf(lfn, sizeof lfn, "%s/%lld_%lld_%d.srf", q->srf_dir, r->source_id,
                     r->rupture_id, k);
            CS_CALL(err, rupgen_variation(r, p, erf_medium_query, q->medium, k, &s, &info, err));
            int rc = srf_write(lfn, &s, NULL, err);
            srf_free(&s);
            out->nsrf++;
            if (rc) {
                CS_TRACE(err);
                return rc;
            }
        } else {
            CS_CALL(err, rupgen_hypocentre(r, p, k, &info, err));
        }
        sqlite3_reset(ins);
        sqlite3_bind_int64(ins, 1, out->scenario_id);
        sqlite3_bind_int64(ins, 2, erf_id);
        sqlite3_bind_int64(ins, 3, r->source_id);
        sqlite3_bind_int64(ins, 4, r->rupture_id);
        sqlite3_bind_int(ins, 5, k);
        if (write)
            sqlite3_bind_text(ins, 6, lfn, -1, SQLITE_TRANSIENT);
        else
            sqlite3_bind_null(ins, 6);
        sqlite3_bind_double(ins, 7, info.hypo_lat);
        sqlite3_bind_double(ins, 8, info.hypo_lon);
        sqlite3_bind_double(ins, 9, info.hypo_depth);
        sqlite3_bind_int(ins, 10, info.slip_index);
        if (sqlite3_step(ins) != SQLITE_DONE) return cs_db_fail(db, "adding a variation", err);
        out->nrows++;
    }
    return 0;
}

/* The scenario and every rupture's variations, inside the transaction. */
static int variations_in_transaction(cs_db *db, long long erf_id, const erf_rupture_key *keys,
                                     const erf_variations_request *q, erf_variations_made *out,
                                     cs_error *err) {
    CS_CALL(err, add_scenario(db, erf_id, q, &out->scenario_id, err));
    sqlite3_stmt *ins = NULL;
    CS_CALL(err, cs_db_prepare(db,
                               "INSERT INTO Rupture_Variations (Rup_Var_Scenario_ID, ERF_ID, "
                               "Source_ID, Rupture_ID, Rup_Var_ID, Rup_Var_LFN, Hypocenter_Lat, "
                               "Hypocenter_Lon, Hypocenter_Depth, Slip_Realisation) VALUES "
                               "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                               &ins, err));
    cs_progress prog;
    cs_progress_begin(&prog, "rupture variations", out->nruptures, "ruptures");
    int rc = 0;
    for (long i = 0; i < out->nruptures; i++) {
        erf_rupture r;
        CS_CALL_GOTO(
            rc, err,
            erf_db_load_rupture(db, erf_id, keys[i].source_id, keys[i].rupture_id, &r, err), done);
        rc = rupture_variations(db, ins, erf_id, &r, q, out, err);
        erf_rupture_free(&r);
        cs_progress_update(&prog, i + 1);
        if (rc) {
            CS_TRACE(err);
            goto done;
        }
    }
    cs_progress_end(&prog);
done:
    sqlite3_finalize(ins);
    return rc;
}

int erf_make_variations(const char *study, const erf_variations_request *q,
                        erf_variations_made *out, cs_error *err) {
    memset(out, 0, sizeof *out);
    cs_db *db = NULL;
    erf_rupture_key *keys = NULL;
    long long erf_id;
    double span;
    int rc;
    CS_CALL_GOTO(rc, err, cs_db_open_current(study, &db, err), done);
    CS_CALL_GOTO(rc, err, erf_db_find(db, q->name, &erf_id, &span, err), done);
    CS_CALL_GOTO(rc, err, erf_db_rupture_keys(db, erf_id, &keys, &out->nruptures, err), done);
    CS_CALL_GOTO(rc, err, cs_db_begin(db, err), done);
    rc = variations_in_transaction(db, erf_id, keys, q, out, err);
    if (!rc)
        rc = cs_db_commit(db, err);
    else
        cs_db_rollback(db);
    if (rc) CS_TRACE(err);
done:
    free(keys);
    cs_db_close(db);
    return rc;
}
