#include "extract_study.h"

#include "extract_message.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cs_atomic.h"
#include "cs_db_cache.h"
#include "cs_fault.h"
#include "cs_geo.h"
#include "cs_log.h"
#include "cs_sha256.h"
#include "cs_sites.h"
#include "cs_strutil.h"
#include "erf_db.h"
#include "sgt_set.h"

static int find_scenario(master *m, const char *name, rupgen_params *gen, cs_error *err) {
    sqlite3_stmt *st;
    if (cs_db_prepare(
            m->db,
            "SELECT Rup_Var_Scenario_ID, coalesce(Parameters, '') FROM "
            "Rupture_Variation_Scenario_IDs WHERE ERF_ID = ? AND Rup_Var_Scenario_Name = ?",
            &st, err)) {
        CS_TRACE(err);
        return -1; /* not a status: 1 means "no such scenario", so a failure is -1 (err set) */
    }
    sqlite3_bind_int64(st, 1, m->erf_id);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st), out = 1;
    if (rc == SQLITE_ROW) {
        m->scen_id = sqlite3_column_int64(st, 0);
        out = rupgen_params_parse((const char *)sqlite3_column_text(st, 1), gen, err) ? -1 : 0;
    } else if (rc != SQLITE_DONE) {
        cs_db_fail(m->db, "looking up the variation scenario", err);
        out = -1;
    }
    sqlite3_finalize(st);
    return out;
}

static int create_scenario(master *m, const char *name, const rupgen_params *gen, cs_error *err) {
    char params[1024];
    rupgen_params_format(gen, params, sizeof params);
    sqlite3_stmt *st;
    CS_CALL(err, cs_db_prepare(
                     m->db,
                     "INSERT INTO Rupture_Variation_Scenario_IDs (ERF_ID, Rup_Var_Scenario_Name, "
                     "Rup_Var_Scenario_Description, Generator, Parameters, Seed) VALUES "
                     "(?, ?, 'Graves-Pitarka-like kinematic generator (in memory, SGT material)', "
                     "'cybershake rupgen 1', ?, ?)",
                     &st, err));
    sqlite3_bind_int64(st, 1, m->erf_id);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, params, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)gen->seed);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return cs_db_fail(m->db, "adding the variation scenario", err);
    m->scen_id = sqlite3_last_insert_rowid(cs_db_handle(m->db));
    return 0;
}

