/* Table and column names follow the CyberShake database where the concept is the same, so that
 * queries written for CyberShake data carry over (docs/database.md). */
#include "cs_db_schema.h"

static const char v1_sql[] =
    "CREATE TABLE Schema_Version ("
    "  Version INTEGER PRIMARY KEY,"
    "  Description TEXT NOT NULL,"
    "  Applied_At TEXT NOT NULL,"
    "  Code_Version TEXT NOT NULL);"

    "CREATE TABLE CyberShake_Site_Types ("
    "  CS_Site_Type_ID INTEGER PRIMARY KEY,"
    "  CS_Site_Type_Short_Name TEXT NOT NULL UNIQUE,"
    "  CS_Site_Type_Name TEXT NOT NULL);"
    "INSERT INTO CyberShake_Site_Types VALUES (1, 'POI', 'Point of interest'),"
    "  (2, 'GRID', 'Hazard map grid site'), (3, 'STATION', 'Seismic station');"

    "CREATE TABLE CyberShake_Sites ("
    "  CS_Site_ID INTEGER PRIMARY KEY,"
    "  CS_Site_Name TEXT NOT NULL,"
    "  CS_Short_Name TEXT NOT NULL UNIQUE,"
    "  CS_Site_Lat REAL NOT NULL CHECK (CS_Site_Lat BETWEEN -90 AND 90),"
    "  CS_Site_Lon REAL NOT NULL CHECK (CS_Site_Lon BETWEEN -180 AND 180),"
    "  CS_Site_Type_ID INTEGER NOT NULL DEFAULT 1 REFERENCES CyberShake_Site_Types,"
    "  Vs30 REAL CHECK (Vs30 IS NULL OR Vs30 > 0));"

    "CREATE TABLE ERF_IDs ("
    "  ERF_ID INTEGER PRIMARY KEY,"
    "  ERF_Name TEXT NOT NULL UNIQUE,"
    "  ERF_Description TEXT);"

    "CREATE TABLE Ruptures ("
    "  ERF_ID INTEGER NOT NULL REFERENCES ERF_IDs,"
    "  Source_ID INTEGER NOT NULL,"
    "  Rupture_ID INTEGER NOT NULL,"
    "  Source_Name TEXT,"
    "  Source_Type TEXT,"
    "  Magnitude REAL NOT NULL,"
    "  Prob REAL NOT NULL CHECK (Prob >= 0 AND Prob <= 1),"
    "  Grid_Spacing REAL,"
    "  Num_Rows INTEGER,"
    "  Num_Columns INTEGER,"
    "  Num_Points INTEGER,"
    "  Start_Lat REAL, Start_Lon REAL, Start_Depth REAL,"
    "  End_Lat REAL, End_Lon REAL, End_Depth REAL,"
    "  PRIMARY KEY (ERF_ID, Source_ID, Rupture_ID));"

    "CREATE TABLE Points ("
    "  ERF_ID INTEGER NOT NULL,"
    "  Source_ID INTEGER NOT NULL,"
    "  Rupture_ID INTEGER NOT NULL,"
    "  Point_ID INTEGER NOT NULL,"
    "  Lat REAL NOT NULL, Lon REAL NOT NULL, Depth REAL NOT NULL,"
    "  Rake REAL NOT NULL, Dip REAL NOT NULL, Strike REAL NOT NULL,"
    "  PRIMARY KEY (ERF_ID, Source_ID, Rupture_ID, Point_ID),"
    "  FOREIGN KEY (ERF_ID, Source_ID, Rupture_ID) REFERENCES Ruptures ON DELETE CASCADE);"

    "CREATE TABLE Velocity_Models ("
    "  Velocity_Model_ID INTEGER PRIMARY KEY,"
    "  Velocity_Model_Name TEXT NOT NULL,"
    "  Velocity_Model_Version TEXT,"
    "  Velocity_Model_SHA256 TEXT);"

    "CREATE TABLE SGT_Variation_IDs ("
    "  SGT_Variation_ID INTEGER PRIMARY KEY,"
    "  SGT_Variation_Name TEXT NOT NULL UNIQUE,"
    "  SGT_Variation_Description TEXT);"

    "CREATE TABLE Rupture_Variation_Scenario_IDs ("
    "  Rup_Var_Scenario_ID INTEGER PRIMARY KEY,"
    "  ERF_ID INTEGER NOT NULL REFERENCES ERF_IDs,"
    "  Rup_Var_Scenario_Name TEXT NOT NULL,"
    "  Rup_Var_Scenario_Description TEXT);"

    "CREATE TABLE Rupture_Variations ("
    "  Rup_Var_Scenario_ID INTEGER NOT NULL REFERENCES Rupture_Variation_Scenario_IDs,"
    "  ERF_ID INTEGER NOT NULL,"
    "  Source_ID INTEGER NOT NULL,"
    "  Rupture_ID INTEGER NOT NULL,"
    "  Rup_Var_ID INTEGER NOT NULL,"
    "  Rup_Var_LFN TEXT,"
    "  Hypocenter_Lat REAL, Hypocenter_Lon REAL, Hypocenter_Depth REAL,"
    "  PRIMARY KEY (Rup_Var_Scenario_ID, ERF_ID, Source_ID, Rupture_ID, Rup_Var_ID),"
    "  FOREIGN KEY (ERF_ID, Source_ID, Rupture_ID) REFERENCES Ruptures ON DELETE CASCADE);"

    "CREATE TABLE CyberShake_Site_Ruptures ("
    "  CS_Site_ID INTEGER NOT NULL REFERENCES CyberShake_Sites ON DELETE CASCADE,"
    "  ERF_ID INTEGER NOT NULL,"
    "  Source_ID INTEGER NOT NULL,"
    "  Rupture_ID INTEGER NOT NULL,"
    "  Site_Rupture_Dist REAL NOT NULL,"
    "  PRIMARY KEY (CS_Site_ID, ERF_ID, Source_ID, Rupture_ID),"
    "  FOREIGN KEY (ERF_ID, Source_ID, Rupture_ID) REFERENCES Ruptures ON DELETE CASCADE);"

    "CREATE TABLE CyberShake_Runs ("
    "  Run_ID INTEGER PRIMARY KEY,"
    "  Site_ID INTEGER NOT NULL REFERENCES CyberShake_Sites,"
    "  ERF_ID INTEGER REFERENCES ERF_IDs,"
    "  SGT_Variation_ID INTEGER REFERENCES SGT_Variation_IDs,"
    "  Velocity_Model_ID INTEGER REFERENCES Velocity_Models,"
    "  Rup_Var_Scenario_ID INTEGER REFERENCES Rupture_Variation_Scenario_IDs,"
    "  Status TEXT NOT NULL DEFAULT 'Initial',"
    "  Status_Time TEXT,"
    "  SGT_Host TEXT, SGT_Time TEXT, PP_Host TEXT, PP_Time TEXT,"
    "  Comment TEXT, Last_User TEXT, Job_ID TEXT, Submit_Dir TEXT,"
    "  Max_Frequency REAL, Low_Frequency_Cutoff REAL, SGT_Source_Filter_Frequency REAL);"

    "CREATE TABLE IM_Types ("
    "  IM_Type_ID INTEGER PRIMARY KEY,"
    "  IM_Type_Measure TEXT NOT NULL,"
    "  IM_Type_Value REAL,"
    "  IM_Type_Units TEXT NOT NULL,"
    "  IM_Type_Component TEXT NOT NULL,"
    "  UNIQUE (IM_Type_Measure, IM_Type_Value, IM_Type_Component));"

    "CREATE TABLE PeakAmplitudes ("
    "  Run_ID INTEGER NOT NULL REFERENCES CyberShake_Runs ON DELETE CASCADE,"
    "  Source_ID INTEGER NOT NULL,"
    "  Rupture_ID INTEGER NOT NULL,"
    "  Rup_Var_ID INTEGER NOT NULL,"
    "  IM_Type_ID INTEGER NOT NULL REFERENCES IM_Types,"
    "  IM_Value REAL NOT NULL,"
    "  PRIMARY KEY (Run_ID, Source_ID, Rupture_ID, Rup_Var_ID, IM_Type_ID)) WITHOUT ROWID;"

    "CREATE TABLE Hazard_Datasets ("
    "  Hazard_Dataset_ID INTEGER PRIMARY KEY,"
    "  ERF_ID INTEGER REFERENCES ERF_IDs,"
    "  Rup_Var_Scenario_ID INTEGER REFERENCES Rupture_Variation_Scenario_IDs,"
    "  SGT_Variation_ID INTEGER REFERENCES SGT_Variation_IDs,"
    "  Velocity_Model_ID INTEGER REFERENCES Velocity_Models,"
    "  Prob_Model TEXT NOT NULL DEFAULT 'Poisson',"
    "  Time_Span_Years REAL NOT NULL DEFAULT 1,"
    "  Max_Frequency REAL, Low_Frequency_Cutoff REAL,"
    "  Inputs TEXT,"
    "  Created_At TEXT NOT NULL);"

    "CREATE TABLE Hazard_Curves ("
    "  Hazard_Curve_ID INTEGER PRIMARY KEY,"
    "  Run_ID INTEGER REFERENCES CyberShake_Runs ON DELETE CASCADE,"
    "  Hazard_Dataset_ID INTEGER NOT NULL REFERENCES Hazard_Datasets,"
    "  IM_Type_ID INTEGER NOT NULL REFERENCES IM_Types,"
    "  Curve_Date TEXT NOT NULL);"

    "CREATE TABLE Hazard_Curve_Points ("
    "  Hazard_Curve_ID INTEGER NOT NULL REFERENCES Hazard_Curves ON DELETE CASCADE,"
    "  X_Value REAL NOT NULL,"
    "  Y_Value REAL NOT NULL,"
    "  PRIMARY KEY (Hazard_Curve_ID, X_Value));";

