/* opt_check.c — whether an implemented option's particular arguments can be compiled.
 *
 * An option can be implemented in general and still have a form the detection engine does
 * not run yet (pcre with an HTTP buffer flag, a byte variable where none is supported …).
 * Check mode (-T) and the compiler (rules/compile/plan.c) ask the same functions, so both
 * reject exactly the same rules, with the same reason. */
#include <string.h>

#include "opt_eval.h"

const char *opt_compile_check(const char *name, const void *arg)
{
    if (!arg)
        return NULL;
    if (!strcmp(name, "content"))
        return content_compile_check(arg);
    if (!strcmp(name, "pcre"))
        return pcre_compile_check(arg);
    if (!strcmp(name, "isdataat"))
        return isdataat_compile_check(arg);
    if (!strcmp(name, "byte_test") || !strcmp(name, "byte_jump") ||
        !strcmp(name, "byte_extract") || !strcmp(name, "byte_math"))
        return byte_compile_check(arg);
    if (!strcmp(name, "flow"))
        return flow_compile_check(arg);
    if (!strcmp(name, "threshold") || !strcmp(name, "detection_filter"))
        return threshold_compile_check(arg);
    if (!strcmp(name, "flowbits"))
        return flowbits_compile_check(arg);
    if (!strcmp(name, "xbits"))
        return xbits_compile_check(arg);
    if (!strcmp(name, "service"))
        return service_compile_check(arg);
    if (!strcmp(name, "decode-event") || !strcmp(name, "stream-event") ||
        !strcmp(name, "app-layer-event"))
        return event_compile_check(arg);
    if (!strcmp(name, "stream_size"))
        return stream_size_compile_check(arg);
    if (!strcmp(name, "dsize") || !strcmp(name, "bsize") || !strcmp(name, "bufferlen") ||
        hdr_field_of(name) >= 0)
        return cmp_compile_check(arg); /* bufferlen's ",relative" is a modifier: not run */
    if (!strcmp(name, "urilen")) { /* its norm/raw modifier is honoured */
        struct opt_cmp plain = *(const struct opt_cmp *)arg;
        plain.flags = 0;
        return cmp_compile_check(&plain) ? "a byte variable as the value" : NULL;
    }
    return NULL;
}
