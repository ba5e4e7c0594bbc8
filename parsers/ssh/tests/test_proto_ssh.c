/* test_proto_ssh.c — SSH's descriptor (the example protocol), bytes in, buffers out: the
 * banners split into ssh.proto and ssh.software per side, lines before a server's banner,
 * CR-less line ends, a banner without software version, the probe, the one transaction; the
 * KEXINIT of each side and its HASSH (configured, or asked for by a rule), split anywhere,
 * and packets that are no KEXINIT; Suricata's ssh.* events. */
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
    CHECK(h.pf.dead[1]); /* a packet length past SSH_PACKET_MAX: the side is left */
    CHECK_EQ_U(h.txs, 0);
    feed_str(&h, 0, "SSH-2.0-libssh_0.9.6\n"); /* LF alone ends a line too */
    CHECK(ph_buf_is(&h, "ssh.software", 0, 0, "libssh_0.9.6"));
    CHECK(ph_buf_is(&h, "ssh.proto", 0, 0, "2.0"));
    CHECK_EQ_U(h.txs, 1); /* both banners: the flow's one transaction */
    CHECK_EQ_U(ph_count(&h, "ssh_banners"), 2);
    CHECK_EQ_U(ph_count(&h, "ssh_malformed"), 1); /* that packet */
    CHECK_EQ_U(ph_raised(&h, "ssh.invalid_banner"), 1); /* the server's first line */
    CHECK_EQ_U(ph_raised(&h, "ssh.invalid_record"), 0);
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

/* an SSH binary packet (RFC 4253 §6) of payload p[0..n), 4 bytes of padding */
static size_t packet(uint8_t *out, const uint8_t *p, size_t n)
{
    uint32_t len = (uint32_t)(n + 1 + 4);
    out[0] = len >> 24, out[1] = len >> 16 & 0xff, out[2] = len >> 8 & 0xff, out[3] = len & 0xff;
    out[4] = 4;
    memcpy(out + 5, p, n);
    memset(out + 5 + n, 0, 4);
    return 4 + len;
}

/* a KEXINIT payload: code 20, cookie, the ten name-lists, first_kex_follows, reserved */
static size_t kexinit(uint8_t *out, const char *const lists[10])
{
    size_t n = 0;
    out[n++] = 20;
    memset(out + n, 0x11, 16);
    n += 16;
    for (int i = 0; i < 10; i++) {
        uint32_t l = (uint32_t)strlen(lists[i]);
        out[n] = 0, out[n + 1] = 0, out[n + 2] = l >> 8 & 0xff, out[n + 3] = l & 0xff;
        memcpy(out + n + 4, lists[i], l);
        n += 4 + l;
    }
    memset(out + n, 0, 5);
    return n + 5;
}

static const char *const CLIENT_LISTS[10] = {
    "curve25519-sha256,diffie-hellman-group14-sha1", "ssh-ed25519", "aes128-ctr,aes256-ctr",
    "aes256-ctr", "hmac-sha2-256,hmac-sha1", "hmac-sha2-512", "none,zlib@openssh.com", "none",
    "", ""};

static void test_hassh(void)
{
    struct ph h;
    ph_init(&h, "ssh", 6, 40000, 22);
    ((struct ssh_cfg *)ph_cfg(&h))->hassh = true; /* app-layer.protocols.ssh.hassh: yes */
    uint8_t pl[1024], pk[1100];
    size_t n = packet(pk, pl, kexinit(pl, CLIENT_LISTS));
    feed_str(&h, 1, "SSH-2.0-OpenSSH_9.6\r\n");
    CHECK(!h.pf.dead[1] && h.txs == 0); /* read on, for the KEXINIT */
    feed_str(&h, 0, "SSH-2.0-client\r\n");
    CHECK(h.txs == 0);
    /* the client's KEXINIT split anywhere, after a packet that is no KEXINIT (ignore, 2) */
    uint8_t ign[16];
    size_t in = packet(ign, (const uint8_t *)"\x02\x00\x00\x00\x00", 5);
    ph_feed(&h, 0, ign, in);
    ph_feed(&h, 0, pk, 7);
    CHECK(!ph_buf(&h, "ssh.hassh", 0, 0, &(uint32_t){0}));
    ph_feed(&h, 0, pk + 7, n - 7);
    const char *want = "curve25519-sha256,diffie-hellman-group14-sha1;aes128-ctr,aes256-ctr;"
                       "hmac-sha2-256,hmac-sha1;none,zlib@openssh.com";
    CHECK(ph_buf_is(&h, "ssh.hassh.string", 0, 0, want));
    uint32_t hl;
    const uint8_t *hash = ph_buf(&h, "ssh.hassh", 0, 0, &hl);
    CHECK(hash && hl == 32);
    /* the side's part is done; its packets are still read (headers) up to NEWKEYS */
    CHECK(!h.pf.dead[0] && h.txs == 0 && ph_count(&h, "ssh_kexinits") == 1);
    /* the server's: its own direction's lists */
    ph_feed(&h, 1, pk, n);
    CHECK(ph_buf_is(&h, "ssh.hassh.server.string", 1, 0,
                    "curve25519-sha256,diffie-hellman-group14-sha1;aes256-ctr;hmac-sha2-512;none"));
    CHECK(h.txs == 1); /* both sides done: the flow's one transaction */
    ph_free(&h);

    /* off unless asked: a rule on ssh.hassh.server asks (osprey_parsers_want_buffer) */
    ph_init(&h, "ssh", 6, 40000, 22);
    osprey_parsers_want_buffer(&h.p, (uint16_t)osprey_buffer_find("ssh.hassh.server", 1));
    feed_str(&h, 1, "SSH-2.0-x\r\n");
    ph_feed(&h, 1, pk, n);
    CHECK(ph_buf(&h, "ssh.hassh.server", 1, 0, &hl) && hl == 32);
    ph_free(&h);
    ph_init(&h, "ssh", 6, 40000, 22);
    feed_str(&h, 1, "SSH-2.0-x\r\n");
    ph_feed(&h, 1, pk, n);
    /* neither configured nor asked: no HASSH (the packets' headers are still read) */
    CHECK(!ph_buf(&h, "ssh.hassh.server", 1, 0, &hl) && ph_count(&h, "ssh_kexinits") == 0);
    ph_free(&h);

    /* a packet length past the limit, a KEXINIT that does not decode: the side ends */
    ph_init(&h, "ssh", 6, 40000, 22);
    ((struct ssh_cfg *)ph_cfg(&h))->hassh = true;
    feed_str(&h, 0, "SSH-2.0-c\r\n");
    ph_feed(&h, 0, "\x7f\xff\xff\xff\x04", 5);
    CHECK(h.pf.dead[0] && ph_count(&h, "ssh_malformed") == 1);
    feed_str(&h, 1, "SSH-2.0-s\r\n");
    n = packet(pk, (const uint8_t *)"\x14" "short", 6);
    ph_feed(&h, 1, pk, n);
    CHECK(ph_count(&h, "ssh_malformed") == 2);
    CHECK(!ph_buf(&h, "ssh.hassh.server", 1, 0, &hl) && h.txs == 1);
    ph_free(&h);
    CHECK(ssh_kexinit_hassh(pl, 20, 0, &(struct pbuf){0}) == false);
}