/* A new run: site, forecast, scenario, SGT files recorded with their checksums. */
static int new_run(master *m, const extract_options *o, run_config *cfg, const sgt_set *sgt,
                   cs_error *err) {
    cs_site site;
    double span;
    CS_CALL(err, cs_sites_find(m->db, o->site, &site, err));
    CS_CALL(err, erf_db_find(m->db, o->erf, &m->erf_id, &span, err));
    m->site_id = site.id;
    double d = cs_geo_distance(site.lon, site.lat, sgt->site_lon, sgt->site_lat);
    if (d > sgt->h)
        return cs_error_input(err, sgt->path[0], "source_node", NULL,
                              "the SGT's force lies %.0f m from site %s (%.6f, %.6f): these SGTs "
                              "are not this site's",
                              d, o->site, site.lon, site.lat);
    CS_CALL(err, cs_db_begin(m->db, err));
    int rc = 0;
    char scen[160];
    if (o->scenario[0]) {
        cs_copy(scen, sizeof scen, o->scenario);
        int found = find_scenario(m, scen, &cfg->gen, err);
        if (found == 1)
            rc = cs_error_input(err, m->db ? cs_db_path(m->db) : "", "scenario", scen,
                                "no such variation scenario for forecast %s", o->erf);
        else if (found < 0)
            rc = err->status, CS_TRACE(err); /* find_scenario filled err */
    } else {
        cfg->gen = o->gen;
        snprintf(scen, sizeof scen, "gp-%llu", o->gen.seed);
        rupgen_params have;
        int found = find_scenario(m, scen, &have, err);
        if (found < 0) rc = err->status, CS_TRACE(err); /* find_scenario filled err */
        if (found == 1) rc = create_scenario(m, scen, &o->gen, err);
        if (found == 0) {
            char a[1024], b[1024];
            rupgen_params_format(&have, a, sizeof a);
            rupgen_params_format(&o->gen, b, sizeof b);
            if (strcmp(a, b))
                rc = cs_error_input(err, cs_db_path(m->db), "scenario", scen,
                                    "exists with other generator parameters (%s); name another "
                                    "with --scenario or give the same",
                                    a);
            cfg->gen = have;
        }
    }
    sqlite3_stmt *st = NULL;
    /* A run the workflow opened (o->run_id, no scenario yet) is taken over, not duplicated. */
    if (!rc && o->run_id > 0)
        rc = cs_db_prepare(m->db,
                           "UPDATE CyberShake_Runs SET Site_ID = ?, ERF_ID = ?, "
                           "Rup_Var_Scenario_ID = ?, Status = 'PP Started', Status_Time = "
                           "strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), Max_Frequency = ?, "
                           "SGT_Source_Filter_Frequency = ? WHERE Run_ID = ?",
                           &st, err);
    else if (!rc)
        rc = cs_db_prepare(m->db,
                           "INSERT INTO CyberShake_Runs (Site_ID, ERF_ID, Rup_Var_Scenario_ID, "
                           "Status, Status_Time, Max_Frequency, SGT_Source_Filter_Frequency, "
                           "Comment) VALUES (?, ?, ?, 'PP Started', strftime('%Y-%m-%dT%H:%M:%SZ', "
                           "'now'), ?, ?, 'cybershake extract')",
                           &st, err);
    if (!rc) {
        sqlite3_bind_int64(st, 1, m->site_id);
        sqlite3_bind_int64(st, 2, m->erf_id);
        sqlite3_bind_int64(st, 3, m->scen_id);
        sqlite3_bind_double(st, 4, sgt->fmax);
        sqlite3_bind_double(st, 5, sgt->fmax);
        if (o->run_id > 0) sqlite3_bind_int64(st, 6, o->run_id);
        if (sqlite3_step(st) != SQLITE_DONE) rc = cs_db_fail(m->db, "adding the run", err);
        m->run_id = o->run_id > 0 ? o->run_id : sqlite3_last_insert_rowid(cs_db_handle(m->db));
    }
    sqlite3_finalize(st);
    static const char *kinds[3] = {"sgt-E", "sgt-N", "sgt-Z"};
    /* an extraction started over (the workflow reset it) may read other files than before */
    if (rc) goto done;
    CS_CALL_GOTO(rc, err, cs_db_forget_run_files(m->db, m->run_id, "sgt-", err), done);
    CS_CALL_GOTO(rc, err, cs_db_forget_run_files(m->db, m->run_id, "seismograms", err), done);
    for (int q = 0; q < 3 && !rc; q++) {
        cfg->sgt[q][0] = '\0';
        if (!sgt->has_force[q]) continue; /* a horizontal-only set: no Z */
        char sha[CS_SHA256_HEX], *abs = realpath(sgt->path[q], NULL);
        /* the file's own checksum, when it has one, before the study records it */
        int v = cs_sha256_sidecar_verify(sgt->path[q], sha, err);
        rc = v < 0 ? -1 : v == 0 ? cs_sha256_file(sgt->path[q], sha, err) : 0;
        if (!rc)
            rc = cs_db_record_file(m->db, abs ? abs : sgt->path[q], sha, cs_file_size(sgt->path[q]),
                                   kinds[q], m->run_id, err);
        cs_copy(cfg->sgt[q], sizeof cfg->sgt[q], abs ? abs : sgt->path[q]);
        free(abs);
    }
done:
    if (!rc)
        rc = cs_db_commit(m->db, err);
    else
        cs_db_rollback(m->db);
    return rc;
}

/* An existing run: its site, forecast and scenario, and its SGT files verified. */
static int old_run(master *m, const extract_options *o, run_config *cfg, cs_error *err) {
    sqlite3_stmt *st;
    CS_CALL(err,
            cs_db_prepare(m->db,
                          "SELECT Site_ID, ERF_ID, Rup_Var_Scenario_ID, coalesce(Max_Frequency, 0) "
                          "FROM CyberShake_Runs WHERE Run_ID = ?",
                          &st, err));
    sqlite3_bind_int64(st, 1, o->run_id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        m->site_id = sqlite3_column_int64(st, 0);
        m->erf_id = sqlite3_column_int64(st, 1);
        m->scen_id = sqlite3_column_int64(st, 2);
        m->fmax = sqlite3_column_double(st, 3);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW)
        return cs_error_input(err, cs_db_path(m->db), "Run_ID", NULL,
                              "no run %lld in the study ('cybershake extract --help' says how to "
                              "start one)",
                              o->run_id);
    m->run_id = o->run_id;
    CS_CALL(err, cs_db_prepare(
                     m->db,
                     "SELECT coalesce(Parameters, '') FROM Rupture_Variation_Scenario_IDs WHERE "
                     "Rup_Var_Scenario_ID = ?",
                     &st, err));
    sqlite3_bind_int64(st, 1, m->scen_id);
    if (sqlite3_step(st) != SQLITE_ROW) {
        sqlite3_finalize(st);
        return cs_error_input(err, cs_db_path(m->db), "Rup_Var_Scenario_ID", NULL,
                              "run %lld names scenario %lld, which is not in the study", o->run_id,
                              m->scen_id);
    }
    rc = rupgen_params_parse((const char *)sqlite3_column_text(st, 0), &cfg->gen, err);
    sqlite3_finalize(st);
    if (rc) {
        CS_TRACE(err);
        return rc;
    }
    static const char *kinds[3] = {"sgt-E", "sgt-N", "sgt-Z"};
    for (int q = 0; q < 3; q++) {
        cfg->sgt[q][0] = '\0';
        CS_CALL(err, cs_db_prepare(
                         m->db, "SELECT Path, SHA256 FROM Run_Files WHERE Run_ID = ? AND Kind = ?",
                         &st, err));
        sqlite3_bind_int64(st, 1, m->run_id);
        sqlite3_bind_text(st, 2, kinds[q], -1, SQLITE_STATIC);
        char want[CS_SHA256_HEX] = "";
        if (sqlite3_step(st) == SQLITE_ROW) {
            cs_copy(cfg->sgt[q], sizeof cfg->sgt[q], (const char *)sqlite3_column_text(st, 0));
            cs_copy(want, sizeof want, (const char *)sqlite3_column_text(st, 1));
        }
        sqlite3_finalize(st);
        if (!want[0] && q == 2) continue; /* a horizontal-only run: forces E and N */
        if (!want[0])
            return cs_error_input(err, cs_db_path(m->db), "Files", kinds[q],
                                  "run %lld has no %s file recorded", m->run_id, kinds[q]);
        char sha[CS_SHA256_HEX];
        CS_CALL(err, cs_sha256_file(cfg->sgt[q], sha, err));
        if (strcmp(sha, want))
            return cs_error_input(err, cfg->sgt[q], "SHA-256", sha,
                                  "differs from the %s recorded with run %lld (%s): the file "
                                  "changed since; it is not used",
                                  want, m->run_id, kinds[q]);
    }
    return 0;
}

