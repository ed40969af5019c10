/* The stages linked into this build. The SGT-only build (for GPU machines without SQLite or
 * libcurl) defines CS_SGT_ONLY and carries only the solver's commands. */
#ifndef CYBERSHAKE_COMMANDS_H
#define CYBERSHAKE_COMMANDS_H

int cs_db_cli_main(int argc, char **argv);

#ifdef CS_SGT_ONLY
#define CYBERSHAKE_COMMANDS
#else
#define CYBERSHAKE_COMMANDS {"db", cs_db_cli_main, "study database: init, migrate, sites"},
#endif

#endif