/* Suricata's SSH events: a first line that is no banner, a banner of 256 bytes or more, a
 * packet_length below 2 before NEWKEYS (packets are read without HASSH too) */
static void test_events(void)
{
    struct ph h;
    ph_init(&h, "ssh", 6, 40000, 22);
    feed_str(&h, 0, "SSH-2.0\r\n"); /* no '-' after the version */
    CHECK_EQ_U(ph_raised(&h, "ssh.invalid_banner"), 1);
    char line[300] = "SSH-2.0-";
    memset(line + 8, 'x', 255 - 8);
    strcpy(line + 255, "\r\n"); /* 255 bytes: not long */
    feed_str(&h, 1, line);
    CHECK_EQ_U(ph_raised(&h, "ssh.long_banner"), 0);
    CHECK_EQ_U(ph_raised(&h, "ssh.invalid_banner"), 1);
    CHECK(!h.pf.dead[1]);
    /* a KEXINIT-like packet whole, then a packet_length of 1, split */
    ph_feed(&h, 1, "\x00\x00\x00\x0c\x0a\x14" "abcdefghij" "\x00\x00", 18);
    CHECK_EQ_U(ph_raised(&h, "ssh.invalid_record"), 0);
    ph_feed(&h, 1, "\x00\x01\x00", 3);
    CHECK_EQ_U(ph_raised(&h, "ssh.invalid_record"), 1);
    CHECK(h.pf.dead[1]);
    ph_free(&h);

    ph_init(&h, "ssh", 6, 40000, 22);
    memset(line + 8, 'x', 256 - 8);
    strcpy(line + 256, "\n"); /* 256 bytes */
    feed_str(&h, 0, line);
    CHECK_EQ_U(ph_raised(&h, "ssh.long_banner"), 1);
    CHECK_EQ_U(ph_raised(&h, "ssh.invalid_banner"), 0);
    CHECK(ph_buf(&h, "ssh.software", 0, 0, &(uint32_t){0}));
    /* NEWKEYS ends the side: what follows is encrypted */
    ph_feed(&h, 0, "\x00\x00\x00\x0c\x0a\x15" "abcdefghij" "\x00\x00\x00\x00\x00\x00", 22);
    CHECK(h.pf.dead[0]);
    CHECK_EQ_U(ph_raised(&h, "ssh.invalid_record"), 0);
    ph_free(&h);
}

/* Both sides' NEWKEYS: the flow's payload is no longer for content rules, and its stream
 * takes no more bytes (Suricata's NO_INSPECTION + NO_REASSEMBLY); one side's is not enough */
static void test_newkeys_payload(void)
{
    static const char newkeys[] = "\x00\x00\x00\x0c\x0a\x15" "abcdefghij";
    struct ph h;
    ph_init(&h, "ssh", 6, 40000, 22);
    feed_str(&h, 1, "SSH-2.0-s\r\n");
    feed_str(&h, 0, "SSH-2.0-c\r\n");
    ph_feed(&h, 1, newkeys, 8); /* split inside the packet */
    CHECK_EQ_U(h.pf.payload, OSPREY_PAYLOAD_INSPECTED);
    ph_feed(&h, 1, newkeys + 8, 8);
    CHECK(h.pf.dead[1]);
    CHECK_EQ_U(h.pf.payload, OSPREY_PAYLOAD_INSPECTED); /* the client's side is still clear */
    ph_feed(&h, 0, "\x00\x00\x00\x0c\x0a\x14" "abcdefghij", 16); /* not NEWKEYS */
    CHECK_EQ_U(h.pf.payload, OSPREY_PAYLOAD_INSPECTED);
    ph_feed(&h, 0, newkeys, 16);
    CHECK_EQ_U(h.pf.payload, OSPREY_PAYLOAD_UNREASSEMBLED);
    ph_free(&h);
}

int main(void)
{
    test_newkeys_payload();
    test_events();
    test_hassh();
    test_banners();
    test_odd_banners();
    test_split_and_probe();
    return unit_report("test_proto_ssh");
}
