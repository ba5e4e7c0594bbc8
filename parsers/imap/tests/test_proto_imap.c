/* test_proto_imap.c — IMAP's descriptor, bytes in, buffers out: tagged commands completed by
 * their tagged status lines, a greeting's loose transaction, literals (a FETCH's BODY[] read
 * as a message: its attachment as file.data and a file; other literals skipped whole, even
 * when they hold line ends or tags), an APPEND's message from the client, a SASL exchange,
 * the command limit, STARTTLS handing the flow to TLS, the literal reader and the probes; a
 * client gap in an APPEND's literal (the message cut at its completion, the lines after the
 * hole skipped one by one up to the next tagged command). */
#include "imap_int.h"
#include "proto_harness.h"
#include "unit.h"

static void feed_str(struct ph *h, int dir, const char *s)
{
    ph_feed(h, dir, s, strlen(s));
}

static struct imap_state *st_of(struct ph *h)
{
    return h->pf.state;
}

#define MSG "Content-Type: multipart/mixed; boundary=Q\r\n\r\n--Q\r\n" \
            "Content-Disposition: attachment; filename=\"h.txt\"\r\n" \
            "Content-Transfer-Encoding: base64\r\n\r\nSGVsbG8=\r\n--Q--\r\n"

static void test_fetch(void)
{
    struct ph h;
    ph_init(&h, "imap", 6, 40000, 143);
    h.p.files = OSPREY_FILES_MD5;
    feed_str(&h, 1, "* OK IMAP4rev1 ready\r\n");
    CHECK(st_of(&h)->loose != NULL);
    feed_str(&h, 0, "a1 LOGIN bob {6}\r\n"); /* the greeting's transaction is reported */
    CHECK_EQ_U(h.txs, 1);
    feed_str(&h, 0, "se\r\nt1\r\n"); /* a literal: bytes, whatever they hold */
    CHECK_EQ_U(st_of(&h)->nq, 1);
    feed_str(&h, 1, "a1 OK done\r\n");
    CHECK_EQ_U(h.txs, 2);
    CHECK_EQ_U(st_of(&h)->nq, 0);
    char fetch[256];
    snprintf(fetch, sizeof fetch, "* 1 FETCH (BODY[] {%zu}\r\n", strlen(MSG));
    feed_str(&h, 0, "a2 FETCH 1 BODY[]\r\n");
    feed_str(&h, 1, fetch);
    feed_str(&h, 1, MSG);
    st_of(&h)->cur = st_of(&h)->head;
    CHECK(ph_buf_is(&h, "file.data", 1, 0, "Hello"));
    struct osprey_file_info fi;
    CHECK(pfile_at(&h.pf, 1, 0, &fi) && fi.state == OSPREY_FILE_CLOSED && fi.size == 5);
    CHECK(fi.name_len == 5 && !memcmp(fi.name, "h.txt", 5) && fi.has_md5 && fi.tx_id == 2);
    CHECK(ph_buf_is(&h, "file.name", 1, 0, "h.txt"));
    CHECK_EQ_U(h.txs, 2);
    feed_str(&h, 1, ")\r\na2 OK FETCH done\r\n");
    CHECK_EQ_U(h.txs, 3);
    CHECK(!pfile_at(&h.pf, 1, 0, &fi));
    CHECK_EQ_U(ph_count(&h, "imap_attachments"), 1);
    CHECK_EQ_U(ph_count(&h, "imap_literal_bytes"), 6 + strlen(MSG));
    /* the client's APPEND: a message it sends */
    char app[256];
    snprintf(app, sizeof app, "a3 APPEND INBOX {%zu+}\r\n", strlen(MSG));
    feed_str(&h, 0, app);
    feed_str(&h, 0, MSG);
    st_of(&h)->cur = st_of(&h)->tail;
    CHECK(ph_buf_is(&h, "file.data", 0, 0, "Hello"));
    CHECK(pfile_at(&h.pf, 0, 0, &fi) && fi.state == OSPREY_FILE_CLOSED);
    feed_str(&h, 0, "\r\n");
    /* a message cut by the flow's end: its file is truncated */
    snprintf(fetch, sizeof fetch, "* 2 FETCH (RFC822 {%zu}\r\n", strlen(MSG));
    feed_str(&h, 1, "a3 OK\r\n");
    feed_str(&h, 0, "a4 FETCH 2 RFC822\r\n");
    feed_str(&h, 1, fetch);
    ph_feed(&h, 1, MSG, strlen(MSG) - 12);
    CHECK(st_of(&h)->msg_dir == 1);
    imap_trim(h.pf.state); /* (a message still open keeps its reader) */
    CHECK(st_of(&h)->mime != NULL);
    ph_end(&h);
    CHECK_EQ_U(ph_count(&h, "files_truncated"), 1);
    CHECK_EQ_U(h.txs, 5);
    ph_free(&h);
}