/* Version 2: what CyberShake's database lacks and the workflow needs: the steps of every run
 * with their state, and every product file with its checksum. */
static const char v2_sql[] =
    "CREATE TABLE Workflow_Steps ("
    "  Step_ID INTEGER PRIMARY KEY,"
    "  Run_ID INTEGER NOT NULL REFERENCES CyberShake_Runs ON DELETE CASCADE,"
    "  Step_Name TEXT NOT NULL,"
    "  State TEXT NOT NULL DEFAULT 'pending'"
    "    CHECK (State IN ('pending', 'running', 'done', 'failed')),"
    "  Attempts INTEGER NOT NULL DEFAULT 0,"
    "  Host TEXT, Command TEXT, Job_ID TEXT,"
    "  Started_At TEXT, Finished_At TEXT, Error TEXT,"
    "  UNIQUE (Run_ID, Step_Name));"

    "CREATE TABLE Files ("
    "  File_ID INTEGER PRIMARY KEY,"
    "  Path TEXT NOT NULL UNIQUE,"
    "  SHA256 TEXT NOT NULL CHECK (length(SHA256) = 64),"
    "  Bytes INTEGER NOT NULL CHECK (Bytes >= 0),"
    "  Kind TEXT NOT NULL,"
    "  Run_ID INTEGER REFERENCES CyberShake_Runs ON DELETE SET NULL,"
    "  Created_At TEXT NOT NULL);"

    "CREATE TABLE Step_Files ("
    "  Step_ID INTEGER NOT NULL REFERENCES Workflow_Steps ON DELETE CASCADE,"
    "  File_ID INTEGER NOT NULL REFERENCES Files ON DELETE CASCADE,"
    "  Role TEXT NOT NULL CHECK (Role IN ('input', 'output')),"
    "  PRIMARY KEY (Step_ID, File_ID, Role));"

    "CREATE INDEX Workflow_Steps_Run ON Workflow_Steps (Run_ID);"
    "CREATE INDEX Files_Run ON Files (Run_ID);";

