/* What the report's files share (wf_report.c, wf_report_run.c): the page being written, the
 * folder it goes to, HTML escaping. */
#ifndef WF_REPORT_HTML_H
#define WF_REPORT_HTML_H

#include <stdio.h>

#include "cs_db.h"
#include "cs_error.h"

typedef struct {
    const char *study;
    cs_db *db;
    FILE *html;      /* index.html being written */
    const char *dir; /* the temporary folder */
    FILE *log;
    int top;
    int images; /* PNG files written */
} wf_report_ctx;

/* Text with &, <, >, " escaped. */
void wf_html(FILE *f, const char *s);
/* "DIR/NAME" of a file in the report's folder. */
void wf_report_path(const wf_report_ctx *c, const char *name, char *out, size_t size);
/* <figure> with the image NAME and its caption (escaped). */
void wf_report_figure(const wf_report_ctx *c, const char *name, const char *caption);
/* A note (escaped) in the page where a part could not be made, with the reason. */
void wf_report_note(const wf_report_ctx *c, const char *what, const cs_error *err);

/* The section of one run: curves, UHS, disaggregations, dominant ruptures, provenance. */
int wf_report_run(wf_report_ctx *c, long long run_id, cs_error *err);

#endif
