/* unit.h — the smallest test harness, shared by every library's C unit tests (CMake target
 * osprey_unit): CHECK records a failure and goes on; main returns the failure count so ctest
 * sees it. Ends with "N passed, N failed" like other runners. */
#ifndef OSPREY_UNIT_H
#define OSPREY_UNIT_H

#include <stdio.h>

static int unit_pass, unit_fail;

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (cond) {                                                              \
            unit_pass++;                                                         \
        } else {                                                                 \
            unit_fail++;                                                         \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                        \
    } while (0)

#define CHECK_EQ_U(a, b)                                                          \
    do {                                                                          \
        unsigned long long va_ = (unsigned long long)(a), vb_ = (unsigned long long)(b); \
        if (va_ == vb_) {                                                         \
            unit_pass++;                                                          \
        } else {                                                                  \
            unit_fail++;                                                          \
            fprintf(stderr, "%s:%d: %s == %s failed: %llu != %llu\n", __FILE__, __LINE__, \
                    #a, #b, va_, vb_);                                            \
        }                                                                         \
    } while (0)

static inline int unit_report(const char *name)
{
    printf("%s: %d passed, %d failed\n", name, unit_pass, unit_fail);
    return unit_fail ? 1 : 0;
}

#endif
