/* `cybershake report`'s work (wf_report.h): the folder, the page, the sites map. */
#include "wf_report.h"

#include <errno.h>
#include <ftw.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cs_atomic.h"
#include "cs_strutil.h"
#include "cs_version.h"
#include "disagg.h"
#include "hazard_map.h"
#include "hazard_plot.h"
#include "wf_report_html.h"

#define MARKER ".cybershake-report"

void wf_html(FILE *f, const char *s) {
    for (; s && *s; s++)
        switch (*s) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        default:
            fputc(*s, f);
        }
}

void wf_report_path(const wf_report_ctx *c, const char *name, char *out, size_t size) {
    snprintf(out, size, "%s/%s", c->dir, name);
}

void wf_report_figure(const wf_report_ctx *c, const char *name, const char *caption) {
    fprintf(c->html, "<figure><img src=\"");
    wf_html(c->html, name);
    fprintf(c->html, "\" alt=\"");
    wf_html(c->html, caption);
    fprintf(c->html, "\"><figcaption>");
    wf_html(c->html, caption);
    fprintf(c->html, "</figcaption></figure>\n");
}

void wf_report_note(const wf_report_ctx *c, const char *what, const cs_error *err) {
    fprintf(c->html, "<p class=\"note\">");
    wf_html(c->html, what);
    fprintf(c->html, ": ");
    wf_html(c->html, err->message);
    fprintf(c->html, "</p>\n");
    if (c->log) fprintf(c->log, "  %s: %s\n", what, err->message);
}

static const char css[] =
    "body{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 1em;color:#222}"
    "h1{font-size:1.6em}h2{border-bottom:2px solid #446;padding-bottom:.2em;margin-top:2em}"
    "h3{margin-top:1.5em}table{border-collapse:collapse;margin:.5em 0;font-size:.9em}"
    "td,th{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}"
    "th{background:#eef}td.num{text-align:right;font-variant-numeric:tabular-nums}"
    "figure{display:inline-block;width:calc(50% - 1.6em);margin:.5em 1em .5em 0;vertical-align:top}"
    "figure img{max-width:100%;border:1px solid #ddd}figcaption{font-size:.85em;color:#555}"
    "pre{background:#f6f6f6;padding:.5em;overflow-x:auto;font-size:.85em}"
    "code{font-size:.9em}.note{color:#a40}nav a{margin-right:1em}";

/* The sites map of each IM the study's runs have curves of, at 2% in 50 years. */
static void sites_maps(wf_report_ctx *c) {
    sqlite3_stmt *st;
    cs_error err;
    cs_error_clear(&err);
    if (cs_db_prepare(c->db,
                      "SELECT DISTINCT t.IM_Type_ID, t.IM_Type_Measure, "
                      "coalesce(t.IM_Type_Value, 0), t.IM_Type_Component FROM Hazard_Curves h "
                      "JOIN IM_Types t USING (IM_Type_ID) WHERE h.Run_ID IS NOT NULL ORDER BY 1 "
                      "LIMIT 4",
                      &st, &err)) {
        wf_report_note(c, "sites map", &err);
        return;
    }
    double annual = hazard_annual(0.02, 50);
    while (sqlite3_step(st) == SQLITE_ROW) {
        hazard_im im = {"", sqlite3_column_double(st, 2), ""};
        cs_copy(im.measure, sizeof im.measure, (const char *)sqlite3_column_text(st, 1));
        cs_copy(im.component, sizeof im.component, (const char *)sqlite3_column_text(st, 3));
        hazard_map m;
        cs_error_clear(&err);
        if (hazard_map_collect(c->db, c->study, &im, annual, &m, NULL, &err)) {
            wf_report_note(c, "sites map", &err);
            continue;
        }
        char name[64], path[4200], title[160], unit[96], sub[160], cap[256];
        snprintf(name, sizeof name, "map_im%lld.png", (long long)sqlite3_column_int64(st, 0));
        wf_report_path(c, name, path, sizeof path);
        snprintf(title, sizeof title, "%s at 2%% in 50 years", m.imname);
        snprintf(unit, sizeof unit, "%s (%s)", m.imname, m.units);
        snprintf(sub, sizeof sub, "%d of %d sites with a finished run", m.nvalues, m.n);
        plot_map_spec ps = {.title = title,
                            .subtitle = sub,
                            .unit = unit,
                            .n = m.n,
                            .lon = m.lon,
                            .lat = m.lat,
                            .value = m.value,
                            .names = m.names};
        if (hazard_plot_map(path, &ps, &err)) {
            wf_report_note(c, "sites map", &err);
        } else {
            snprintf(cap, sizeof cap,
                     "%s at 2%% in 50 years at the study's sites (newest finished run of each; "
                     "hollow: no run)",
                     m.imname);
            wf_report_figure(c, name, cap);
            c->images++;
        }
        hazard_map_free(&m);
    }
    sqlite3_finalize(st);
}

