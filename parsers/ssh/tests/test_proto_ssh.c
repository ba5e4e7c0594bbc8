/* test_proto_ssh.c — SSH's descriptor (the example protocol), bytes in, buffers out: the
 * banners split into ssh.proto and ssh.software per side, lines before a server's banner,
 * CR-less line ends, a banner without software version, the probe, the one transaction. */
#include "proto_harness.h"
#include "ssh_int.h"
#include "unit.h"

static void feed_str(struct ph *h, int dir, const char *s)
{
    ph_feed(h, dir, s, strlen(s));
}

static void test_banners(void)
{
    struct ph h;
    ph_init(&h, "ssh", 6, 40000, 22);
    /* a server may send other lines before its banner; split anywhere */
    feed_str(&h, 1, "Welcome\r\nSSH-2.0-OpenSSH_8.9p1 Ubu");
    CHECK(!ph_buf(&h, "ssh.software", 1, 0, &(uint32_t){0})); /* not complete yet */
    feed_str(&h, 1, "ntu-3ubuntu0.6\r\n" "\x01\x14" "binary");
    CHECK(ph_buf_is(&h, "ssh.proto", 1, 0, "2.0"));
    CHECK(ph_buf_is(&h, "ssh.software", 1, 0, "OpenSSH_8.9p1")); /* comments left out */
    CHECK(ph_rec_is(&h, "ssh.banner.server", 1, "SSH-2.0-OpenSSH_8.9p1 Ubuntu-3ubuntu0.6"));
    CHECK(h.pf.dead[1]); /* binary packets after the banner: not parsed */
    CHECK_EQ_U(h.txs, 0);
    feed_str(&h, 0, "SSH-2.0-libssh_0.9.6\n"); /* LF alone ends a line too */
    CHECK(ph_buf_is(&h, "ssh.software", 0, 0, "libssh_0.9.6"));
    CHECK(ph_buf_is(&h, "ssh.proto", 0, 0, "2.0"));
    CHECK_EQ_U(h.txs, 1); /* both banners: the flow's one transaction */
    CHECK_EQ_U(ph_count(&h, "ssh_banners"), 2);
    CHECK_EQ_U(ph_count(&h, "ssh_malformed"), 0);
    ph_end(&h);
    CHECK_EQ_U(h.txs, 1); /* reported once */
    ph_free(&h);
}

static void test_odd_banners(void)
{
    struct ph h;
    ph_init(&h, "ssh", 6, 40000, 22);
    feed_str(&h, 0, "hello\r\nSSH-1.99\r\n"); /* a client's other line: malformed, skipped */
    CHECK(ph_buf_is(&h, "ssh.proto", 0, 0, "1.99"));
    CHECK(!ph_buf(&h, "ssh.software", 0, 0, &(uint32_t){0})); /* none sent */
    CHECK_EQ_U(ph_count(&h, "ssh_malformed"), 1);
    CHECK_EQ_U(h.txs, 0);
    ph_end(&h); /* the flow ends with one banner: reported with it */
    CHECK_EQ_U(h.txs, 1);
    ph_free(&h);

    ph_init(&h, "ssh", 6, 40000, 22);
    char big[SSH_LINE_MAX + 10];
    memset(big, 'a', sizeof big);
    ph_feed(&h, 1, big, sizeof big); /* a line past the limit: the side is given up */
    CHECK(h.pf.dead[1]);
    CHECK_EQ_U(ph_count(&h, "ssh_malformed"), 1);
    ph_free(&h);
}

static void test_split_and_probe(void)
{
    struct span p, s;
    CHECK(ssh_banner_split((const uint8_t *)"SSH-2.0-x y", 11, &p, &s) && p.len == 3 &&
          s.off == 8 && s.len == 1);
    CHECK(!ssh_banner_split((const uint8_t *)"SSH2.0", 6, &p, &s));
    CHECK(ssh_probe((const uint8_t *)"SS", 2, NULL) == DET_NEED_MORE);
    CHECK(ssh_probe((const uint8_t *)"SSH-2.0", 7, NULL) == DET_YES);
    CHECK(ssh_probe((const uint8_t *)"SSX", 3, NULL) == DET_NO);
    /* two-sided: the client's in a to_server rule, the server's in a to_client one */
    CHECK(osprey_buffer_two_sided("ssh.software"));
    CHECK(osprey_app_proto_has_eve((uint16_t)osprey_app_proto_find("ssh")));
}

int main(void)
{
    test_banners();
    test_odd_banners();
    test_split_and_probe();
    return unit_report("test_proto_ssh");
}
