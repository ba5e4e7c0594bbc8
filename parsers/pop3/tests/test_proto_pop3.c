/* test_proto_pop3.c — POP3's descriptor, bytes in, buffers out: the greeting and commands as
 * transactions (pop3.command, pop3.args, pop3.status, pop3.response), multi-line responses
 * and dot-stuffing, a RETR'd message's attachment through MIME as file.data and a file of
 * the file layer, TOP cutting one short, SASL continuations, pipelining past the limit, the
 * RFC's line limits, STLS handing the flow to TLS, and the probes. */
#include "pop3_int.h"
#include "proto_harness.h"
#include "unit.h"

static void feed_str(struct ph *h, int dir, const char *s)
{
    ph_feed(h, dir, s, strlen(s));
}

static bool field_is(struct ph *h, const char *name, int64_t want)
{
    int64_t v;
    return ph_field(h, name, 0, &v) && v == want;
}

static struct pop3_state *st_of(struct ph *h)
{
    return h->pf.state;
}

/* the transaction the events and records read while it runs: the oldest waiting */
static void current(struct ph *h)
{
    st_of(h)->cur = st_of(h)->head;
}

static void test_session(void)
{
    struct ph h;
    ph_init(&h, "pop3", 6, 40000, 110);
    h.p.files = OSPREY_FILES_MD5;
    feed_str(&h, 1, "+OK ready <1@x>\r\n");
    CHECK_EQ_U(h.txs, 1); /* the greeting: a transaction of its own */
    feed_str(&h, 0, "user  bob\r\n");
    current(&h);
    CHECK(field_is(&h, "pop3.command", P3_USER));
    CHECK(ph_buf_is(&h, "pop3.args", 0, 0, "bob"));
    CHECK_EQ_U(ph_nbuf(&h, "pop3.args", 0), 1);
    CHECK(!ph_field(&h, "pop3.status", 0, &(int64_t){0})); /* no response yet */
    feed_str(&h, 1, "-ERR no such user\r\n");
    CHECK_EQ_U(h.txs, 2);
    /* pipelined: two commands, then their responses, oldest first */
    feed_str(&h, 0, "APOP bob c4c9334bac560ecc979e58001b3e22fb\r\nLIST\r\n");
    CHECK_EQ_U(st_of(&h)->nq, 2);
    current(&h);
    CHECK(ph_buf_is(&h, "pop3.args", 0, 1, "c4c9334bac560ecc979e58001b3e22fb"));
    feed_str(&h, 1, "+OK maildrop\r\n+OK 2 messages\r\n1 120\r\n..2 200\r\n.\r\n");
    CHECK_EQ_U(h.txs, 4);
    CHECK_EQ_U(st_of(&h)->nq, 0);
    /* a message: its attachment's decoded bytes, a file (hashes over the whole) */
    feed_str(&h, 0, "RETR 1\r\n");
    feed_str(&h, 1, "+OK 120 octets\r\nContent-Type: multipart/mixed; boundary=Q\r\n\r\n"
                    "--Q\r\nContent-Disposition: attachment; filename=\"h.txt\"\r\n"
                    "Content-Transfer-Encoding: base64\r\n\r\nSGVsbG8=\r\n--Q--\r\n");
    current(&h);
    CHECK(field_is(&h, "pop3.command", P3_RETR));
    CHECK(field_is(&h, "pop3.status", 1));
    CHECK(ph_buf_is(&h, "pop3.response", 1, 0, "120 octets"));
    CHECK(ph_buf_is(&h, "file.data", 1, 0, "Hello"));
    struct osprey_file_info fi;
    CHECK(pfile_at(&h.pf, 1, 0, &fi) && fi.state == OSPREY_FILE_CLOSED && fi.size == 5);
    CHECK(fi.name_len == 5 && !memcmp(fi.name, "h.txt", 5) && fi.has_md5);
    CHECK(ph_buf_is(&h, "file.name", 1, 0, "h.txt"));
    CHECK_EQ_U(h.txs, 4);
    feed_str(&h, 1, ".\r\n"); /* the end of the message: the transaction is reported */
    CHECK_EQ_U(h.txs, 5);
    CHECK(!pfile_at(&h.pf, 1, 0, &fi)); /* its files went with it */
    CHECK_EQ_U(ph_count(&h, "pop3_attachments"), 1);
    CHECK_EQ_U(ph_count(&h, "pop3_transactions"), 5);
    /* TOP: the body is cut after n lines, an attachment still open is truncated */
    feed_str(&h, 0, "TOP 1 2\r\n");
    feed_str(&h, 1, "+OK\r\nContent-Disposition: attachment; filename=t\r\n\r\nab\r\n.\r\n");
    CHECK_EQ_U(ph_count(&h, "files_truncated"), 1);
    CHECK_EQ_U(h.txs, 6);
    /* the connection closed: what parsing needs goes */
    pop3_trim(h.pf.state);
    CHECK(st_of(&h)->mime == NULL && st_of(&h)->side[0].line.p == NULL);
    /* a command never answered is reported at the end */
    feed_str(&h, 0, "QUIT\r\n");
    ph_end(&h);
    CHECK_EQ_U(h.txs, 7);
    ph_free(&h);
}

