/* Physical units of parameter values. Everything inside the toolkit is SI (docs/conventions.md); a
 * value read from a file carries its unit and is converted here, once. */
#ifndef CS_UNITS_H
#define CS_UNITS_H

typedef enum {
    CS_DIM_NONE = 0,  /* a pure number, no unit allowed */
    CS_DIM_LENGTH,    /* m */
    CS_DIM_TIME,      /* s */
    CS_DIM_FREQUENCY, /* Hz */
    CS_DIM_VELOCITY,  /* m/s */
    CS_DIM_DENSITY,   /* kg/m^3 */
    CS_DIM_ANGLE,     /* degrees (the field's habit; kept in degrees, not radians) */
    CS_DIM_IMPULSE,   /* N*s */
    CS_DIM_MOMENT,    /* N*m */
    CS_DIM_STRESS,    /* Pa */
    CS_DIM_BYTES,     /* bytes */
    CS_DIM_COUNT_
} cs_unit_dim;

/* Name of the SI unit of a dimension ("m", "s", ...), and a list of accepted spellings. */
const char *cs_unit_si_name(cs_unit_dim dim);
const char *cs_unit_accepted(cs_unit_dim dim);
const char *cs_unit_dim_name(cs_unit_dim dim);

/* Converts "value unit" (unit may be separated by spaces or attached: "200m", "0.2 km") to
 * SI. Returns 0 on success, -1 if the number is malformed, -2 if the unit is missing, -3 if
 * the unit is unknown or of another dimension. */
int cs_unit_parse(const char *text, cs_unit_dim dim, double *out_si);

#endif