static void test_sasl_limits_and_starttls(void)
{
    struct ph h;
    ph_init(&h, "imap", 6, 40000, 143);
    feed_str(&h, 0, "x AUTHENTICATE PLAIN\r\n");
    feed_str(&h, 1, "+ \r\n");
    feed_str(&h, 0, "AGJvYgBzZWNyZXQ=\r\n"); /* the answer: no command */
    CHECK_EQ_U(st_of(&h)->nq, 1);
    feed_str(&h, 1, "x OK\r\n");
    CHECK_EQ_U(h.txs, 1);
    for (int i = 0; i < IMAP_TX_MAX + 2; i++)
        feed_str(&h, 0, "n NOOP\r\n");
    CHECK_EQ_U(st_of(&h)->nq, IMAP_TX_MAX);
    CHECK_EQ_U(ph_count(&h, "imap_commands_shed"), 2);
    ph_free(&h);

    ph_init(&h, "imap", 6, 40000, 143);
    feed_str(&h, 0, "s STARTTLS\r\n");
    feed_str(&h, 1, "s NO later\r\n"); /* refused: still IMAP */
    CHECK_EQ_U(h.pf.proto, (uint16_t)osprey_app_proto_find("imap"));
    feed_str(&h, 0, "t STARTTLS\r\n");
    feed_str(&h, 1, "t OK go\r\n");
    CHECK_EQ_U(h.pf.proto, (uint16_t)osprey_app_proto_find("tls"));
    CHECK_EQ_U(ph_count(&h, "imap_starttls"), 1);
    h.def = reg_proto(h.pf.proto);
    ph_free(&h);
}

static void test_literal_and_probes(void)
{
    bool msg;
    const char *l = "* 1 FETCH (FLAGS () BODY[] {310}";
    CHECK(imap_literal((const uint8_t *)l, strlen(l), 1, &msg) == 310 && msg);
    l = "* 1 FETCH (BODY[HEADER.FIELDS (SUBJECT)] {30}";
    CHECK(imap_literal((const uint8_t *)l, strlen(l), 1, &msg) == 30 && !msg);
    l = "* 1 FETCH (RFC822.SIZE 5 RFC822.TEXT {7}";
    CHECK(imap_literal((const uint8_t *)l, strlen(l), 1, &msg) == 7 && msg);
    l = "a LOGIN {3+}";
    CHECK(imap_literal((const uint8_t *)l, strlen(l), 0, &msg) == 3 && !msg);
    l = "a append box {99}";
    CHECK(imap_literal((const uint8_t *)l, strlen(l), 0, &msg) == 99 && msg);
    CHECK(imap_literal((const uint8_t *)"a {x}", 5, 0, &msg) == -1);
    CHECK(imap_literal((const uint8_t *)"{}", 2, 0, &msg) == -1);
    CHECK(imap_literal((const uint8_t *)"a {99999999999999999999}", 24, 0, &msg) == -1);

    struct mon_flow f = {.sport = 9000, .cport = 40000};
    CHECK(imap_probe_server((const uint8_t *)"* OK ready\r\n", 12, &f) == DET_YES);
    CHECK(imap_probe_server((const uint8_t *)"* PREAUTH hi\r\n", 14, &f) == DET_YES);
    CHECK(imap_probe_server((const uint8_t *)"* O", 3, &f) == DET_NEED_MORE);
    CHECK(imap_probe_server((const uint8_t *)"+OK\r\n", 5, &f) == DET_NO);
    CHECK(imap_probe_client((const uint8_t *)"a001 login x y\r\n", 16, &f) == DET_YES);
    CHECK(imap_probe_client((const uint8_t *)"A1 CAPABILITY\r\n", 15, &f) == DET_YES);
    CHECK(imap_probe_client((const uint8_t *)"a001 LOG", 8, &f) == DET_NEED_MORE);
    CHECK(imap_probe_client((const uint8_t *)"GET / HTTP/1.1\r\n", 16, &f) == DET_NO);
    CHECK(imap_probe_client((const uint8_t *)"MAIL FROM:<a>\r\n", 15, &f) == DET_NO);
    CHECK(imap_probe_client((const uint8_t *)"a1 WHATEVER\r\n", 13, &f) == DET_NO);
}

static void test_client_gap(void)
{
    struct ph h;
    ph_init(&h, "imap", 6, 40000, 143);
    feed_str(&h, 1, "* OK ready\r\n");
    char app[64];
    snprintf(app, sizeof app, "a2 APPEND INBOX {%zu}\r\n", strlen(MSG));
    feed_str(&h, 0, app);
    feed_str(&h, 1, "+ go\r\n");
    ph_feed(&h, 0, MSG, 100); /* inside the attachment's headers: the rest is lost */
    /* the server completes the APPEND before the client's side reaches the hole: the
     * message is cut there (its attachment a truncated file) */
    feed_str(&h, 1, "a2 OK APPEND done\r\n");
    CHECK(st_of(&h)->msg_dir < 0);
    h.def->gap(&h.pf, &h.f, 0);
    /* what follows the hole in one chunk: the literal's last lines, then a command */
    feed_str(&h, 0, "SGVsbG8=\r\n--Q--\r\n\r\na3 NOOP\r\n");
    CHECK(!st_of(&h)->side[0].gap);
    CHECK_EQ_U(st_of(&h)->nq, 1); /* a3 waits for its completion */
    feed_str(&h, 1, "a3 OK\r\n");
    CHECK_EQ_U(st_of(&h)->nq, 0);
    ph_end(&h);
    ph_free(&h);
}

int main(void)
{
    test_fetch();
    test_client_gap();
    test_sasl_limits_and_starttls();
    test_literal_and_probes();
    return unit_report("test_proto_imap");
}