static void sites_table(wf_report_ctx *c, long long *runs, int nruns) {
    fprintf(c->html, "<table><tr><th>site</th><th>name</th><th>lon</th><th>lat</th><th>run</th>"
                     "<th>status</th><th>max frequency (Hz)</th></tr>\n");
    sqlite3_stmt *st;
    cs_error err;
    if (cs_db_prepare(c->db,
                      "SELECT s.CS_Short_Name, coalesce(s.CS_Site_Name, ''), s.CS_Site_Lon, "
                      "s.CS_Site_Lat, r.Status, r.Max_Frequency FROM CyberShake_Runs r JOIN "
                      "CyberShake_Sites s ON s.CS_Site_ID = r.Site_ID WHERE r.Run_ID = ?",
                      &st, &err)) {
        wf_report_note(c, "sites", &err);
        return;
    }
    for (int i = 0; i < nruns; i++) {
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, runs[i]);
        if (sqlite3_step(st) != SQLITE_ROW) continue;
        fprintf(c->html, "<tr><td><a href=\"#run%lld\">", runs[i]);
        wf_html(c->html, (const char *)sqlite3_column_text(st, 0));
        fprintf(c->html, "</a></td><td>");
        wf_html(c->html, (const char *)sqlite3_column_text(st, 1));
        fprintf(c->html, "</td><td class=\"num\">%.5f</td><td class=\"num\">%.5f</td>",
                sqlite3_column_double(st, 2), sqlite3_column_double(st, 3));
        fprintf(c->html, "<td class=\"num\">%lld</td><td>", runs[i]);
        wf_html(c->html, (const char *)sqlite3_column_text(st, 4));
        fprintf(c->html, "</td><td class=\"num\">%.3g</td></tr>\n", sqlite3_column_double(st, 5));
    }
    sqlite3_finalize(st);
    fprintf(c->html, "</table>\n");
}