static void test_auth_limits_and_stls(void)
{
    struct ph h;
    ph_init(&h, "pop3", 6, 40000, 110);
    feed_str(&h, 1, "+OK\r\n");
    /* SASL: the client's answer to a challenge is no command */
    feed_str(&h, 0, "AUTH PLAIN\r\n");
    feed_str(&h, 1, "+ \r\n");
    CHECK(st_of(&h)->auth_next);
    feed_str(&h, 0, "AGJvYgBzZWNyZXQ=\r\n");
    current(&h);
    CHECK(!ph_field(&h, "pop3.command", 0, &(int64_t){0}));
    CHECK_EQ_U(ph_nbuf(&h, "pop3.args", 0), 0);
    feed_str(&h, 1, "+OK logged in\r\n");
    CHECK_EQ_U(h.txs, 3);
    /* the limits: every line is still read; the anomalies' events are counted once each */
    char big[400];
    memset(big, 'x', sizeof big);
    memcpy(big, "USER ", 5);
    memcpy(big + sizeof big - 2, "\r\n", 2);
    ph_feed(&h, 0, big, sizeof big);
    feed_str(&h, 1, "-ERR\r\n");
    CHECK_EQ_U(h.txs, 4);
    /* more commands waiting than kept: counted, not queued */
    for (int i = 0; i < POP3_TX_MAX + 3; i++)
        feed_str(&h, 0, "NOOP\r\n");
    CHECK_EQ_U(st_of(&h)->nq, POP3_TX_MAX);
    CHECK_EQ_U(ph_count(&h, "pop3_commands_shed"), 3);
    ph_free(&h);

    /* STLS accepted: the flow is TLS's from there */
    ph_init(&h, "pop3", 6, 40000, 110);
    feed_str(&h, 1, "+OK\r\n");
    feed_str(&h, 0, "STLS\r\n");
    feed_str(&h, 1, "+OK begin\r\n");
    CHECK_EQ_U(h.pf.proto, (uint16_t)osprey_app_proto_find("tls"));
    CHECK_EQ_U(ph_count(&h, "pop3_stls"), 1);
    CHECK_EQ_U(h.txs, 2);
    h.def = reg_proto(h.pf.proto);
    ph_free(&h);
    /* refused: still POP3 */
    ph_init(&h, "pop3", 6, 40000, 110);
    feed_str(&h, 0, "STLS\r\n");
    feed_str(&h, 1, "-ERR not now\r\n");
    CHECK_EQ_U(h.pf.proto, (uint16_t)osprey_app_proto_find("pop3"));
    ph_free(&h);
}

/* A gap: a message being retrieved is cut (its open file truncated, its transaction done);
 * bytes that do not start like POP3 are skipped until a chunk that does. */
static void test_gap(void)
{
    struct ph h;
    ph_init(&h, "pop3", 6, 40000, 110);
    feed_str(&h, 1, "+OK\r\n");
    feed_str(&h, 0, "RETR 1\r\n");
    feed_str(&h, 1, "+OK\r\nContent-Disposition: attachment; filename=g\r\n\r\nabc\r\n");
    CHECK(st_of(&h)->in_msg);
    h.def->gap(&h.pf, &h.f, 1);
    CHECK(!st_of(&h)->in_data && !st_of(&h)->in_msg);
    CHECK_EQ_U(ph_count(&h, "files_truncated"), 1);
    CHECK_EQ_U(h.txs, 2);
    feed_str(&h, 1, "def\r\n.\r\n"); /* the rest of the lost message: skipped */
    CHECK_EQ_U(h.txs, 2);
    feed_str(&h, 0, "STAT\r\n");
    feed_str(&h, 1, "+OK 1 120\r\n"); /* starts like POP3: parsed again */
    CHECK_EQ_U(h.txs, 3);
    h.def->gap(&h.pf, &h.f, 0);
    feed_str(&h, 0, "xyz\r\n");
    CHECK_EQ_U(st_of(&h)->nq, 0);
    feed_str(&h, 0, "NOOP\r\n");
    CHECK_EQ_U(st_of(&h)->nq, 1);
    ph_free(&h);
}

static void test_probes(void)
{
    struct mon_flow f = {.sport = 9000, .cport = 40000};
    const char *srv_yes[] = {"+OK ready\r\n", "+OK\r\n", NULL};
    for (int i = 0; srv_yes[i]; i++)
        CHECK(pop3_probe_server((const uint8_t *)srv_yes[i], strlen(srv_yes[i]), &f) ==
              DET_YES);
    CHECK(pop3_probe_server((const uint8_t *)"+O", 2, &f) == DET_NEED_MORE);
    CHECK(pop3_probe_server((const uint8_t *)"+OKAY", 5, &f) == DET_NO);
    CHECK(pop3_probe_server((const uint8_t *)"220 mx\r\n", 8, &f) == DET_NO);
    CHECK(pop3_probe_client((const uint8_t *)"STAT\r\n", 6, &f) == DET_YES);
    CHECK(pop3_probe_client((const uint8_t *)"RET", 3, &f) == DET_NEED_MORE);
    CHECK(pop3_probe_client((const uint8_t *)"USER bob\r\n", 10, &f) == DET_NO); /* FTP's too */
    f.sport = 110;
    CHECK(pop3_probe_client((const uint8_t *)"USER bob\r\n", 10, &f) == DET_YES);
    CHECK(pop3_probe_client((const uint8_t *)"GET / HTTP/1.1\r\n", 16, &f) == DET_NO);
    CHECK(pop3_probe_client((const uint8_t *)"EHLO x\r\n", 8, &f) == DET_NO);
}

int main(void)
{
    test_session();
    test_auth_limits_and_stls();
    test_gap();
    test_probes();
    return unit_report("test_proto_pop3");
}
