/* test_proto_smtp.c — SMTP's descriptor, bytes in, buffers out: a session's envelope
 * (smtp.helo, smtp.mail_from, smtp.rcpt_to), the message's headers (email.*), URLs and an
 * attachment's decoded bytes (file.data) through the MIME reader, transactions finished by
 * the reply to the message's end, RSET, a refused DATA, pipelining, BDAT chunks, STARTTLS
 * handing the flow to TLS, long lines, the probes and the attachment limit. */
#include "smtp_int.h"
#include "proto_harness.h"
#include "unit.h"

static void feed_str(struct ph *h, int dir, const char *s)
{
    ph_feed(h, dir, s, strlen(s));
}

/* file.data is several protocols' name: SMTP's row */
static bool file_is(struct ph *h, const char *want)
{
    uint32_t n;
    const uint8_t *d = ph_get(h, osprey_buffer_find_in("file.data", 0, h->pf.proto), 0, &n);
    return d && n == strlen(want) && !memcmp(d, want, n);
}

static const struct smtp_state *st_of(struct ph *h)
{
    return h->pf.state;
}

static void test_session(void)
{
    struct ph h;
    ph_init(&h, "smtp", 6, 40000, 25);
    feed_str(&h, 1, "220 mx.example ESMTP\r\n");
    feed_str(&h, 0, "EHLO client.example\r\n");
    CHECK(ph_buf_is(&h, "smtp.helo", 0, 0, "client.example"));
    feed_str(&h, 1, "250-mx.example\r\n250-PIPELINING\r\n250 CHUNKING\r\n");
    feed_str(&h, 0, "MAIL FROM:<a@x.org> SIZE=100\r\n");
    CHECK(ph_buf_is(&h, "smtp.mail_from", 0, 0, "<a@x.org>")); /* without its parameters */
    feed_str(&h, 0, "RCPT TO: <b@y.org>\r\nRCPT TO:<c@y.org>\r\n");
    CHECK_EQ_U(ph_nbuf(&h, "smtp.rcpt_to", 0), 2);
    CHECK(ph_buf_is(&h, "smtp.rcpt_to", 0, 1, "<c@y.org>"));
    feed_str(&h, 1, "250 OK\r\n250 OK\r\n250 OK\r\n");
    feed_str(&h, 0, "DATA\r\n");
    feed_str(&h, 1, "354 go ahead\r\n");
    feed_str(&h, 0, "From: A <a@x.org>\r\nTo: b@y.org, \"c,d\" <c@y.org>\r\nCc: e@z.org\r\n"
                    "Subject: hi\r\nDate: Mon, 1 Jan 2024 00:00:00 +0000\r\n"
                    "Message-ID: <m1@x.org>\r\nX-Mailer: tester 1.0\r\n"
                    "Received: from a by b\r\nReceived: from c\r\n by d\r\n"
                    "Content-Type: multipart/mixed; boundary=\"BB\"\r\n\r\n");
    CHECK(ph_buf_is(&h, "email.from", 0, 0, "A <a@x.org>"));
    CHECK(ph_buf_is(&h, "email.to", 0, 0, "b@y.org, \"c,d\" <c@y.org>"));
    CHECK(ph_buf_is(&h, "email.cc", 0, 0, "e@z.org"));
    CHECK(ph_buf_is(&h, "email.subject", 0, 0, "hi"));
    CHECK(ph_buf_is(&h, "email.date", 0, 0, "Mon, 1 Jan 2024 00:00:00 +0000"));
    CHECK(ph_buf_is(&h, "email.message_id", 0, 0, "<m1@x.org>"));
    CHECK(ph_buf_is(&h, "email.x_mailer", 0, 0, "tester 1.0"));
    CHECK_EQ_U(ph_nbuf(&h, "email.received", 0), 2);
    CHECK(ph_buf_is(&h, "email.received", 0, 1, "from c by d"));
    /* the body: a text part with URLs, a base64 attachment split anywhere, dot-stuffing */
    feed_str(&h, 0, "--BB\r\nContent-Type: text/plain\r\n\r\nsee http://Ex.org/A and "
                    "http://ex.org/A\r\n..dotted\r\n--BB\r\n"
                    "Content-Type: application/pdf; name=\"r.pdf\"\r\n"
                    "Content-Transfer-Encoding: base64\r\n\r\nSGVsbG8s");
    feed_str(&h, 0, "IHdvcmxk\r\nIQ==\r\n--BB--\r\n");
    CHECK(file_is(&h, "Hello, world!"));
    CHECK(ph_rec_is(&h, "smtp.attachment", 0, "r.pdf"));
    feed_str(&h, 0, ".\r\n");
    CHECK_EQ_U(ph_nbuf(&h, "email.url", 0), 1); /* lower-cased, each once */
    CHECK(ph_buf_is(&h, "email.url", 0, 0, "ex.org/a"));
    CHECK(st_of(&h)->tx && st_of(&h)->tx->data_done);
    CHECK_EQ_U(h.txs, 0);
    feed_str(&h, 1, "250 queued\r\n"); /* the reply to the end finishes the transaction */
    CHECK_EQ_U(h.txs, 1);
    CHECK_EQ_U(ph_count(&h, "smtp_transactions"), 1);
    CHECK_EQ_U(ph_count(&h, "smtp_attachments"), 1);
    /* the connection closed: what parsing needs goes, the records' part stays */
    smtp_trim(h.pf.state);
    CHECK(st_of(&h)->mime == NULL && st_of(&h)->side[0].line.p == NULL);
    CHECK(ph_buf_is(&h, "smtp.helo", 0, 0, "client.example"));
    /* RSET ends a transaction; QUIT without one reports nothing more */
    feed_str(&h, 0, "MAIL FROM:<z@x.org>\r\nRSET\r\n");
    CHECK_EQ_U(h.txs, 2);
    CHECK_EQ_U(st_of(&h)->tx ? st_of(&h)->tx->id : 99, 99);
    feed_str(&h, 0, "QUIT\r\n");
    feed_str(&h, 1, "250 ok\r\n250 ok\r\n221 bye\r\n");
    ph_end(&h);
    CHECK_EQ_U(h.txs, 2);
    CHECK_EQ_U(st_of(&h)->nq, 0);
    ph_free(&h);
}