/* --sgt given to a run that has started: the files must be the ones it recorded. */
static int same_sgt_files(const master *m, const extract_options *o, const run_config *cfg,
                          cs_error *err) {
    for (int q = 0; q < 3; q++) {
        if (!o->sgt[q][0] && !cfg->sgt[q][0]) continue;
        char *abs = o->sgt[q][0] ? realpath(o->sgt[q], NULL) : NULL;
        int same = abs && !strcmp(abs, cfg->sgt[q]);
        free(abs);
        if (!same)
            return cs_error_input(err, o->sgt[q][0] ? o->sgt[q] : "--sgt", "--sgt", NULL,
                                  "run %lld has started extracting from %s; it resumes with "
                                  "those SGT files (give the same, or none)",
                                  m->run_id, cfg->sgt[q][0] ? cfg->sgt[q] : "no such file");
    }
    return 0;
}

static int register_ims(master *m, const im_config *ims, cs_error *err) {
    CS_CALL(err, im_types(ims, &m->types, &m->nim, err));
    m->type_ids = malloc(sizeof(long long) * (size_t)m->nim);
    if (!m->type_ids) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    sqlite3_stmt *ins, *sel;
    CS_CALL(err, cs_db_begin(m->db, err));
    int rc = cs_db_prepare(m->db,
                           "INSERT OR IGNORE INTO IM_Types (IM_Type_Measure, IM_Type_Value, "
                           "IM_Type_Units, IM_Type_Component) VALUES (?, ?, ?, ?)",
                           &ins, err);
    if (rc) {
        cs_db_rollback(m->db);
        CS_TRACE(err);
        return rc;
    }
    rc = cs_db_prepare(m->db,
                       "SELECT IM_Type_ID, IM_Type_Units FROM IM_Types WHERE IM_Type_Measure = ? "
                       "AND IM_Type_Value IS ? AND IM_Type_Component = ?",
                       &sel, err);
    for (int i = 0; i < m->nim && !rc; i++) {
        const im_type *t = &m->types[i];
        sqlite3_reset(ins);
        sqlite3_reset(sel);
        sqlite3_bind_text(ins, 1, t->measure, -1, SQLITE_STATIC);
        sqlite3_bind_text(sel, 1, t->measure, -1, SQLITE_STATIC);
        if (t->period > 0) {
            sqlite3_bind_double(ins, 2, t->period);
            sqlite3_bind_double(sel, 2, t->period);
        } else {
            sqlite3_bind_null(ins, 2);
            sqlite3_bind_null(sel, 2);
        }
        sqlite3_bind_text(ins, 3, t->units, -1, SQLITE_STATIC);
        sqlite3_bind_text(ins, 4, t->component, -1, SQLITE_STATIC);
        sqlite3_bind_text(sel, 3, t->component, -1, SQLITE_STATIC);
        if (sqlite3_step(ins) != SQLITE_DONE) rc = cs_db_fail(m->db, "adding IM types", err);
        if (!rc && sqlite3_step(sel) == SQLITE_ROW) {
            m->type_ids[i] = sqlite3_column_int64(sel, 0);
            if (strcmp((const char *)sqlite3_column_text(sel, 1), t->units))
                rc = cs_error_input(err, cs_db_path(m->db), "IM_Types", t->measure,
                                    "is recorded in %s, the extractor writes %s",
                                    (const char *)sqlite3_column_text(sel, 1), t->units);
        } else if (!rc) {
            rc = cs_db_fail(m->db, "reading IM types", err);
        }
    }
    sqlite3_finalize(ins);
    sqlite3_finalize(sel);
    if (rc) {
        cs_db_rollback(m->db);
        return rc;
    }
    return cs_db_commit(m->db, err);
}

