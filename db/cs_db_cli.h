/* The entry points of `cybershake db ...` (db/cs_db_cli.c). The `db` command's table is put
 * together in cli/cybershake.c, which offers hazard's disaggregation query there too
 * (`cybershake db disagg`): db itself does not depend on hazard. */
#ifndef CS_DB_CLI_H
#define CS_DB_CLI_H

int cs_db_init_main(int argc, char **argv);
int cs_db_migrate_main(int argc, char **argv);
int cs_db_info_main(int argc, char **argv);
int cs_db_import_sites_main(int argc, char **argv);
int cs_db_sites_main(int argc, char **argv);

/* The rows of the `db` table (cs_cli_command) that db itself provides. */
#define CS_DB_COMMANDS                                                                             \
    {"init", cs_db_init_main, "create a study database"},                                          \
        {"migrate", cs_db_migrate_main, "upgrade a study database to the newest schema"},          \
        {"info", cs_db_info_main, "schema version and table sizes"},                               \
        {"import-sites", cs_db_import_sites_main, "import sites from CSV"},                        \
        {"sites", cs_db_sites_main, "list the sites of a study"},

#endif
