/* The schema as an ordered list of migrations. Migration k brings a database from version k-1 to
 * version k. Never edit a migration that has been released: add a new one. */
#ifndef CS_DB_SCHEMA_H
#define CS_DB_SCHEMA_H

typedef struct {
    int version;
    const char *description;
    const char *sql;
} cs_db_migration;

extern const cs_db_migration cs_db_migrations[];
extern const int cs_db_n_migrations;

#endif