static int page(wf_report_ctx *c, cs_error *err) {
    long long runs[1024];
    int nruns = 0;
    sqlite3_stmt *st;
    CS_CALL(err, cs_db_prepare(c->db,
                               "SELECT r.Run_ID FROM CyberShake_Runs r WHERE EXISTS (SELECT 1 "
                               "FROM Hazard_Curves h WHERE h.Run_ID = r.Run_ID) ORDER BY 1",
                               &st, err));
    while (nruns < 1024 && sqlite3_step(st) == SQLITE_ROW)
        runs[nruns++] = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (nruns == 0)
        return cs_error_input(err, c->study, "Hazard_Curves", NULL,
                              "no run of the study has hazard curves yet ('cybershake run' or "
                              "'cybershake hazard curve')");
    time_t now = time(NULL);
    char when[64];
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
    char *copy = cs_strdup(c->study);
    fprintf(c->html, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                     "<title>Study report: ");
    wf_html(c->html, copy ? basename(copy) : c->study);
    fprintf(c->html, "</title>\n<style>%s</style></head><body>\n<h1>Study report: ", css);
    wf_html(c->html, copy ? basename(copy) : c->study);
    free(copy);
    fprintf(c->html, "</h1>\n<p>Study <code>");
    wf_html(c->html, c->study);
    fprintf(c->html, "</code>; report made %s by cybershake %s; %d run%s with hazard curves.</p>\n",
            when, CS_VERSION, nruns, nruns == 1 ? "" : "s");
    fprintf(c->html, "<nav>");
    for (int i = 0; i < nruns; i++)
        fprintf(c->html, "<a href=\"#run%lld\">run %lld</a>", runs[i], runs[i]);
    fprintf(c->html, "</nav>\n<h2 id=\"sites\">Sites</h2>\n");
    sites_maps(c);
    sites_table(c, runs, nruns);
    for (int i = 0; i < nruns; i++) {
        if (c->log) fprintf(c->log, "report: run %lld\n", runs[i]);
        CS_CALL(err, wf_report_run(c, runs[i], err));
    }
    fprintf(c->html, "</body></html>\n");
    return 0;
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

/* The folder: refused when it exists and is not a report; the temporary one beside it. */
static int prepare(const char *out, char *tmp, size_t size, int *replace, cs_error *err) {
    struct stat sb;
    *replace = 0;
    if (stat(out, &sb) == 0) {
        char marker[4200];
        snprintf(marker, sizeof marker, "%s/" MARKER, out);
        if (!S_ISDIR(sb.st_mode) || access(marker, F_OK) != 0)
            return cs_error_input(err, out, NULL, NULL,
                                  "exists and is not a report made by 'cybershake report': "
                                  "give a new folder");
        *replace = 1;
    }
    char *a = cs_strdup(out), *b = cs_strdup(out);
    if (!a || !b) {
        free(a), free(b);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    }
    snprintf(tmp, size, "%s/.%s.tmp.XXXXXX", dirname(a), basename(b));
    free(a), free(b);
    if (!mkdtemp(tmp))
        return cs_error_set(err, CS_ERR_IO, "%s: cannot make a temporary folder (%s)", tmp,
                            strerror(errno));
    return 0;
}

/* The finished folder into place (an old report renamed aside first, then removed). */
static int publish(const char *tmp, const char *out, int replace, cs_error *err) {
    char old[4200] = "";
    if (replace) {
        snprintf(old, sizeof old, "%s.old.%ld", out, (long)getpid());
        if (rename(out, old))
            return cs_error_set(err, CS_ERR_IO, "%s: cannot move the old report aside (%s)", out,
                                strerror(errno));
    }
    if (rename(tmp, out)) {
        int e = errno;
        if (replace) rename(old, out);
        return cs_error_set(err, CS_ERR_IO, "%s: cannot rename the report into place (%s)", out,
                            strerror(e));
    }
    if (replace) nftw(old, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return 0;
}

int wf_report(const wf_report_request *rq, FILE *log, cs_error *err) {
    char tmp[4200], path[4300];
    int replace;
    CS_CALL(err, prepare(rq->out, tmp, sizeof tmp, &replace, err));
    wf_report_ctx c = {rq->study, NULL, NULL, tmp, log, rq->top, 0};
    cs_atomic_file a;
    snprintf(path, sizeof path, "%s/index.html", tmp);
    int rc;
    CS_CALL_GOTO(rc, err, cs_db_open_current(rq->study, &c.db, err), failed);
    CS_CALL_GOTO(rc, err, cs_atomic_open(&a, path, err), failed);
    c.html = a.f;
    if ((rc = page(&c, err))) {
        cs_atomic_abort(&a);
        CS_TRACE(err);
        goto failed;
    }
    CS_CALL_GOTO(rc, err, cs_atomic_commit(&a, NULL, err), failed);
    cs_db_close(c.db);
    c.db = NULL;
    snprintf(path, sizeof path, "%s/" MARKER, tmp);
    CS_CALL_GOTO(rc, err, cs_atomic_write_file(path, "cybershake report\n", 18, NULL, err), failed);
    CS_CALL_GOTO(rc, err, publish(tmp, rq->out, replace, err), failed);
    if (log) fprintf(log, "report: %s/index.html (%d plots)\n", rq->out, c.images);
    return 0;
failed:
    if (c.db) cs_db_close(c.db);
    nftw(tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return rc;
}