/* Version 3: what the forecast, planning and rupture-variation stages record beyond CyberShake's
 * columns: the forecast's time span and provenance, each rupture's annual rate and source key,
 * the generator and seed of a variation scenario, and the site plans. */
static const char v3_sql[] =
    "ALTER TABLE ERF_IDs ADD COLUMN Time_Span_Years REAL NOT NULL DEFAULT 1"
    "  CHECK (Time_Span_Years > 0);"
    "ALTER TABLE ERF_IDs ADD COLUMN Prob_Model TEXT NOT NULL DEFAULT 'Poisson';"
    "ALTER TABLE ERF_IDs ADD COLUMN Inputs TEXT;"
    "ALTER TABLE ERF_IDs ADD COLUMN Created_At TEXT;"
    "ALTER TABLE Ruptures ADD COLUMN Annual_Rate REAL CHECK (Annual_Rate IS NULL OR Annual_Rate >= "
    "0);"
    "ALTER TABLE Ruptures ADD COLUMN Source_Key TEXT;"
    "ALTER TABLE Rupture_Variation_Scenario_IDs ADD COLUMN Generator TEXT;"
    "ALTER TABLE Rupture_Variation_Scenario_IDs ADD COLUMN Parameters TEXT;"
    "ALTER TABLE Rupture_Variation_Scenario_IDs ADD COLUMN Seed INTEGER;"
    "ALTER TABLE Rupture_Variations ADD COLUMN Slip_Realisation INTEGER;"
    "CREATE TABLE Site_Plans ("
    "  CS_Site_ID INTEGER NOT NULL REFERENCES CyberShake_Sites ON DELETE CASCADE,"
    "  ERF_ID INTEGER NOT NULL REFERENCES ERF_IDs ON DELETE CASCADE,"
    "  Cutoff_Km REAL NOT NULL,"
    "  Max_Frequency REAL NOT NULL,"
    "  Plan_File TEXT NOT NULL, Plan_SHA256 TEXT NOT NULL,"
    "  Points_File TEXT NOT NULL, Points_SHA256 TEXT NOT NULL,"
    "  Num_Ruptures INTEGER NOT NULL, Num_Save_Points INTEGER NOT NULL,"
    "  NX INTEGER NOT NULL, NY INTEGER NOT NULL, NZ INTEGER NOT NULL,"
    "  H_M REAL NOT NULL, DT_S REAL NOT NULL, NT INTEGER NOT NULL,"
    "  Created_At TEXT NOT NULL,"
    "  PRIMARY KEY (CS_Site_ID, ERF_ID));"
    "CREATE INDEX Points_Rupture ON Points (ERF_ID, Source_ID, Rupture_ID);";

