/* test_parsers_core.c — the parsers' core alone: bounded buffers. */
#include <stdlib.h>
#include <string.h>

#include "parsers_int.h"
#include "unit.h"

static void test_pbuf(void)
{
    struct pbuf b = {0};
    CHECK_EQ_U(pbuf_add(&b, "hello world", 11, 5), 5);
    CHECK_EQ_U(pbuf_add(&b, "x", 1, 5), 0); /* at the limit: nothing more */
    CHECK(b.len == 5 && !memcmp(b.p, "hello", 5));
    pbuf_consume(&b, 2);
    CHECK(b.len == 3 && !memcmp(b.p, "llo", 3));
    CHECK_EQ_U(pbuf_add(&b, "abc", 3, 0), 3);
    pbuf_free(&b);
    CHECK(b.p == NULL && b.len == 0);
}

int main(void)
{
    test_pbuf();
    return unit_report("test_parsers_core");
}
