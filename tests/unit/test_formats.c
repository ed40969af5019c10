/* The SGT file contract (formats/sgt_file): a file this build wrote is accepted; another
 * version, another strain convention or a forward run's file is refused before any number of it
 * is read, with the file, the attribute, the value and the rule in the message. */
#include <stdio.h>
#include <string.h>

#include "cs_hdf5.h"
#include "plan_keys.h"
#include "sgt_config.h"
#include "sgt_file.h"
#include "tf.h"

/* A file with just the three identity attributes. */
static int write_identity(const char *path, const char *format, int version, const char *conv) {
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (f < 0) return -1;
    int bad = cs_h5_attr_string(f, SGT_FILE_ATTR_FORMAT, format);
    bad |= cs_h5_attr_int(f, SGT_FILE_ATTR_VERSION, &version, 1);
    if (conv) bad |= cs_h5_attr_string(f, SGT_FILE_ATTR_STRAIN_CONVENTION, conv);
    return H5Fclose(f) < 0 || bad ? -1 : 0;
}

TEST(sgt_file_accepts_its_own_identity) {
    cs_error e;
    cs_error_clear(&e);
    CHECK_OK(sgt_file_check_values("a.h5", SGT_FILE_FORMAT, SGT_FILE_VERSION,
                                   SGT_FILE_STRAIN_CONVENTION, &e),
             &e);
    const char *path = tf_path("sgt_file.h5");
    CHECK(write_identity(path, SGT_FILE_FORMAT, SGT_FILE_VERSION, SGT_FILE_STRAIN_CONVENTION) == 0);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    CHECK_OK(sgt_file_check(f, path, &e), &e);
    H5Fclose(f);
}

TEST(sgt_file_refuses_other_versions_and_conventions) {
    cs_error e;
    cs_error_clear(&e);
    CHECK(sgt_file_check_values("x.h5", SGT_FILE_FORMAT, SGT_FILE_VERSION + 1,
                                SGT_FILE_STRAIN_CONVENTION, &e) == CS_ERR_INPUT);
    CHECK_CONTAINS(e.message, "x.h5: format_version = '2'");
    CHECK_CONTAINS(e.message, "reads version 1 only");
    cs_error_clear(&e);
    CHECK(sgt_file_check_values("x.h5", SGT_FILE_FORMAT, SGT_FILE_VERSION,
                                "engineering shear strain 2 eps_ij", &e) == CS_ERR_INPUT);
    CHECK_CONTAINS(e.message, "strain_convention = 'engineering shear strain 2 eps_ij'");
    cs_error_clear(&e);
    CHECK(sgt_file_check_values("x.h5", SGT_FILE_FORMAT_FORWARD, SGT_FILE_VERSION,
                                SGT_FILE_STRAIN_CONVENTION, &e) == CS_ERR_INPUT);
    CHECK_CONTAINS(e.message, "format = 'cybershake-forward'");

    /* On a file: a wrong version, and a missing convention attribute. */
    const char *path = tf_path("sgt_file.h5");
    cs_h5_quiet();
    CHECK(write_identity(path, SGT_FILE_FORMAT, 0, SGT_FILE_STRAIN_CONVENTION) == 0);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    cs_error_clear(&e);
    CHECK(sgt_file_check(f, path, &e) == CS_ERR_INPUT);
    CHECK_CONTAINS(e.message, "format_version = '0'");
    H5Fclose(f);
    CHECK(write_identity(path, SGT_FILE_FORMAT, SGT_FILE_VERSION, NULL) == 0);
    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    cs_error_clear(&e);
    CHECK(sgt_file_check(f, path, &e) != 0);
    CHECK_CONTAINS(e.message, "strain_convention");
    H5Fclose(f);
}

TEST(sgt_file_tensor_weights_count_off_diagonals_twice) {
    /* M : eps for symmetric M and eps equals the weighted sum over the six stored components. */
    const double m[6] = {1.5, -2, 0.25, 3, -0.5, 0.75}, e[6] = {0.1, 0.2, -0.3, 0.4, 0.5, -0.6};
    const int ij[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
    double M[3][3], E[3][3], full = 0, stored = 0;
    for (int c = 0; c < 6; c++) {
        M[ij[c][0]][ij[c][1]] = M[ij[c][1]][ij[c][0]] = m[c];
        E[ij[c][0]][ij[c][1]] = E[ij[c][1]][ij[c][0]] = e[c];
        stored += sgt_file_tensor_weight[c] * m[c] * e[c];
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            full += M[i][j] * E[i][j];
    CHECK_NEAR(stored, full, 1e-14);
}

/* Every key of the plan's contract is one the solver declares (and so documents and checks). */
TEST(plan_keys_are_declared_by_the_solver) {
    for (int i = 0; i < plan_keys_count; i++) {
        int found = 0;
        for (int k = 0; k < sgt_param_nspecs; k++)
            found |= !strcmp(sgt_param_specs[k].key, plan_keys_all[i]);
        CHECK_MSG(found, "plan key '%s' is not in sgt_param_specs", plan_keys_all[i]);
    }
    CHECK(plan_keys_count == 35);
}
