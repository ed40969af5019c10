/* One run's section of the report (wf_report_html.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cs_strutil.h"
#include "disagg_plot.h"
#include "hazard_curve.h"
#include "hazard_db.h"
#include "hazard_plot.h"
#include "seis_file.h"
#include "uhs_report.h"
#include "wf_report_html.h"

/* The rows of a query (one parameter: the run) as a table, every value escaped; columns named
 * in `head` ("a|b|c"); a column whose name starts with '#' is right-aligned. */
static void query_table(wf_report_ctx *c, const char *sql, long long id, const char *head) {
    sqlite3_stmt *st;
    cs_error err;
    cs_error_clear(&err);
    if (cs_db_prepare(c->db, sql, &st, &err)) {
        wf_report_note(c, "query", &err);
        return;
    }
    sqlite3_bind_int64(st, 1, id);
    char names[512];
    cs_copy(names, sizeof names, head);
    int num[32] = {0}, ncol = 0;
    fprintf(c->html, "<table><tr>");
    for (char *save, *t = strtok_r(names, "|", &save); t && ncol < 32;
         t = strtok_r(NULL, "|", &save)) {
        num[ncol] = t[0] == '#';
        fprintf(c->html, "<th>");
        wf_html(c->html, t + num[ncol]);
        fprintf(c->html, "</th>");
        ncol++;
    }
    fprintf(c->html, "</tr>\n");
    while (sqlite3_step(st) == SQLITE_ROW) {
        fprintf(c->html, "<tr>");
        for (int k = 0; k < ncol && k < sqlite3_column_count(st); k++) {
            fprintf(c->html, num[k] ? "<td class=\"num\">" : "<td>");
            wf_html(c->html, (const char *)sqlite3_column_text(st, k));
            fprintf(c->html, "</td>");
        }
        fprintf(c->html, "</tr>\n");
    }
    sqlite3_finalize(st);
    fprintf(c->html, "</table>\n");
}

/* A curve's label from its dataset's Inputs: the model for GMPE curves. */
static void curve_label(const char *inputs, char *out, size_t size) {
    if (inputs && cs_starts_with(inputs, "GMPE ")) {
        const char *end = strchr(inputs, ',');
        const char *end2 = end ? strchr(end + 1, ',') : NULL;
        int n = (int)((end2 ? end2 : end ? end : inputs + strlen(inputs)) - inputs);
        snprintf(out, size, "%.*s (same ruptures)", n, inputs);
    } else {
        snprintf(out, size, "CyberShake (simulated)");
    }
}

#define MAX_CURVES 7 /* the simulated curve, five GMPE curves and their weighted mean */
#define MAX_PTS    512