/* Version 4: the extractor's record of finished ruptures, so a killed extraction resumes
 * without redoing them (each row goes in with the rupture's PeakAmplitudes). */
static const char v4_sql[] =
    "CREATE TABLE Extraction_Ruptures ("
    "  Run_ID INTEGER NOT NULL REFERENCES CyberShake_Runs ON DELETE CASCADE,"
    "  Source_ID INTEGER NOT NULL,"
    "  Rupture_ID INTEGER NOT NULL,"
    "  Num_Variations INTEGER NOT NULL CHECK (Num_Variations >= 0),"
    "  Finished_At TEXT NOT NULL,"
    "  PRIMARY KEY (Run_ID, Source_ID, Rupture_ID));";

/* Version 5: what the hazard stage derives from a run: each rupture's values of an IM type in
 * one sorted array (so curves and disaggregations read thousands of rows, not millions), and
 * disaggregation results with their magnitude-distance-epsilon bins and leading ruptures. */
static const char v5_sql[] =
    "CREATE TABLE Hazard_Rupture_Values ("
    "  Run_ID INTEGER NOT NULL REFERENCES CyberShake_Runs ON DELETE CASCADE,"
    "  IM_Type_ID INTEGER NOT NULL REFERENCES IM_Types,"
    "  Source_ID INTEGER NOT NULL,"
    "  Rupture_ID INTEGER NOT NULL,"
    "  Magnitude REAL NOT NULL, Prob REAL NOT NULL, Rrup_Km REAL NOT NULL,"
    "  Num_Values INTEGER NOT NULL CHECK (Num_Values > 0),"
    "  IM_Values BLOB NOT NULL,"
    "  PRIMARY KEY (Run_ID, IM_Type_ID, Source_ID, Rupture_ID)) WITHOUT ROWID;"
    "CREATE TABLE Disaggregations ("
    "  Disagg_ID INTEGER PRIMARY KEY,"
    "  Run_ID INTEGER NOT NULL REFERENCES CyberShake_Runs ON DELETE CASCADE,"
    "  IM_Type_ID INTEGER NOT NULL REFERENCES IM_Types,"
    "  IM_Level REAL NOT NULL, Annual_Poe REAL NOT NULL, Target TEXT NOT NULL,"
    "  Mean_M REAL, Mean_R REAL, Mean_Eps REAL, Mode_M REAL, Mode_R REAL, Mode_Eps REAL,"
    "  Created_At TEXT NOT NULL);"
    "CREATE TABLE Disagg_Bins ("
    "  Disagg_ID INTEGER NOT NULL REFERENCES Disaggregations ON DELETE CASCADE,"
    "  M_Low REAL NOT NULL, M_High REAL NOT NULL, R_Low REAL NOT NULL, R_High REAL NOT NULL,"
    "  Eps_Low REAL NOT NULL, Eps_High REAL NOT NULL, Contribution REAL NOT NULL);"
    "CREATE TABLE Disagg_Ruptures ("
    "  Disagg_ID INTEGER NOT NULL REFERENCES Disaggregations ON DELETE CASCADE,"
    "  Source_ID INTEGER NOT NULL, Rupture_ID INTEGER NOT NULL, Contribution REAL NOT NULL,"
    "  PRIMARY KEY (Disagg_ID, Source_ID, Rupture_ID));"
    "CREATE INDEX PeakAmplitudes_Run_IM ON PeakAmplitudes (Run_ID, IM_Type_ID);"
    "CREATE INDEX Disagg_Bins_ID ON Disagg_Bins (Disagg_ID);";