static void test_data_refused_and_pipelining(void)
{
    struct ph h;
    ph_init(&h, "smtp", 6, 40000, 25);
    feed_str(&h, 1, "220 hi\r\n");
    /* pipelined: the replies come after, in order; DATA refused turns the client's side back
     * to commands (the RSET after it is a command) */
    feed_str(&h, 0, "MAIL FROM:<a@x>\r\nRCPT TO:<b@y>\r\nDATA\r\n");
    CHECK_EQ_U(st_of(&h)->nq, 3);
    CHECK_EQ_U(st_of(&h)->mode, SM_DATA);
    feed_str(&h, 1, "250 ok\r\n550 no\r\n554 no valid recipients\r\n");
    CHECK_EQ_U(st_of(&h)->mode, SM_CMD);
    feed_str(&h, 0, "RSET\r\n");
    CHECK_EQ_U(h.txs, 1);
    /* a reply nobody asked for */
    feed_str(&h, 1, "250 ok\r\n250 extra\r\n");
    CHECK_EQ_U(st_of(&h)->nq, 0);
    ph_free(&h);
    /* a capture that began after the greeting: the first reply answers the first command,
     * the 354 the DATA, and the reply to the end finishes the transaction */
    ph_init(&h, "smtp", 6, 40000, 25);
    feed_str(&h, 0, "MAIL FROM:<a@x>\r\n");
    feed_str(&h, 1, "250 ok\r\n");
    feed_str(&h, 0, "DATA\r\n");
    feed_str(&h, 1, "354 go\r\n");
    feed_str(&h, 0, "Subject: s\r\n\r\nx\r\n.\r\n");
    CHECK_EQ_U(h.txs, 0);
    feed_str(&h, 1, "250 queued\r\n");
    CHECK_EQ_U(h.txs, 1);
    ph_free(&h);
}

static void test_bdat(void)
{
    struct ph h;
    ph_init(&h, "smtp", 6, 40000, 25);
    feed_str(&h, 1, "220 hi\r\n");
    feed_str(&h, 0, "EHLO c\r\nMAIL FROM:<a@x>\r\nRCPT TO:<b@y>\r\n");
    /* two chunks, the first ending mid-line; no dot-stuffing in BDAT */
    const char *c1 = "Subject: chunked\r\nContent-Disposition: attachment; filename=f\r\n\r\n.ab";
    char cmd[64];
    snprintf(cmd, sizeof cmd, "BDAT %zu\r\n", strlen(c1));
    feed_str(&h, 0, cmd);
    feed_str(&h, 0, c1);
    CHECK(ph_buf_is(&h, "email.subject", 0, 0, "chunked"));
    CHECK_EQ_U(st_of(&h)->mode, SM_CMD);
    feed_str(&h, 0, "BDAT 4 LAST\r\ncd\r\n");
    CHECK(file_is(&h, ".abcd"));
    CHECK(st_of(&h)->tx->data_done);
    feed_str(&h, 1, "250 a\r\n250 b\r\n250 c\r\n250 d\r\n");
    CHECK_EQ_U(h.txs, 0);
    feed_str(&h, 1, "250 e\r\n"); /* the reply to BDAT LAST */
    CHECK_EQ_U(h.txs, 1);
    /* BDAT without a size */
    feed_str(&h, 0, "BDAT x\r\nNOOP\r\n");
    CHECK_EQ_U(st_of(&h)->mode, SM_CMD);
    ph_free(&h);
}

