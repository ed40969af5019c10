#include "cs_units.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cs_strutil.h"

typedef struct {
    cs_unit_dim dim;
    const char *name;
    double to_si;
} unit_def;

static const unit_def units[] = {
    {CS_DIM_LENGTH, "m", 1.0},          {CS_DIM_LENGTH, "km", 1000.0},
    {CS_DIM_LENGTH, "cm", 0.01},        {CS_DIM_TIME, "s", 1.0},
    {CS_DIM_TIME, "ms", 1e-3},          {CS_DIM_TIME, "min", 60.0},
    {CS_DIM_TIME, "h", 3600.0},         {CS_DIM_FREQUENCY, "Hz", 1.0},
    {CS_DIM_FREQUENCY, "hz", 1.0},      {CS_DIM_VELOCITY, "m/s", 1.0},
    {CS_DIM_VELOCITY, "km/s", 1000.0},  {CS_DIM_DENSITY, "kg/m3", 1.0},
    {CS_DIM_DENSITY, "kg/m^3", 1.0},    {CS_DIM_DENSITY, "g/cm3", 1000.0},
    {CS_DIM_DENSITY, "g/cm^3", 1000.0}, {CS_DIM_ANGLE, "deg", 1.0},
    {CS_DIM_ANGLE, "degree", 1.0},      {CS_DIM_ANGLE, "degrees", 1.0},
    {CS_DIM_IMPULSE, "N*s", 1.0},       {CS_DIM_IMPULSE, "Ns", 1.0},
    {CS_DIM_IMPULSE, "dyne*s", 1e-5},   {CS_DIM_MOMENT, "N*m", 1.0},
    {CS_DIM_MOMENT, "Nm", 1.0},         {CS_DIM_MOMENT, "dyne*cm", 1e-7},
    {CS_DIM_STRESS, "Pa", 1.0},         {CS_DIM_STRESS, "kPa", 1e3},
    {CS_DIM_STRESS, "MPa", 1e6},        {CS_DIM_STRESS, "GPa", 1e9},
    {CS_DIM_BYTES, "B", 1.0},           {CS_DIM_BYTES, "KiB", 1024.0},
    {CS_DIM_BYTES, "MiB", 1048576.0},   {CS_DIM_BYTES, "GiB", 1073741824.0},
    {CS_DIM_BYTES, "KB", 1e3},          {CS_DIM_BYTES, "MB", 1e6},
    {CS_DIM_BYTES, "GB", 1e9},
};

static const char *dim_names[CS_DIM_COUNT_] = {"number",   "length",  "time",       "frequency",
                                               "velocity", "density", "angle",      "impulse",
                                               "moment",   "stress",  "memory size"};
static const char *si_names[CS_DIM_COUNT_] = {"",    "m",   "s",   "Hz", "m/s", "kg/m^3",
                                              "deg", "N*s", "N*m", "Pa", "B"};
static const char *accepted[CS_DIM_COUNT_] = {"(none)",
                                              "m, km, cm",
                                              "s, ms, min, h",
                                              "Hz",
                                              "m/s, km/s",
                                              "kg/m3, g/cm3",
                                              "deg",
                                              "N*s, dyne*s",
                                              "N*m, dyne*cm",
                                              "Pa, kPa, MPa, GPa",
                                              "B, KiB, MiB, GiB, KB, MB, GB"};

const char *cs_unit_si_name(cs_unit_dim dim) {
    return si_names[dim];
}
const char *cs_unit_accepted(cs_unit_dim dim) {
    return accepted[dim];
}
const char *cs_unit_dim_name(cs_unit_dim dim) {
    return dim_names[dim];
}

int cs_unit_parse(const char *text, cs_unit_dim dim, double *out_si) {
    char buf[256];
    if (cs_copy(buf, sizeof buf, text) != 0) return -1;
    char *s = cs_trim(buf);
    char *end;
    double v = strtod(s, &end);
    if (end == s) return -1;
    char *unit = cs_trim(end);
    if (dim == CS_DIM_NONE) {
        if (*unit) return -3;
        return cs_parse_double(s, out_si);
    }
    if (!*unit) return -2;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (units[i].dim == dim && strcmp(units[i].name, unit) == 0) {
            *out_si = v * units[i].to_si;
            return 0;
        }
    }
    return -3;
}
