/* test_ipheader.c — the IP header options' evaluate functions on hand-made header bytes:
 * fragbits (modifiers over R D M, the offset bits masked off) and ipopts (the option walk). */
#include <stdint.h>

#include "opt_eval.h"
#include "unit.h"

static bool fb(const char *arg, uint8_t byte6)
{
    struct tcpflags t;
    fragbits_compile(arg, &t);
    return fragbits_match(&t, byte6);
}

static void test_fragbits(void)
{
    CHECK(fb("D", 0x40));
    CHECK(fb("D", 0x40 | 0x1f)); /* offset bits do not count */
    CHECK(!fb("D", 0x60));
    CHECK(fb("D+", 0x60) && !fb("D+", 0x20));
    CHECK(fb("*MR", 0x20) && fb("MR*", 0x80) && !fb("MR*", 0x40));
    CHECK(fb("!D", 0x20) && !fb("!D", 0x40) && fb("!M", 0x00));
    CHECK(fb("MDR", 0xe0) && !fb("MD", 0xe0));
}

static void test_ipopts(void)
{
    const uint8_t rr_eol[] = {7, 7, 4, 1, 2, 3, 4, 0};        /* record route, EOL */
    const uint8_t nop_lsrr[] = {1, 131, 7, 4, 1, 2, 3, 4};    /* NOP, loose source route */
    const uint8_t bad_len[] = {1, 68, 40, 0};                 /* ts runs past the header */
    const uint8_t after_eol[] = {0, 7, 3, 4};                 /* nothing counts after EOL */
    CHECK(ipopts_match(ipopts_compile("rr"), rr_eol, sizeof rr_eol));
    CHECK(ipopts_match(ipopts_compile("eol"), rr_eol, sizeof rr_eol));
    CHECK(!ipopts_match(ipopts_compile("nop"), rr_eol, sizeof rr_eol));
    CHECK(ipopts_match(ipopts_compile("lsrr"), nop_lsrr, sizeof nop_lsrr));
    CHECK(ipopts_match(ipopts_compile("lsrre"), nop_lsrr, sizeof nop_lsrr));
    CHECK(ipopts_match(ipopts_compile("nop"), nop_lsrr, sizeof nop_lsrr));
    CHECK(!ipopts_match(ipopts_compile("ssrr"), nop_lsrr, sizeof nop_lsrr));
    CHECK(!ipopts_match(ipopts_compile("ts"), bad_len, sizeof bad_len));
    CHECK(ipopts_match(ipopts_compile("nop"), bad_len, sizeof bad_len));
    CHECK(!ipopts_match(ipopts_compile("rr"), after_eol, sizeof after_eol));
    CHECK(ipopts_match(ipopts_compile("any"), after_eol, sizeof after_eol));
    CHECK(!ipopts_match(ipopts_compile("any"), rr_eol, 0));
    CHECK(ipopts_compile("sec") == 130 && ipopts_compile("esec") == 133 &&
          ipopts_compile("satid") == 136 && ipopts_compile("ssrr") == 137 &&
          ipopts_compile("ts") == 68);
}

int main(void)
{
    test_fragbits();
    test_ipopts();
    return unit_report("test_ipheader");
}