/* Version 6: the workflow's runs (`cybershake run`): the configuration a run was started with
 * (its checksum identifies the run when the same command is given again), its folder and
 * executor, and each step's position and log. */
static const char v6_sql[] =
    "CREATE TABLE Workflow_Runs ("
    "  Run_ID INTEGER PRIMARY KEY REFERENCES CyberShake_Runs ON DELETE CASCADE,"
    "  Site_ID INTEGER NOT NULL REFERENCES CyberShake_Sites,"
    "  Config_SHA256 TEXT NOT NULL CHECK (length(Config_SHA256) = 64),"
    "  Config TEXT NOT NULL,"
    "  Work_Dir TEXT NOT NULL,"
    "  Executor TEXT NOT NULL,"
    "  State TEXT NOT NULL DEFAULT 'pending'"
    "    CHECK (State IN ('pending', 'running', 'done', 'failed')),"
    "  Created_At TEXT NOT NULL, Finished_At TEXT, Error TEXT);"
    "CREATE INDEX Workflow_Runs_Site ON Workflow_Runs (Site_ID, Config_SHA256);"
    "ALTER TABLE Workflow_Steps ADD COLUMN Position INTEGER;"
    "ALTER TABLE Workflow_Steps ADD COLUMN Log_File TEXT;";

/* Version 7: hazard curves of a site that belong to no run (classical PSHA over the whole
 * forecast with a ground-motion model, `cybershake hazard gmpe-curve`) name their site. */
static const char v7_sql[] =
    "ALTER TABLE Hazard_Curves ADD COLUMN Site_ID INTEGER REFERENCES CyberShake_Sites;"
    "CREATE INDEX Hazard_Curves_Site ON Hazard_Curves (Site_ID);";

/* Version 8: Points as one B-tree keyed by (forecast, source, rupture, point): a production
 * forecast has ~17 M points, and a rowid table with its primary-key index and a second index on
 * the key's prefix (Points_Rupture, which the key already serves) tripled the work of every
 * insert. Same columns, same key, same foreign key. */
