/* test_http_host.c — host.c: "host[:port]" split as libhtp reads it, host name labels and
 * ports checked (the Host header and absolute-URI host events), hosts compared. */
#include <string.h>

#include "http_int.h"
#include "unit.h"

static bool hp(const char *v, struct http_hostport *out)
{
    return http_hostport((const uint8_t *)v, (uint32_t)strlen(v), out);
}

static bool valid(const char *h)
{
    return http_hostname_valid((const uint8_t *)h, (uint32_t)strlen(h));
}

static void test_names(void)
{
    CHECK(valid("www.example.com") && valid("a_b-c.d") && valid("10.0.0.1"));
    CHECK(valid("example.com.")); /* a trailing dot, as libhtp allows */
    CHECK(!valid("") && !valid("a..b") && !valid(".a") && !valid("a b") && !valid("a!b"));
    char label[70];
    memset(label, 'a', 64);
    label[64] = 0;
    CHECK(!valid(label)); /* a label of 64 bytes */
    label[63] = 0;
    CHECK(valid(label));
    CHECK(valid("[::1]") && !valid("[::1"));
}

static void test_hostport(void)
{
    struct http_hostport a, b;
    CHECK(hp(" Example.COM:8080 ", &a) && a.port == 8080 && a.host_len == 11);
    CHECK(hp("example.com", &b) && b.port == -1);
    CHECK(http_host_same(&a, &b)); /* one names no port */
    CHECK(hp("example.com:81", &b) && !http_host_same(&a, &b));
    CHECK(hp("[::1]:443", &a) && a.port == 443 && a.host_len == 5);
    CHECK(!hp("example.com:", &a) && !hp("example.com:0", &a));
    CHECK(!hp("example.com:65536", &a) && !hp("example.com:8o", &a));
    CHECK(!hp("[::1]x", &a) && !hp("a..b:80", &a));
}

int main(void)
{
    test_names();
    test_hostport();
    return unit_report("test_http_host");
}
