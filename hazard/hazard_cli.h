/* The entry points of `cybershake hazard ...` (one file each) and what they share. */
#ifndef HAZARD_CLI_H
#define HAZARD_CLI_H

#include "hazard_db.h"

int cs_hazard_cli_main(int argc, char **argv);
int cs_hazard_peer_main(int argc, char **argv);
int cs_disagg_cli_main(int argc, char **argv);
int cs_hazard_map_main(int argc, char **argv);
int cs_hazard_uhs_main(int argc, char **argv);
int cs_hazard_gmpe_curve_main(int argc, char **argv);

#define HAZARD_MAX_LEVELS 1000

/* "L1,L2,..." (increasing, positive, at most HAZARD_MAX_LEVELS) into levels. */
int hazard_parse_levels(const char *text, double *levels, int *n, cs_error *err);
/* OpenQuake's hazard-curve CSV of one site's curve (probabilities over the time span). */
int hazard_write_csv(const char *path, const hazard_run *r, const char *imname, const char *units,
                     const double *levels, const double *poe, int n, cs_error *err);

#endif