static void test_starttls(void)
{
    struct ph h;
    ph_init(&h, "smtp", 6, 40000, 587);
    feed_str(&h, 1, "220 hi\r\n");
    feed_str(&h, 0, "EHLO c\r\nSTARTTLS\r\n");
    feed_str(&h, 1, "250 ok\r\n454 not now\r\n"); /* refused: still SMTP */
    CHECK_EQ_U(h.pf.proto, (uint16_t)osprey_app_proto_find("smtp"));
    feed_str(&h, 0, "STARTTLS\r\n");
    feed_str(&h, 1, "220 go ahead\r\n");
    /* Suricata's protocol change: detected again, TLS expected */
    uint16_t tls = (uint16_t)osprey_app_proto_find("tls");
    CHECK_EQ_U(h.pf.proto, OSPREY_APP_PROTO_UNKNOWN);
    CHECK_EQ_U(h.pf.expect, tls);
    CHECK(h.pf.changing);
    CHECK_EQ_U(h.pf.orig, (uint16_t)osprey_app_proto_find("smtp"));
    CHECK_EQ_U(ph_count(&h, "smtp_starttls"), 1);
    CHECK_EQ_U(h.txs, 1); /* the SMTP transaction (its HELO) reported at the switch */
    /* the client's hello decides TLS, and goes to its parser */
    static const uint8_t hello[] = {
        0x16, 0x03, 0x01, 0x00, 0x2d, 0x01, 0x00, 0x00, 0x29, 0x03, 0x03, 1, 2, 3, 4, 5, 6, 7,
        8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
        31, 32, 0x00, 0x00, 0x02, 0x00, 0x2f, 0x01, 0x00};
    parsers_feed(&h.pf, &h.f, 0, hello, sizeof hello);
    CHECK_EQ_U(h.pf.proto, tls);
    CHECK_EQ_U(h.pf.expect, 0);
    CHECK(h.pf.state != NULL);
    /* an upgrade is refused while the change is under way (its first transaction) */
    CHECK(!pflow_upgrade(&h.pf, tls) || !h.pf.changing);
    h.def = reg_proto(h.pf.proto); /* (the state is TLS's now) */
    ph_free(&h);

    /* HTTP where TLS was announced: HTTP's, its first transaction still the change's */
    ph_init(&h, "smtp", 6, 40000, 25);
    feed_str(&h, 0, "STARTTLS\r\n");
    feed_str(&h, 1, "220 go ahead\r\n");
    static const char resp[] = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
    parsers_feed(&h.pf, &h.f, 1, (const uint8_t *)resp, sizeof resp - 1);
    CHECK_EQ_U(h.pf.proto, (uint16_t)osprey_app_proto_find("http"));
    CHECK(!h.pf.changing); /* its first transaction completed */
    CHECK(pflow_upgrade(&h.pf, tls));
    h.pf.upgrade = 0;
    h.def = reg_proto(h.pf.proto);
    ph_free(&h);
}

static void test_limits_and_probes(void)
{
    struct ph h;
    ph_init(&h, "smtp", 6, 40000, 25);
    char big[SMTP_LINE_MAX + 100];
    memset(big, 'a', sizeof big);
    memcpy(big, "HELO ", 5);
    big[sizeof big - 2] = '\r';
    big[sizeof big - 1] = '\n';
    ph_feed(&h, 0, big, sizeof big);
    CHECK_EQ_U(st_of(&h)->helo.len, SMTP_LINE_MAX - 5); /* cut at the line limit */
    feed_str(&h, 0, "NOOP\r\n");
    CHECK_EQ_U(st_of(&h)->nq, 2);
    /* more pipelined commands than kept: counted */
    for (int i = 0; i < SMTP_CMD_MAX + 5; i++)
        feed_str(&h, 0, "NOOP\r\n");
    CHECK_EQ_U(ph_count(&h, "smtp_commands_shed"), 7);
    ph_free(&h);
    /* app-layer.protocols.smtp.attachment-limit: the rest counted */
    ph_init(&h, "smtp", 6, 40000, 25);
    ((struct smtp_cfg *)parsers_proto_cfg(&h.p.cfg, h.pf.proto))->attachment_limit = 4;
    feed_str(&h, 0, "MAIL FROM:<a@x>\r\nDATA\r\nContent-Disposition: attachment\r\n\r\n"
                    "abcdefgh\r\n.\r\n");
    CHECK(file_is(&h, "abcd"));
    CHECK_EQ_U(ph_count(&h, "smtp_file_bytes_shed"), 4);
    ph_free(&h);

    struct mon_flow f = {.sport = 2525, .cport = 40000};
    const char *yes[] = {"EHLO a\r\n", "helo a\r\n", "HELO", NULL};
    for (int i = 0; yes[i]; i++)
        CHECK(smtp_probe_client((const uint8_t *)yes[i], strlen(yes[i]), &f) !=
              DET_NO);
    CHECK(smtp_probe_client((const uint8_t *)"QUIT\r\n", 6, &f) == DET_NO);
    f.sport = 587;
    CHECK(smtp_probe_client((const uint8_t *)"QUIT\r\n", 6, &f) == DET_YES);
    CHECK(smtp_probe_client((const uint8_t *)"GET / HTTP/1.1\r\n", 16, &f) == DET_NO);
    /* a 220 greeting is weak: FTP servers greet so too (the client's command decides) */
    CHECK(smtp_probe_server((const uint8_t *)"220 mx ESMTP\r\n", 14, &f) == DET_WEAK);
    CHECK(smtp_probe_server((const uint8_t *)"220 mx ESM", 10, &f) == DET_NEED_MORE);
    CHECK(smtp_probe_server((const uint8_t *)"220 ProFTPD ready\r\n", 19, &f) == DET_NO);
    CHECK(smtp_probe_server((const uint8_t *)"230 x\r\n", 7, &f) == DET_NO);
    f.sport = 21;
    CHECK(smtp_probe_server((const uint8_t *)"220 mx\r\n", 8, &f) == DET_NO);
}