/* Every stored curve of the run, one plot an IM type, the simulated curve first. */
static void curves(wf_report_ctx *c, const hazard_run *run) {
    sqlite3_stmt *st, *pts;
    cs_error err;
    cs_error_clear(&err);
    if (cs_db_prepare(c->db,
                      "SELECT h.Hazard_Curve_ID, h.IM_Type_ID, coalesce(d.Inputs, ''), "
                      "d.Time_Span_Years, t.IM_Type_Measure, coalesce(t.IM_Type_Value, 0), "
                      "t.IM_Type_Component, t.IM_Type_Units FROM Hazard_Curves h JOIN "
                      "Hazard_Datasets d USING (Hazard_Dataset_ID) JOIN IM_Types t USING "
                      "(IM_Type_ID) WHERE h.Run_ID = ? ORDER BY h.IM_Type_ID, "
                      "(d.Inputs LIKE 'GMPE%'), h.Hazard_Curve_ID",
                      &st, &err) ||
        cs_db_prepare(c->db,
                      "SELECT X_Value, Y_Value FROM Hazard_Curve_Points WHERE Hazard_Curve_ID = "
                      "? ORDER BY X_Value",
                      &pts, &err)) {
        wf_report_note(c, "hazard curves", &err);
        return;
    }
    sqlite3_bind_int64(st, 1, run->run_id);
    static double x[MAX_CURVES][MAX_PTS], y[MAX_CURVES][MAX_PTS];
    char labels[MAX_CURVES][160], imname[64] = "", units[32] = "";
    plot_curve pc[MAX_CURVES];
    int n = 0, more = sqlite3_step(st) == SQLITE_ROW;
    long long type = -1;
    while (more || n > 0) {
        long long t = more ? sqlite3_column_int64(st, 1) : -2;
        if (n > 0 && t != type) { /* the previous IM type's plot */
            char name[64], path[4200], xlabel[128], title[160], cap[1024];
            snprintf(name, sizeof name, "curve_run%lld_im%lld.png", run->run_id, type);
            wf_report_path(c, name, path, sizeof path);
            snprintf(xlabel, sizeof xlabel, "%s (%s)", imname, units);
            snprintf(title, sizeof title, "%s (run %lld): %s", run->site, run->run_id, imname);
            if (hazard_plot_curves(path, title, xlabel, pc, n, &err)) {
                wf_report_note(c, "hazard curve", &err);
            } else {
                int len = snprintf(cap, sizeof cap,
                                   "Hazard curves of %s, %s (annual probability of exceedance): ",
                                   run->site, imname);
                for (int q = 0; q < n && len > 0 && (size_t)len < sizeof cap; q++)
                    len += snprintf(cap + len, sizeof cap - (size_t)len, "%s%s", q ? ", " : "",
                                    labels[q]);
                wf_report_figure(c, name, cap);
                c->images++;
            }
            n = 0;
        }
        if (!more) break;
        type = t;
        if (n < MAX_CURVES) {
            hazard_im im = {"", sqlite3_column_double(st, 5), ""};
            cs_copy(im.measure, sizeof im.measure, (const char *)sqlite3_column_text(st, 4));
            cs_copy(im.component, sizeof im.component, (const char *)sqlite3_column_text(st, 6));
            hazard_im_name(&im, imname, sizeof imname);
            cs_copy(units, sizeof units, (const char *)sqlite3_column_text(st, 7));
            curve_label((const char *)sqlite3_column_text(st, 2), labels[n], sizeof labels[n]);
            double years = sqlite3_column_double(st, 3);
            sqlite3_reset(pts);
            sqlite3_bind_int64(pts, 1, sqlite3_column_int64(st, 0));
            int k = 0;
            while (k < MAX_PTS && sqlite3_step(pts) == SQLITE_ROW) {
                x[n][k] = sqlite3_column_double(pts, 0);
                y[n][k] = hazard_annual(sqlite3_column_double(pts, 1), years > 0 ? years : 1);
                k++;
            }
            if (k >= 2) pc[n] = (plot_curve){labels[n], x[n], y[n], k}, n++;
        }
        more = sqlite3_step(st) == SQLITE_ROW;
    }
    sqlite3_finalize(st);
    sqlite3_finalize(pts);
}

static void uhs(wf_report_ctx *c, const hazard_run *run) {
    char name[64], path[4200], id[32], *text = NULL;
    size_t len = 0;
    snprintf(name, sizeof name, "uhs_run%lld.png", run->run_id);
    wf_report_path(c, name, path, sizeof path);
    snprintf(id, sizeof id, "%lld", run->run_id);
    uhs_request rq = {.study = c->study, .run = id, .npoe = 2, .component = "RotD50", .plot = path};
    rq.poe[0] = "2% in 50 yr", rq.poe[1] = "10% in 50 yr";
    FILE *f = open_memstream(&text, &len);
    if (!f) return;
    cs_error err;
    cs_error_clear(&err);
    int rc = hazard_uhs_report(&rq, f, &err);
    fclose(f);
    if (rc) {
        wf_report_note(c, "uniform hazard spectrum", &err);
    } else {
        char cap[160];
        snprintf(cap, sizeof cap, "Uniform hazard spectrum of %s (run %lld), SA RotD50", run->site,
                 run->run_id);
        wf_report_figure(c, name, cap);
        c->images++;
        /* the table, without the line naming the plot's temporary path */
        char *p = strstr(text, "  plot: ");
        if (p) *p = 0;
        fprintf(c->html, "<pre>");
        wf_html(c->html, text);
        fprintf(c->html, "</pre>\n");
    }
    free(text);
}

