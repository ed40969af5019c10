/* The entry points of `cybershake hazard ...` (one file each) and what they share. */
#ifndef HAZARD_CLI_H
#define HAZARD_CLI_H

#include "hazard_db.h"
#include "hazard_io.h"

int cs_hazard_cli_main(int argc, char **argv);
int cs_hazard_peer_main(int argc, char **argv);
int cs_disagg_cli_main(int argc, char **argv);
int cs_hazard_map_main(int argc, char **argv);
int cs_hazard_uhs_main(int argc, char **argv);
int cs_hazard_gmpe_curve_main(int argc, char **argv);

#endif