static const char v8_sql[] =
    "CREATE TABLE Points_v8 ("
    "  ERF_ID INTEGER NOT NULL,"
    "  Source_ID INTEGER NOT NULL,"
    "  Rupture_ID INTEGER NOT NULL,"
    "  Point_ID INTEGER NOT NULL,"
    "  Lat REAL NOT NULL, Lon REAL NOT NULL, Depth REAL NOT NULL,"
    "  Rake REAL NOT NULL, Dip REAL NOT NULL, Strike REAL NOT NULL,"
    "  PRIMARY KEY (ERF_ID, Source_ID, Rupture_ID, Point_ID),"
    "  FOREIGN KEY (ERF_ID, Source_ID, Rupture_ID) REFERENCES Ruptures ON DELETE CASCADE)"
    "  WITHOUT ROWID;"
    "INSERT INTO Points_v8 SELECT ERF_ID, Source_ID, Rupture_ID, Point_ID, Lat, Lon, Depth, Rake,"
    "  Dip, Strike FROM Points;"
    "DROP TABLE Points;"
    "ALTER TABLE Points_v8 RENAME TO Points;";

/* Version 9: which files each run used or made, with the checksum they had then. Files keeps one
 * row per path (the latest checksum, what the workflow's steps link to); two runs that read the
 * same SGT files each keep their own record here, so neither takes the other's over. */
static const char v9_sql[] =
    "CREATE TABLE Run_Files ("
    "  Run_ID INTEGER NOT NULL REFERENCES CyberShake_Runs ON DELETE CASCADE,"
    "  Path TEXT NOT NULL,"
    "  Kind TEXT NOT NULL,"
    "  SHA256 TEXT NOT NULL CHECK (length(SHA256) = 64),"
    "  Bytes INTEGER NOT NULL CHECK (Bytes >= 0),"
    "  Recorded_At TEXT NOT NULL,"
    "  PRIMARY KEY (Run_ID, Path));"
    "CREATE INDEX Run_Files_Kind ON Run_Files (Run_ID, Kind);"
    "INSERT INTO Run_Files SELECT Run_ID, Path, Kind, SHA256, Bytes, Created_At FROM Files"
    "  WHERE Run_ID IS NOT NULL AND Run_ID IN (SELECT Run_ID FROM CyberShake_Runs);";

/* Version 10: the site's basin depths for the ground-motion models: Z1.0 (m, depth to Vs 1 km/s:
 * ASK14, BSSA14, CY14) and Z2.5 (km, depth to Vs 2.5 km/s: CB14); NULL when unknown (each model's
 * own estimate or no basin term). */
static const char v10_sql[] =
    "ALTER TABLE CyberShake_Sites ADD COLUMN Z1_0 REAL CHECK (Z1_0 IS NULL OR Z1_0 >= 0);"
    "ALTER TABLE CyberShake_Sites ADD COLUMN Z2_5 REAL CHECK (Z2_5 IS NULL OR Z2_5 >= 0);";

const cs_db_migration cs_db_migrations[] = {
    {1, "CyberShake core tables: sites, ERF, ruptures, runs, IMs, hazard curves", v1_sql},
    {2, "workflow steps and product files with SHA-256", v2_sql},
    {3, "forecast time span and provenance, rupture rates, variation generator, site plans",
     v3_sql},
    {4, "extraction progress: finished ruptures of each run", v4_sql},
    {5, "hazard: per-rupture value arrays, disaggregations", v5_sql},
    {6, "workflow runs: configuration, folder, executor; step positions and logs", v6_sql},
    {7, "hazard curves of a site without a run (GMPE curves over a forecast)", v7_sql},
    {8, "forecast points in one B-tree keyed by rupture and point (WITHOUT ROWID)", v8_sql},
    {9, "each run's own record of the files it used and made (Run_Files)", v9_sql},
    {10, "site basin depths Z1.0 (m) and Z2.5 (km) for the ground-motion models", v10_sql},
};
const int cs_db_n_migrations = (int)(sizeof cs_db_migrations / sizeof cs_db_migrations[0]);
