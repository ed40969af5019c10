/* The study's cache tables: what the hazard stage derives from a run and keeps for the next
 * curve (Hazard_Rupture_Values: each rupture's values of one IM type in one sorted array, so
 * curves and disaggregations read thousands of rows instead of millions). The hazard stage fills
 * it (hazard/hazard_db.c); anything that changes a run's amplitudes invalidates it (the
 * extraction, a reset of the workflow). Its table is created by schema version 5
 * (db/cs_db_schema.c); every statement on it is here. */
#ifndef CS_DB_CACHE_H
#define CS_DB_CACHE_H

#include "cs_db.h"

#define CS_DB_CACHE_TABLE "Hazard_Rupture_Values"

/* Insert one rupture's array: Run_ID, IM_Type_ID, Source_ID, Rupture_ID, Magnitude, Prob,
 * Rrup_Km, Num_Values, IM_Values (a blob of Num_Values doubles, ascending). */
#define CS_DB_CACHE_INSERT                                                                         \
    "INSERT INTO Hazard_Rupture_Values (Run_ID, IM_Type_ID, Source_ID, Rupture_ID, Magnitude, "    \
    "Prob, Rrup_Km, Num_Values, IM_Values) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
/* The arrays of a run and IM type (Run_ID, IM_Type_ID), in rupture order. */
#define CS_DB_CACHE_SELECT                                                                         \
    "SELECT Source_ID, Rupture_ID, Prob, Magnitude, Rrup_Km, Num_Values, IM_Values FROM "          \
    "Hazard_Rupture_Values WHERE Run_ID = ? AND IM_Type_ID = ? ORDER BY Source_ID, Rupture_ID"

/* How many ruptures of the run have cached arrays for the IM type (0: build them). */
int cs_db_cache_count(cs_db *db, long long run_id, long long im_type_id, long long *n,
                      cs_error *err);

/* Drops the run's cached arrays (every IM type); call inside the transaction that changes its
 * amplitudes, so no reader sees new amplitudes with old arrays. */
int cs_db_cache_invalidate(cs_db *db, long long run_id, cs_error *err);

#endif
