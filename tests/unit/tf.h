/* A tiny test framework: TEST(name) registers a test; CHECK* record the first failure and
 * return; SKIP says why a test could not run here (no GPU...). The runner prints one line per
 * test and ends with "N passed, N failed". */
#ifndef TF_H
#define TF_H

#include <math.h>
#include <stdio.h>

void tf_register(const char *name, const char *file, void (*fn)(void));
void tf_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void tf_skip(const char *reason);
/* A fresh empty folder for the running test; removed after it passes. */
const char *tf_tmpdir(void);
/* tf_tmpdir()/name in a static buffer (one of 8 rotating). */
const char *tf_path(const char *name);
/* Folder holding the repository (for tests/data). */
const char *tf_repo(void);
int tf_failed(void);

#define TEST(name)                                                                                 \
    static void name(void);                                                                        \
    __attribute__((constructor)) static void tf_reg_##name(void) {                                 \
        tf_register(#name, __FILE__, name);                                                        \
    }                                                                                              \
    static void name(void)

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            tf_fail(__FILE__, __LINE__, "%s", #cond);                                              \
            return;                                                                                \
        }                                                                                          \
    } while (0)

#define CHECK_MSG(cond, ...)                                                                       \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            tf_fail(__FILE__, __LINE__, __VA_ARGS__);                                              \
            return;                                                                                \
        }                                                                                          \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                                      \
    do {                                                                                           \
        double tf_a_ = (a), tf_b_ = (b), tf_t_ = (tol);                                            \
        if (!(fabs(tf_a_ - tf_b_) <= tf_t_)) {                                                     \
            tf_fail(__FILE__, __LINE__, "%s = %.12g, %s = %.12g, differ by %.3g > %.3g", #a,       \
                    tf_a_, #b, tf_b_, fabs(tf_a_ - tf_b_), tf_t_);                                 \
            return;                                                                                \
        }                                                                                          \
    } while (0)

#define CHECK_OK(call, errp)                                                                       \
    do {                                                                                           \
        if ((call) != 0) {                                                                         \
            tf_fail(__FILE__, __LINE__, "%s failed: %s", #call, (errp)->message);                  \
            return;                                                                                \
        }                                                                                          \
    } while (0)

#define CHECK_CONTAINS(haystack, needle)                                                           \
    do {                                                                                           \
        const char *tf_h_ = (haystack), *tf_n_ = (needle);                                         \
        if (!tf_h_ || !strstr(tf_h_, tf_n_)) {                                                     \
            tf_fail(__FILE__, __LINE__, "'%s' does not contain '%s'", tf_h_ ? tf_h_ : "(null)",    \
                    tf_n_);                                                                        \
            return;                                                                                \
        }                                                                                          \
    } while (0)

#define SKIP(reason)                                                                               \
    do {                                                                                           \
        tf_skip(reason);                                                                           \
        return;                                                                                    \
    } while (0)

#endif