static int cmp_todo(const void *a, const void *b) {
    const todo_item *x = a, *y = b;
    if (x->cost != y->cost) return x->cost < y->cost ? 1 : -1;
    if (x->source != y->source) return x->source < y->source ? -1 : 1;
    return (x->rupture > y->rupture) - (x->rupture < y->rupture);
}

/* The site's ruptures not yet finished in this run, largest first. */
static int list_todo(master *m, cs_error *err) {
    sqlite3_stmt *st;
    CS_CALL(err, cs_db_prepare(
                     m->db,
                     "SELECT sr.Source_ID, sr.Rupture_ID, r.Num_Points, "
                     "(SELECT count(*) FROM Extraction_Ruptures e WHERE e.Run_ID = ? AND "
                     " e.Source_ID = sr.Source_ID AND e.Rupture_ID = sr.Rupture_ID) "
                     "FROM CyberShake_Site_Ruptures sr JOIN Ruptures r ON r.ERF_ID = sr.ERF_ID "
                     "AND r.Source_ID = sr.Source_ID AND r.Rupture_ID = sr.Rupture_ID "
                     "WHERE sr.CS_Site_ID = ? AND sr.ERF_ID = ?",
                     &st, err));
    sqlite3_bind_int64(st, 1, m->run_id);
    sqlite3_bind_int64(st, 2, m->site_id);
    sqlite3_bind_int64(st, 3, m->erf_id);
    long cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        m->ntotal++;
        if (sqlite3_column_int(st, 3)) {
            m->ndone_before++;
            continue;
        }
        if (m->ntodo == cap) {
            cap = cap ? 2 * cap : 256;
            todo_item *g = realloc(m->todo, sizeof *g * (size_t)cap);
            if (!g) {
                sqlite3_finalize(st);
                return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
            }
            m->todo = g;
        }
        m->todo[m->ntodo++] = (todo_item){sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
                                          sqlite3_column_int64(st, 2)};
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return cs_db_fail(m->db, "listing the site's ruptures", err);
    if (m->ntotal == 0)
        return cs_error_input(err, cs_db_path(m->db), "CyberShake_Site_Ruptures", NULL,
                              "the run's site has no ruptures on its forecast: plan it first "
                              "(cybershake plan)");
    if (m->ntodo > 0) qsort(m->todo, (size_t)m->ntodo, sizeof *m->todo, cmp_todo);
    return 0;
}

/* A run `cybershake run` opened before its extraction (no variation scenario yet): its site
 * and forecast go into the options, and *opened says so. */
static int run_opened_by_workflow(master *m, extract_options *o, int *opened, cs_error *err) {
    sqlite3_stmt *st;
    CS_CALL(err,
            cs_db_prepare(m->db,
                          "SELECT s.CS_Short_Name, e.ERF_Name, r.Rup_Var_Scenario_ID IS NULL FROM "
                          "CyberShake_Runs r JOIN CyberShake_Sites s ON s.CS_Site_ID = r.Site_ID "
                          "JOIN ERF_IDs e ON e.ERF_ID = r.ERF_ID WHERE r.Run_ID = ?",
                          &st, err));
    sqlite3_bind_int64(st, 1, o->run_id);
    *opened = 0;
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 2)) {
        cs_copy(o->site, sizeof o->site, (const char *)sqlite3_column_text(st, 0));
        cs_copy(o->erf, sizeof o->erf, (const char *)sqlite3_column_text(st, 1));
        *opened = 1;
    }
    sqlite3_finalize(st);
    return 0;
}