static void disaggregations(wf_report_ctx *c, const hazard_run *run) {
    sqlite3_stmt *st;
    cs_error err;
    cs_error_clear(&err);
    if (cs_db_prepare(c->db,
                      "SELECT Disagg_ID, Target FROM Disaggregations WHERE Run_ID = ? ORDER BY "
                      "IM_Type_ID, Annual_Poe, Disagg_ID",
                      &st, &err)) {
        wf_report_note(c, "disaggregations", &err);
        return;
    }
    sqlite3_bind_int64(st, 1, run->run_id);
    int any = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        long long id = sqlite3_column_int64(st, 0);
        char name[64], path[4200], cap[160];
        snprintf(name, sizeof name, "disagg_%lld.png", id);
        wf_report_path(c, name, path, sizeof path);
        cs_error_clear(&err);
        any = 1;
        fprintf(c->html, "<div>\n");
        if (disagg_plot_stored(c->db, id, path, &err)) {
            wf_report_note(c, "disaggregation", &err);
        } else {
            snprintf(cap, sizeof cap, "Disaggregation %lld (%s): share by M, Rrup and epsilon", id,
                     (const char *)sqlite3_column_text(st, 1));
            wf_report_figure(c, name, cap);
            c->images++;
        }
        query_table(c,
                    "SELECT dr.Source_ID, dr.Rupture_ID, coalesce(r.Source_Name, ''), "
                    "printf('%.2f', r.Magnitude), printf('%.2f', 100 * dr.Contribution) FROM "
                    "Disagg_Ruptures dr JOIN Disaggregations d USING (Disagg_ID) JOIN "
                    "CyberShake_Runs cr ON cr.Run_ID = d.Run_ID LEFT JOIN Ruptures r ON "
                    "r.ERF_ID = cr.ERF_ID AND r.Source_ID = dr.Source_ID AND r.Rupture_ID = "
                    "dr.Rupture_ID WHERE dr.Disagg_ID = ? ORDER BY dr.Contribution DESC LIMIT 5",
                    id, "#source|#rupture|fault|#M|#share %");
        fprintf(c->html, "</div>\n");
    }
    sqlite3_finalize(st);
    if (!any) fprintf(c->html, "<p>No disaggregation of this run is stored.</p>\n");
}

/* The ruptures that dominate the run's disaggregations, each with variation 0's seismogram. */
static void ruptures(wf_report_ctx *c, const hazard_run *run) {
    sqlite3_stmt *st;
    cs_error err;
    cs_error_clear(&err);
    char seis[4096] = "";
    if (!cs_db_prepare(c->db,
                       "SELECT Path FROM Run_Files WHERE Run_ID = ? AND Kind = 'seismograms' "
                       "ORDER BY Recorded_At DESC LIMIT 1",
                       &st, &err)) {
        sqlite3_bind_int64(st, 1, run->run_id);
        if (sqlite3_step(st) == SQLITE_ROW)
            cs_copy(seis, sizeof seis, (const char *)sqlite3_column_text(st, 0));
        sqlite3_finalize(st);
    }
    if (!seis[0]) {
        fprintf(c->html, "<p>The run records no seismogram file (Run_Files, kind "
                         "'seismograms').</p>\n");
        return;
    }
    fprintf(c->html, "<p>Seismograms of variation 0 of each rupture from <code>");
    wf_html(c->html, seis);
    fprintf(c->html, "</code> (velocity, E, N and Z up).</p>\n");
    if (cs_db_prepare(c->db,
                      "SELECT dr.Source_ID, dr.Rupture_ID, max(dr.Contribution), "
                      "coalesce((SELECT Source_Name FROM Ruptures r WHERE r.ERF_ID = ?2 AND "
                      "r.Source_ID = dr.Source_ID AND r.Rupture_ID = dr.Rupture_ID), ''), "
                      "(SELECT Magnitude FROM Ruptures r WHERE r.ERF_ID = ?2 AND r.Source_ID = "
                      "dr.Source_ID AND r.Rupture_ID = dr.Rupture_ID) FROM Disagg_Ruptures dr "
                      "JOIN Disaggregations d USING (Disagg_ID) WHERE d.Run_ID = ?1 GROUP BY 1, "
                      "2 ORDER BY 3 DESC LIMIT ?3",
                      &st, &err)) {
        wf_report_note(c, "dominant ruptures", &err);
        return;
    }
    sqlite3_bind_int64(st, 1, run->run_id);
    sqlite3_bind_int64(st, 2, run->erf_id);
    sqlite3_bind_int(st, 3, c->top);
    while (sqlite3_step(st) == SQLITE_ROW) {
        long long s = sqlite3_column_int64(st, 0), r = sqlite3_column_int64(st, 1);
        const char *fault = (const char *)sqlite3_column_text(st, 3);
        double share = sqlite3_column_double(st, 2), mag = sqlite3_column_double(st, 4);
        float *vel = NULL;
        seis_meta m;
        cs_error_clear(&err);
        char what[160];
        snprintf(what, sizeof what, "seismogram of source %lld rupture %lld", s, r);
        if (seis_read_record(seis, s, r, 0, &vel, &m, &err)) {
            wf_report_note(c, what, &err);
            continue;
        }
        char name[96], path[4200], title[200], cap[256];
        snprintf(name, sizeof name, "seis_run%lld_%lld_%lld.png", run->run_id, s, r);
        wf_report_path(c, name, path, sizeof path);
        snprintf(title, sizeof title, "%s: source %lld rupture %lld (%s, M %.2f), variation 0",
                 run->site, s, r, fault, mag);
        static const char *const comps[3] = {"E", "N", "Z"};
        plot_traces_spec ts = {title, "m/s", m.vertical ? 3 : 2, m.nt, m.dt, comps, vel};
        if (hazard_plot_traces(path, &ts, &err)) {
            wf_report_note(c, what, &err);
        } else {
            snprintf(cap, sizeof cap,
                     "Source %lld rupture %lld (%s, M %.2f): up to %.1f%% of a disaggregation", s,
                     r, fault, mag, 100 * share);
            wf_report_figure(c, name, cap);
            c->images++;
        }
        free(vel);
    }
    sqlite3_finalize(st);
}