/* Attachments are files of the file layer: named, hashed whole (even past the attachment
 * limit), closed before smtp_file; served as file.name; released with their transaction; a
 * message cut by RSET leaves its open attachment truncated. */
static void test_files(void)
{
    struct ph h;
    ph_init(&h, "smtp", 6, 40000, 25);
    h.p.files = OSPREY_FILES_MD5;
    ((struct smtp_cfg *)parsers_proto_cfg(&h.p.cfg, h.pf.proto))->attachment_limit = 2;
    feed_str(&h, 1, "220 mx\r\n");
    feed_str(&h, 0, "MAIL FROM:<a@x>\r\nDATA\r\nContent-Type: multipart/mixed; boundary=B\r\n"
                    "\r\n--B\r\nContent-Disposition: attachment; filename=\"a.txt\"\r\n"
                    "Content-Transfer-Encoding: base64\r\n\r\nSGVs\r\n");
    feed_str(&h, 1, "250 ok\r\n354 go\r\n");
    struct osprey_file_info fi;
    CHECK(pfile_at(&h.pf, 0, 0, &fi) && fi.state == OSPREY_FILE_OPEN && fi.size == 3);
    feed_str(&h, 0, "bG8=\r\n--B--\r\n");
    CHECK(pfile_at(&h.pf, 0, 0, &fi) && fi.state == OSPREY_FILE_CLOSED && fi.size == 5);
    CHECK(fi.name_len == 5 && !memcmp(fi.name, "a.txt", 5) && fi.has_md5);
    static const uint8_t MD5_HELLO[16] = {0x8b, 0x1a, 0x99, 0x53, 0xc4, 0x61, 0x12, 0x96,
                                          0xa8, 0x27, 0xab, 0xf8, 0xc4, 0x78, 0x04, 0xd7};
    CHECK(!memcmp(fi.md5, MD5_HELLO, 16)); /* "Hello": the whole file, not the 2 kept */
    CHECK(file_is(&h, "He"));
    CHECK(!pfile_at(&h.pf, 1, 0, &fi)); /* the server sends none */
    feed_str(&h, 0, ".\r\n");
    CHECK(ph_buf_is(&h, "file.name", 0, 0, "a.txt"));
    feed_str(&h, 1, "250 ok\r\n"); /* reported: its files are forgotten */
    CHECK_EQ_U(h.txs, 1);
    CHECK(!pfile_at(&h.pf, 0, 0, &fi));
    feed_str(&h, 0, "MAIL FROM:<a@x>\r\nDATA\r\nContent-Disposition: attachment; filename=b\r\n"
                    "\r\nabc\r\n");
    CHECK(pfile_at(&h.pf, 0, 0, &fi) && fi.state == OSPREY_FILE_OPEN);
    CHECK_EQ_U(fi.tx_id, 1);
    CHECK_EQ_U(ph_count(&h, "files_truncated"), 0);
    ph_end(&h); /* the flow ends mid-message: the file is cut short, then released */
    CHECK_EQ_U(h.txs, 2);
    CHECK_EQ_U(ph_count(&h, "files_truncated"), 1);
    CHECK(!pfile_at(&h.pf, 0, 0, &fi));
    ph_free(&h);
}

int main(void)
{
    test_files();
    test_session();
    test_data_refused_and_pipelining();
    test_bdat();
    test_starttls();
    test_limits_and_probes();
    return unit_report("test_proto_smtp");
}
