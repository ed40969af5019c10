/* The values of a hazard map (hazard_map.h). */
#include "hazard_map.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cs_sites.h"
#include "site_level.h"

int hazard_map_collect(cs_db *db, const char *study, const hazard_im *im, double annual,
                       hazard_map *m, FILE *table, cs_error *err) {
    memset(m, 0, sizeof *m);
    hazard_im_name(im, m->imname, sizeof m->imname);
    cs_site *sites;
    int nsites;
    CS_CALL(err, cs_sites_list(db, &sites, &nsites, err));
    m->sites = sites;
    m->lon = malloc(sizeof(double) * (size_t)(3 * nsites + 1));
    m->names = malloc(sizeof(char *) * (size_t)(nsites + 1));
    m->run = calloc((size_t)nsites + 1, sizeof(long long));
    if (!m->lon || !m->names || !m->run) {
        hazard_map_free(m);
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory");
    }
    m->lat = m->lon + nsites, m->value = m->lon + 2 * nsites;
    int rc = 0;
    cs_error band; /* why a site was left out for its band (the last) */
    cs_error_clear(&band);
    if (table) fprintf(table, "  %-16s %11s %10s  %-8s %s\n", "site", "lon", "lat", "run", "value");
    for (int i = 0; i < nsites && !rc; i++) {
        hazard_run run;
        cs_error e;
        cs_error_clear(&e);
        m->lon[i] = sites[i].lon, m->lat[i] = sites[i].lat, m->value[i] = NAN;
        m->names[i] = sites[i].short_name;
        m->n = i + 1;
        if (hazard_run_find(db, sites[i].short_name, &run, &e)) {
            if (table)
                fprintf(table, "  %-16s %11.5f %10.5f  %-8s (no finished run)\n",
                        sites[i].short_name, sites[i].lon, sites[i].lat, "-");
            continue;
        }
        /* a site whose run does not give the IM (formats/im_band.h) is left out, saying why */
        if (hazard_im_band(&run, im, &e)) {
            if (table)
                fprintf(
                    table, "  %-16s %11.5f %10.5f  %-8lld (outside the run's band, fmax %g Hz)\n",
                    sites[i].short_name, sites[i].lon, sites[i].lat, run.run_id, run.max_frequency);
            band = e;
            continue;
        }
        long long type;
        rc = hazard_im_type(db, &run, im, &type, m->units, sizeof m->units, err) ||
             site_level(db, &run, type, annual, &m->value[i], err);
        if (rc) break;
        m->run[i] = run.run_id;
        if (m->nvalues == 0) m->erf_id = run.erf_id, m->time_span = run.time_span;
        m->mixed_erfs |= run.erf_id != m->erf_id;
        m->nvalues++;
        if (table)
            fprintf(table, "  %-16s %11.5f %10.5f  %-8lld %.4g %s\n", m->names[i], m->lon[i],
                    m->lat[i], m->run[i], m->value[i], m->units);
    }
    if (!rc && m->nvalues == 0 && band.status != CS_OK) { /* every run there: outside the band */
        *err = band;
        rc = 1;
    } else if (!rc && m->nvalues == 0) {
        rc = cs_error_input(err, study, "sites", NULL,
                            "no site of the study has a finished run ('cybershake run')");
    }
    if (rc) {
        hazard_map_free(m);
        return (int)err->status;
    }
    return 0;
}

void hazard_map_free(hazard_map *m) {
    free(m->lon);
    free(m->names);
    free(m->run);
    free(m->sites);
    m->lon = m->lat = m->value = NULL;
    m->names = NULL;
    m->run = NULL;
    m->sites = NULL;
}
