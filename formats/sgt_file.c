#include "sgt_file.h"

#include <stdio.h>
#include <string.h>

#include "cs_hdf5.h"

const double sgt_file_tensor_weight[SGT_FILE_NCOMP] = {1, 1, 1, 2, 2, 2};

int sgt_file_check_values(const char *path, const char *format, int version, const char *convention,
                          cs_error *err) {
    if (strcmp(format, SGT_FILE_FORMAT))
        return cs_error_input(err, path, SGT_FILE_ATTR_FORMAT, format,
                              "must be '%s' (an SGT run's output; a forward run's file holds "
                              "receiver seismograms, not strain)",
                              SGT_FILE_FORMAT);
    if (version != SGT_FILE_VERSION) {
        char v[32];
        snprintf(v, sizeof v, "%d", version);
        return cs_error_input(err, path, SGT_FILE_ATTR_VERSION, v,
                              "this build reads version %d only; rerun the SGT with this build "
                              "or extract with the build that wrote it",
                              SGT_FILE_VERSION);
    }
    if (strcmp(convention, SGT_FILE_STRAIN_CONVENTION))
        return cs_error_input(err, path, SGT_FILE_ATTR_STRAIN_CONVENTION, convention,
                              "must be '%s'", SGT_FILE_STRAIN_CONVENTION);
    return 0;
}

int sgt_file_check(hid_t f, const char *path, cs_error *err) {
    char format[64], convention[512];
    int version;
    if (cs_h5_read_attr_string(f, path, SGT_FILE_ATTR_FORMAT, format, sizeof format, err) ||
        cs_h5_read_attr_int(f, path, SGT_FILE_ATTR_VERSION, &version, 1, err) ||
        cs_h5_read_attr_string(f, path, SGT_FILE_ATTR_STRAIN_CONVENTION, convention,
                               sizeof convention, err))
        return err->status ? err->status : CS_ERR_INPUT;
    return sgt_file_check_values(path, format, version, convention, err);
}