int extract_study_prepare(master *m, const extract_options *o, run_config *cfg, cs_error *err) {
    CS_CALL(err, cs_db_open_current(o->study, &m->db, err));
    extract_options taken = *o;
    int opened = 0;
    if (o->run_id > 0) CS_CALL(err, run_opened_by_workflow(m, &taken, &opened, err));
    if (o->run_id > 0 && !opened) {
        CS_CALL(err, old_run(m, o, cfg, err));
        /* A resumed run reads the SGT files it started with; --sgt may name them again (the
         * workflow always does) but not others. */
        if (o->sgt[0][0]) CS_CALL(err, same_sgt_files(m, o, cfg, err));
    } else {
        if (!o->sgt[0][0])
            return cs_error_input(err, cs_db_path(m->db), "Run_ID", NULL,
                                  "run %lld has no extraction yet: give its SGT files (--sgt)",
                                  o->run_id);
        sgt_set sgt;
        CS_CALL(err, sgt_set_open_list(&sgt, o->sgt, err));
        /* the band is the SGTs': periods outside it are refused before the run is recorded */
        m->fmax = sgt.fmax;
        im_config band = o->ims;
        int rc;
        CS_CALL_GOTO(rc, err, im_config_band(&band, m->fmax, err), close_sgt);
        CS_CALL_GOTO(rc, err, new_run(m, &taken, cfg, &sgt, err), close_sgt);
    close_sgt:
        sgt_set_close(&sgt);
        if (rc) return rc;
    }
    cfg->run_id = m->run_id;
    /* the site's name goes into the seismogram file (SAC's station) */
    sqlite3_stmt *st;
    CS_CALL(err,
            cs_db_prepare(m->db, "SELECT CS_Short_Name FROM CyberShake_Sites WHERE CS_Site_ID = ?",
                          &st, err));
    sqlite3_bind_int64(st, 1, m->site_id);
    if (sqlite3_step(st) == SQLITE_ROW)
        cs_copy(m->site_name, sizeof m->site_name, (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    cfg->ims = o->ims;
    /* no Z force, no vertical measure: nothing is reported for a component not simulated */
    cfg->ims.vertical = cfg->sgt[2][0] != '\0';
    /* nor a measure outside the run's band (formats/im_band.h): not computed, not stored */
    CS_CALL(err, im_config_band(&cfg->ims, m->fmax, err));
    cfg->method = o->method;
    cfg->want_seis = o->seismograms[0] != 0;
    cfg->max_memory = o->max_memory_gb * 1e9;
    cfg->backend = o->backend;
    cs_copy(m->seis_path, sizeof m->seis_path, o->seismograms);
    CS_CALL(err, list_todo(m, err));
    return extract_study_recorder(m, &cfg->ims, err);
}

/* INSERT of one variation's rows: nim rows of 6 values. OR FAIL, not the default ABORT: an
 * aborting statement keeps a journal of every page it changes, so as to undo its own rows, and
 * one variation's rows touch a page of the (Run_ID, IM_Type_ID) index per IM type, past the
 * 64 KB the engine keeps in memory: the journal went to a temporary file, 5.4 M page writes for
 * 2.2 M rows (now 73,000), and 6.7 M rows (3,000 ruptures x 30 variations x 74 IM types) took
 * 31-54 s to record (now 17-19 s). A failed row fails the rupture, and the batch's transaction
 * is then rolled back whole. */
static int prepare_variation_insert(master *m, cs_error *err) {
    size_t size = 160 + 20 * (size_t)m->nim;
    char *sql = malloc(size);
    if (!sql) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    int len =
        snprintf(sql, size,
                 "INSERT OR FAIL INTO PeakAmplitudes (Run_ID, Source_ID, Rupture_ID, Rup_Var_ID, "
                 "IM_Type_ID, IM_Value) VALUES ");
    for (int i = 0; i < m->nim; i++)
        len += snprintf(sql + len, size - (size_t)len, "%s(?,?,?,?,?,?)", i ? "," : "");
    int rc = cs_db_prepare(m->db, sql, &m->ins_pa_var, err);
    free(sql);
    return rc;
}

int extract_study_recorder(master *m, const im_config *ims, cs_error *err) {
    CS_CALL(err, register_ims(m, ims, err));
    /* The rows this connection writes reference the run, the IM types and the ruptures it has
     * just read or registered itself: a foreign-key lookup per row (two per amplitude) checks
     * nothing, and cost a third of recording a production site. */
    CS_CALL(err, cs_db_exec(m->db, "PRAGMA foreign_keys = OFF", err));
    /* a batch's pages stay in memory until it commits (with the default 2 MB cache they were
     * spilled to the log and written again, most of a 20 M-row site's time) */
    CS_CALL(err, cs_db_exec(m->db, "PRAGMA cache_size = -262144", err));
    CS_CALL(err, prepare_variation_insert(m, err));
    sqlite3_stmt *st;
    CS_CALL(err, cs_db_prepare(
                     m->db,
                     "SELECT count(*) FROM Rupture_Variations WHERE Rup_Var_Scenario_ID = ? AND "
                     "Rup_Var_LFN IS NOT NULL",
                     &st, err));
    sqlite3_bind_int64(st, 1, m->scen_id);
    if (sqlite3_step(st) == SQLITE_ROW) m->scen_has_files = sqlite3_column_int(st, 0) > 0;
    sqlite3_finalize(st);
    CS_CALL(err,
            cs_db_prepare(m->db,
                          "INSERT INTO PeakAmplitudes (Run_ID, Source_ID, Rupture_ID, Rup_Var_ID, "
                          "IM_Type_ID, IM_Value) VALUES (?, ?, ?, ?, ?, ?)",
                          &m->ins_pa, err));
    CS_CALL(err,
            cs_db_prepare(m->db,
                          "INSERT OR IGNORE INTO Rupture_Variations (Rup_Var_Scenario_ID, ERF_ID, "
                          "Source_ID, Rupture_ID, Rup_Var_ID, Hypocenter_Lat, Hypocenter_Lon, "
                          "Hypocenter_Depth, Slip_Realisation) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                          &m->ins_rv, err));
    CS_CALL(err, cs_db_prepare(m->db,
                               "INSERT INTO Extraction_Ruptures (Run_ID, Source_ID, Rupture_ID, "
                               "Num_Variations, Finished_At) VALUES (?, ?, ?, ?, "
                               "strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
                               &m->ins_done, err));
    CS_CALL(err, cs_db_prepare(
                     m->db,
                     "SELECT Rup_Var_LFN FROM Rupture_Variations WHERE Rup_Var_Scenario_ID = ? "
                     "AND Source_ID = ? AND Rupture_ID = ? ORDER BY Rup_Var_ID",
                     &m->lfns, err));
    return 0;
}

void extract_study_close(master *m) {
    /* a batch still open here belongs to a run that failed: it is not kept */
    if (m->batch_open) cs_db_rollback(m->db);
    m->batch_open = 0;
    sqlite3_finalize(m->ins_pa);
    sqlite3_finalize(m->ins_pa_var);
    sqlite3_finalize(m->ins_rv);
    sqlite3_finalize(m->ins_done);
    sqlite3_finalize(m->lfns);
    cs_db_close(m->db);
    free(m->types);
    free(m->type_ids);
    free(m->todo);
}

/* The task message of one rupture: header, geometry, SRF paths when the scenario has files. */
int extract_study_build_task(master *m, const run_config *cfg, const todo_item *t, char **buf,
                             long *size, cs_error *err) {
    erf_rupture r;
    CS_CALL(err, erf_db_load_rupture(m->db, m->erf_id, t->source, t->rupture, &r, err));
    task_header h = {t->source, t->rupture,  r.nrows,      r.ncols, 0,
                     0,         r.magnitude, r.spacing_km, r.prob,  0};
    char *lfn = NULL;
    long lfn_len = 0, cap = 0;
    if (m->scen_has_files) {
        sqlite3_reset(m->lfns);
        sqlite3_bind_int64(m->lfns, 1, m->scen_id);
        sqlite3_bind_int64(m->lfns, 2, t->source);
        sqlite3_bind_int64(m->lfns, 3, t->rupture);
        while (sqlite3_step(m->lfns) == SQLITE_ROW) {
            const char *p = (const char *)sqlite3_column_text(m->lfns, 0);
            if (!p) {
                free(lfn);
                erf_rupture_free(&r);
                return cs_error_input(err, cs_db_path(m->db), "Rup_Var_LFN", NULL,
                                      "source %lld rupture %lld: variation %d has no SRF file "
                                      "while others of the scenario do",
                                      t->source, t->rupture, h.nvar);
            }
            long n = (long)strlen(p) + 1;
            if (lfn_len + n > cap) {
                cap = 2 * (lfn_len + n) + 4096;
                char *g = realloc(lfn, (size_t)cap);
                if (!g) {
                    free(lfn);
                    erf_rupture_free(&r);
                    return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
                }
                lfn = g;
            }
            memcpy(lfn + lfn_len, p, (size_t)n);
            lfn_len += n;
            h.nvar++;
        }
        h.from_files = 1;
        if (h.nvar == 0) {
            free(lfn);
            erf_rupture_free(&r);
            return cs_error_input(err, cs_db_path(m->db), "Rupture_Variations", NULL,
                                  "source %lld rupture %lld has no variations in the run's "
                                  "scenario",
                                  t->source, t->rupture);
        }
    } else {
        rupgen_layout lay;
        int rc = rupgen_plan(&r, &cfg->gen, &lay, err);
        if (rc) {
            erf_rupture_free(&r);
            CS_TRACE(err);
            return rc;
        }
        h.nvar = lay.nvariations;
    }
    h.lfn_bytes = lfn_len;
    long n = erf_rupture_npoints(&r);
    *size = (long)sizeof h + 6 * n * (long)sizeof(double) + lfn_len;
    *buf = malloc((size_t)*size);
    if (!*buf) {
        free(lfn);
        erf_rupture_free(&r);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    }
    char *p = *buf;
    memcpy(p, &h, sizeof h);
    p += sizeof h;
    const double *cols[6] = {r.lat, r.lon, r.dep, r.rake, r.dip, r.stk};
    for (int c = 0; c < 6; c++) {
        memcpy(p, cols[c], sizeof(double) * (size_t)n);
        p += sizeof(double) * (size_t)n;
    }
    if (lfn_len) memcpy(p, lfn, (size_t)lfn_len);
    free(lfn);
    erf_rupture_free(&r);
    return 0;
}

/* Records a finished rupture: its seismogram part, then its rows in the open batch (committed
 * every EXTRACT_BATCH_ROWS rows, with the rupture marked done in the same transaction). */
static int commit_result(master *m, const result_header *h, const double *hypo, const double *ims,
                         const float *seis, int from_files, cs_error *err) {
    if (seis && m->seis_path[0]) {
        char dir[4200];
        seis_parts_dir(m->seis_path, dir, sizeof dir);
        CS_CALL(err, seis_write_part(dir, h->source, h->rupture, h->nvar, &m->meta, seis, err));
    }
    if (!m->batch_open) CS_CALL(err, cs_db_begin(m->db, err));
    m->batch_open = 1;
    int rc = 0;
    for (int v = 0; v < h->nvar && !rc; v++) {
        if (!from_files) {
            sqlite3_stmt *st = m->ins_rv;
            sqlite3_reset(st);
            sqlite3_bind_int64(st, 1, m->scen_id);
            sqlite3_bind_int64(st, 2, m->erf_id);
            sqlite3_bind_int64(st, 3, h->source);
            sqlite3_bind_int64(st, 4, h->rupture);
            sqlite3_bind_int(st, 5, v);
            for (int q = 0; q < 3; q++)
                sqlite3_bind_double(st, 6 + q, hypo[4 * v + q]);
            sqlite3_bind_int(st, 9, (int)hypo[4 * v + 3]);
            if (sqlite3_step(st) != SQLITE_DONE) rc = cs_db_fail(m->db, "adding a variation", err);
        }
        for (int i = 0; i < h->nim && !rc; i++) {
            double val = ims[(size_t)v * h->nim + i];
            if (!isfinite(val))
                rc = cs_error_set(err, CS_ERR_INTERNAL,
                                  "source %lld rupture %lld variation %d: %s %s is %g", h->source,
                                  h->rupture, v, m->types[i].measure, m->types[i].component, val);
        }
        /* a variation's measures in one statement (the engine's per-statement work once, not
         * once per row: a production site records ~20 M rows) */
        sqlite3_stmt *st = h->nim == m->nim ? m->ins_pa_var : NULL;
        if (!rc && !st)
            rc = cs_error_set(err, CS_ERR_INTERNAL, "a result of %d IM types, the run has %d",
                              h->nim, m->nim);
        if (!rc) sqlite3_reset(st);
        for (int i = 0; i < h->nim && !rc; i++) {
            int b = 6 * i;
            sqlite3_bind_int64(st, b + 1, m->run_id);
            sqlite3_bind_int64(st, b + 2, h->source);
            sqlite3_bind_int64(st, b + 3, h->rupture);
            sqlite3_bind_int(st, b + 4, v);
            sqlite3_bind_int64(st, b + 5, m->type_ids[i]);
            sqlite3_bind_double(st, b + 6, ims[(size_t)v * h->nim + i]);
        }
        if (!rc && sqlite3_step(st) != SQLITE_DONE)
            rc = cs_db_fail(m->db, "adding the amplitudes", err);
    }
    if (!rc) {
        /* the hazard stage's per-rupture arrays of this run are stale now */
        rc = cs_db_cache_invalidate(m->db, m->run_id, err);
    }
    if (!rc) {
        sqlite3_stmt *st = m->ins_done;
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, m->run_id);
        sqlite3_bind_int64(st, 2, h->source);
        sqlite3_bind_int64(st, 3, h->rupture);
        sqlite3_bind_int(st, 4, h->nvar);
        if (sqlite3_step(st) != SQLITE_DONE) rc = cs_db_fail(m->db, "recording the rupture", err);
    }
    if (rc) {
        /* the batch goes: its ruptures are not marked done, a resumed run does them again */
        cs_db_rollback(m->db);
        m->batch_open = 0, m->batch_rows = 0;
        return rc;
    }
    m->batch_rows += (long)h->nvar * h->nim;
    /* fault injection for the restart tests: die like a killed node once N ruptures are
     * recorded */
    static long recorded = 0;
    const char *kill_after = getenv("CYBERSHAKE_FAULT_KILL_AFTER_RUPTURES");
    int kill_now = kill_after && ++recorded >= atol(kill_after);
    cs_fault_point("extract-rupture-recorded");
    if (m->batch_rows >= EXTRACT_BATCH_ROWS || kill_now) CS_CALL(err, extract_study_flush(m, err));
    if (kill_now) raise(SIGKILL);
    return 0;
}

int extract_study_flush(master *m, cs_error *err) {
    if (!m->batch_open) return 0;
    m->batch_open = 0, m->batch_rows = 0;
    return cs_db_commit(m->db, err);
}

/* 1 when the run's seismogram file was made and recorded by an earlier try that was killed
 * before it finished (its parts may be gone): the file at the path, with the recorded checksum. */
static int seismograms_made(master *m, char sha[CS_SHA256_HEX], cs_error *err) {
    char *abs = realpath(m->seis_path, NULL);
    if (!abs) return 0;
    sqlite3_stmt *st;
    if (cs_db_prepare(m->db,
                      "SELECT SHA256 FROM Run_Files WHERE Run_ID = ? AND Path = ? AND Kind = "
                      "'seismograms'",
                      &st, err)) {
        free(abs);
        CS_TRACE(err);
        return -1; /* not a status: 1 means "made", so a failure is -1 (err set) */
    }
    sqlite3_bind_int64(st, 1, m->run_id);
    sqlite3_bind_text(st, 2, abs, -1, SQLITE_TRANSIENT);
    char want[CS_SHA256_HEX] = "";
    if (sqlite3_step(st) == SQLITE_ROW)
        cs_copy(want, sizeof want, (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    free(abs);
    if (!want[0]) return 0;
    if (cs_sha256_file(m->seis_path, sha, err)) {
        CS_TRACE(err);
        return -1; /* err set, as above */
    }
    return !strcmp(sha, want);
}

/* When every rupture is done: the run's seismogram file, its checksum, the run's status. */
int extract_study_finish_run(master *m, cs_error *err) {
    CS_CALL(err, extract_study_flush(m, err));
    if (m->seis_path[0]) {
        sqlite3_stmt *st;
        CS_CALL(err, cs_db_prepare(
                         m->db,
                         "SELECT Source_ID, Rupture_ID FROM Extraction_Ruptures WHERE Run_ID = ? "
                         "ORDER BY Source_ID, Rupture_ID",
                         &st, err));
        sqlite3_bind_int64(st, 1, m->run_id);
        seis_rupture *rups = malloc(sizeof *rups * (size_t)(m->ntotal + 1));
        long n = 0;
        while (rups && sqlite3_step(st) == SQLITE_ROW && n < m->ntotal)
            rups[n++] = (seis_rupture){sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1)};
        sqlite3_finalize(st);
        if (!rups) return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
        char sha[CS_SHA256_HEX];
        long nrec = 0;
        int made = seismograms_made(m, sha, err);
        int rc = made < 0 ? err->status : 0; /* seismograms_made filled err */
        if (!rc && !made) rc = seis_merge(m->seis_path, rups, n, &m->meta, sha, &nrec, err);
        char *abs = rc || made ? NULL : realpath(m->seis_path, NULL);
        if (!rc && !made)
            rc = cs_db_record_file(m->db, abs ? abs : m->seis_path, sha, cs_file_size(m->seis_path),
                                   "seismograms", m->run_id, err);
        free(abs);
        if (!rc) seis_remove_parts(m->seis_path, rups, n);
        free(rups);
        if (rc) {
            CS_TRACE(err);
            return rc;
        }
        if (made)
            cs_log(CS_LOG_INFO, "seismograms: %s was made before (sha256 %s)", m->seis_path, sha);
        else
            cs_log(CS_LOG_INFO, "seismograms: %ld records in %s (sha256 %s)", nrec, m->seis_path,
                   sha);
    }
    sqlite3_stmt *st;
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    CS_CALL(err, cs_db_prepare(m->db,
                               "UPDATE CyberShake_Runs SET Status = 'PP Generated', Status_Time = "
                               "strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), PP_Host = ?, PP_Time = "
                               "strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE Run_ID = ?",
                               &st, err));
    sqlite3_bind_text(st, 1, host, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, m->run_id);
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : cs_db_fail(m->db, "updating the run", err);
    sqlite3_finalize(st);
    return rc;
}

int extract_study_next_task(master *m, const run_config *cfg, task_queue *q, char **msg, long *size,
                            int *count, cs_error *err) {
    char *part[EXTRACT_MESSAGE_MOST];
    long psize[EXTRACT_MESSAGE_MOST];
    int n = 0, vars = 0, rc = 0;
    *msg = NULL;
    *size = 0;
    *count = 0;
    while (n < EXTRACT_MESSAGE_MOST) {
        char *t = q->held;
        long ts = q->held_size;
        q->held = NULL;
        if (!t) {
            if (q->next >= m->ntodo) break;
            if ((rc = extract_study_build_task(m, cfg, &m->todo[q->next], &t, &ts, err))) break;
            q->next++;
        }
        task_header h;
        memcpy(&h, t, sizeof h);
        int alone = h.from_files || h.nvar >= q->group_variations;
        if (n > 0 && (alone || vars + h.nvar > q->group_variations)) {
            q->held = t;
            q->held_size = ts;
            break;
        }
        part[n] = t;
        psize[n++] = ts;
        vars += h.nvar;
        if (alone) break;
    }
    if (!rc && n > 0) rc = extract_message_pack(part, psize, n, msg, size, err);
    for (int i = 0; i < n; i++)
        free(part[i]);
    if (rc) {
        CS_TRACE(err);
        return rc;
    }
    *count = n;
    if (n > 0) q->messages++;
    return 0;
}

void extract_study_queue_free(task_queue *q) {
    free(q->held);
    q->held = NULL;
}

int extract_study_take_result(master *m, const char *res, int from_files, long *nvar,
                              cs_error *err) {
    result_header h;
    memcpy(&h, res, sizeof h);
    if (h.status) return cs_error_set(err, (cs_status)h.status, "%s", h.message);
    const double *hypo = (const double *)(res + sizeof h);
    const double *ims = hypo + 4 * (size_t)h.nvar;
    const float *seis = h.has_seis ? (const float *)(ims + (size_t)h.nvar * h.nim) : NULL;
    *nvar = h.nvar;
    return commit_result(m, &h, hypo, ims, seis, from_files, err);
}