static void provenance(wf_report_ctx *c, const hazard_run *run) {
    long long id = run->run_id;
    fprintf(c->html, "<h3>Provenance</h3>\n");
    query_table(c,
                "SELECT r.Status, coalesce(r.Status_Time, ''), printf('%g', r.Max_Frequency), "
                "e.ERF_Name, printf('%g', e.Time_Span_Years), coalesce(e.Inputs, '') FROM "
                "CyberShake_Runs r LEFT JOIN ERF_IDs e USING (ERF_ID) WHERE r.Run_ID = ?",
                id,
                "status|status time|#max frequency (Hz)|forecast|#time span (yr)|forecast inputs");
    query_table(c,
                "SELECT DISTINCT d.Hazard_Dataset_ID, coalesce(d.Inputs, ''), d.Created_At FROM "
                "Hazard_Datasets d JOIN Hazard_Curves h USING (Hazard_Dataset_ID) WHERE h.Run_ID "
                "= ? ORDER BY 1",
                id, "#dataset|inputs (with the version of cybershake that made the curves)|made");
    sqlite3_stmt *st;
    cs_error err;
    cs_error_clear(&err);
    if (!cs_db_prepare(c->db,
                       "SELECT Config_SHA256, Executor, Work_Dir, State, Created_At, "
                       "coalesce(Finished_At, ''), Config FROM Workflow_Runs WHERE Run_ID = ?",
                       &st, &err)) {
        sqlite3_bind_int64(st, 1, id);
        if (sqlite3_step(st) == SQLITE_ROW) {
            static const char *const k[6] = {
                "configuration SHA-256", "executor", "folder", "state", "started", "finished"};
            fprintf(c->html, "<table>\n");
            for (int i = 0; i < 6; i++) {
                fprintf(c->html, "<tr><th>%s</th><td><code>", k[i]);
                wf_html(c->html, (const char *)sqlite3_column_text(st, i));
                fprintf(c->html, "</code></td></tr>\n");
            }
            fprintf(c->html, "</table>\n<details><summary>configuration</summary><pre>");
            wf_html(c->html, (const char *)sqlite3_column_text(st, 6));
            fprintf(c->html, "</pre></details>\n");
        } else {
            fprintf(c->html, "<p>Not run by the workflow (no Workflow_Runs row).</p>\n");
        }
        sqlite3_finalize(st);
    }
    fprintf(c->html, "<h4>Steps</h4>\n");
    query_table(c,
                "SELECT Position, Step_Name, State, Attempts, coalesce(Host, ''), "
                "coalesce(Started_At, ''), coalesce(Finished_At, ''), coalesce(Command, '') FROM "
                "Workflow_Steps WHERE Run_ID = ? ORDER BY Position, Step_ID",
                id, "#|step|state|#attempts|host|started|finished|command");
    fprintf(c->html, "<h4>Files (checksums as recorded)</h4>\n");
    query_table(c,
                "SELECT Kind, Path, Bytes, SHA256, Recorded_At FROM Run_Files WHERE Run_ID = ? "
                "ORDER BY Recorded_At, Path",
                id, "kind|path|#bytes|SHA-256|recorded");
}

int wf_report_run(wf_report_ctx *c, long long run_id, cs_error *err) {
    hazard_run run;
    char id[32];
    snprintf(id, sizeof id, "%lld", run_id);
    CS_CALL(err, hazard_run_find(c->db, id, &run, err));
    fprintf(c->html, "<h2 id=\"run%lld\">", run_id);
    wf_html(c->html, run.site);
    fprintf(c->html,
            ", run %lld</h2>\n<p>Site at %.5f, %.5f; forecast time span %g years; "
            "maximum frequency %g Hz.</p>\n",
            run_id, run.lon, run.lat, run.time_span, run.max_frequency);
    fprintf(c->html, "<h3>Hazard curves</h3>\n");
    curves(c, &run);
    fprintf(c->html, "<h3>Uniform hazard spectrum</h3>\n");
    uhs(c, &run);
    fprintf(c->html, "<h3>Disaggregations</h3>\n");
    disaggregations(c, &run);
    fprintf(c->html, "<h3>Dominant ruptures and their seismograms</h3>\n");
    ruptures(c, &run);
    provenance(c, &run);
    return 0;
}
