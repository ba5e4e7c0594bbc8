/* test_proto_ftp.c — FTP's and ftp-data's descriptors, bytes in, buffers out: commands and
 * replies paired into transactions (multi-line and preliminary replies, the greeting,
 * pipelining and its limit), long lines cut and flagged, the ports PORT / EPRT / PASV / EPSV
 * announce, the probes, and the expectation a RETR leaves for its data connection. */
#include "ftp_int.h"
#include "proto_harness.h"
#include "unit.h"

static void feed_str(struct ph *h, int dir, const char *s)
{
    ph_feed(h, dir, s, strlen(s));
}

static int64_t field_or(struct ph *h, const char *name, int64_t none)
{
    int64_t v;
    return ph_field(h, name, 0, &v) ? v : none;
}

static void test_session(void)
{
    struct ph h;
    ph_init(&h, "ftp", 6, 40000, 21);
    feed_str(&h, 1, "220 (vsFTPd 3.0.3)\r\n");
    CHECK_EQ_U(h.txs, 1); /* the greeting: a transaction without command */
    CHECK(!ph_buf(&h, "ftp.command", 0, 0, &(uint32_t){0}));
    CHECK(ph_buf_is(&h, "ftp.reply", 1, 0, "(vsFTPd 3.0.3)"));
    CHECK(ph_buf_is(&h, "ftp.completion_code", 1, 0, "220"));
    CHECK_EQ_U(field_or(&h, "ftp.reply_received", -1), -1); /* answers no command */
    feed_str(&h, 0, "USER anonymous\r\n");
    CHECK(ph_buf_is(&h, "ftp.command", 0, 0, "USER"));
    CHECK(ph_buf_is(&h, "ftp.command_data", 0, 0, "anonymous"));
    CHECK_EQ_U(field_or(&h, "ftp.reply_received", -1), 0);
    feed_str(&h, 1, "331 Please specify");
    CHECK_EQ_U(h.txs, 1);
    feed_str(&h, 1, " the password.\r\n");
    CHECK_EQ_U(h.txs, 2);
    CHECK(ph_buf_is(&h, "ftp.reply", 1, 0, "Please specify the password."));
    CHECK_EQ_U(field_or(&h, "ftp.reply_received", -1), 1);
    /* a multi-line reply: every line an element, codes of the lines that have one */
    feed_str(&h, 0, "PASS x\n");
    feed_str(&h, 1, "230-Welcome\r\n extra line\r\n230 Login successful.\r\n");
    CHECK_EQ_U(h.txs, 3);
    CHECK_EQ_U(ph_nbuf(&h, "ftp.reply", 1), 3);
    CHECK(ph_buf_is(&h, "ftp.reply", 1, 1, " extra line"));
    CHECK(ph_buf_is(&h, "ftp.reply", 1, 2, "Login successful."));
    CHECK_EQ_U(ph_nbuf(&h, "ftp.completion_code", 1), 2);
    /* active mode: the port, then RETR; a preliminary reply keeps the transaction open */
    feed_str(&h, 0, "PORT 192,168,0,1,7,138\r\n");
    CHECK_EQ_U(field_or(&h, "ftp.dynamic_port", -1), 7 * 256 + 138);
    CHECK_EQ_U(field_or(&h, "ftp.mode", -1), FTP_MODE_ACTIVE);
    feed_str(&h, 1, "200 PORT command successful.\r\n");
    feed_str(&h, 0, "RETR temp.txt\r\n");
    feed_str(&h, 1, "150 Opening BINARY mode data connection.\r\n");
    CHECK_EQ_U(h.txs, 4);
    feed_str(&h, 1, "226 Transfer complete.\r\n");
    CHECK_EQ_U(h.txs, 5);
    CHECK(ph_buf_is(&h, "ftp.command", 0, 0, "RETR"));
    CHECK_EQ_U(ph_nbuf(&h, "ftp.reply", 1), 2);
    CHECK(ph_buf_is(&h, "ftp.completion_code", 1, 1, "226"));
    CHECK_EQ_U(ph_count(&h, "ftp_expect"), 1);
    CHECK_EQ_U(ph_count(&h, "ftp_transactions"), 5);
    /* a command never answered is reported at the end, once */
    feed_str(&h, 0, "QUIT\r\n");
    CHECK(!ph_buf(&h, "ftp.command_data", 0, 0, &(uint32_t){0}));
    ph_end(&h);
    CHECK_EQ_U(h.txs, 6);
    ph_end(&h);
    CHECK_EQ_U(h.txs, 6);
    pexpect_free(&h.w.expect);
    ph_free(&h);
}

static void test_limits(void)
{
    struct ph h;
    ph_init(&h, "ftp", 6, 40000, 21);
    /* a command past FTP_LINE_MAX is cut there, the rest of its line skipped */
    char big[FTP_LINE_MAX + 100];
    memcpy(big, "RETR ", 5);
    memset(big + 5, 'a', sizeof big - 5);
    ph_feed(&h, 0, big, sizeof big);
    feed_str(&h, 0, "bbb\r\nRETR index.html\r\n");
    struct ftp_state *st = h.pf.state;
    CHECK_EQ_U(st->nq, 2);
    CHECK_EQ_U(st->q[0]->cmd.len, FTP_LINE_MAX); /* "RETR " and 4091 bytes of data */
    CHECK(st->q[0]->cmd_trunc && !st->q[1]->cmd_trunc);
    CHECK(ph_buf_is(&h, "ftp.command_data", 0, 0, "index.html"));
    /* pipelined commands past max-tx (here 8): too_many_transactions, the client's side
     * given up; what waits is still answered */
    ((struct ftp_cfg *)ph_cfg(&h))->max_tx = 8;
    for (int i = 0; i < 10; i++)
        feed_str(&h, 0, "NOOP\r\n");
    CHECK_EQ_U(st->nq, 8);
    CHECK_EQ_U(ph_count(&h, "ftp_tx_shed"), 1);
    CHECK(h.pf.dead[0]);
    CHECK_EQ_U(h.txs, 0);
    /* replies go to the oldest waiting */
    feed_str(&h, 1, "200 ok\r\n");
    CHECK_EQ_U(st->nq, 7);
    CHECK_EQ_U(h.txs, 1);
    /* reply lines past FTP_REPLY_LINES are counted, not kept */
    feed_str(&h, 1, "211-features\r\n");
    for (int i = 0; i < FTP_REPLY_LINES; i++)
        feed_str(&h, 1, " MDTM\r\n");
    feed_str(&h, 1, "211 End\r\n");
    CHECK_EQ_U(ph_count(&h, "ftp_lines_shed"), 2);
    ph_free(&h);
}

static void test_max_line(void)
{
    struct ph h;
    ph_init(&h, "ftp", 6, 40000, 21);
    ((struct ftp_cfg *)ph_cfg(&h))->max_line = 64; /* app-layer.protocols.ftp.max-line-length */
    char big[200];
    memset(big, 'x', sizeof big);
    feed_str(&h, 1, "227 ");
    ph_feed(&h, 1, big, sizeof big);
    feed_str(&h, 1, "\r\n");
    uint32_t n;
    CHECK(ph_buf(&h, "ftp.reply", 1, 0, &n) && n == 60);
    struct ftp_state *st = h.pf.state;
    CHECK(st->last && st->last->reply_trunc);
    ph_free(&h);
}

static void test_ports_and_probes(void)
{
#define P(fn, s) fn((const uint8_t *)(s), strlen(s))
    CHECK_EQ_U(P(ftp_port_of_port, "10,0,0,1,4,1"), 1025);
    CHECK_EQ_U(P(ftp_port_of_port, "10,0,0,1,4"), (uint64_t)-1);
    CHECK_EQ_U(P(ftp_port_of_port, "10,0,0,1,4,300"), (uint64_t)-1);
    CHECK_EQ_U(P(ftp_port_of_227, "Entering Passive Mode (192,168,1,2,185,13)."), 47373);
    CHECK_EQ_U(P(ftp_port_of_eprt, "|1|132.235.1.2|6275|"), 6275);
    CHECK_EQ_U(P(ftp_port_of_eprt, "|2|::1|"), (uint64_t)-1);
    CHECK_EQ_U(P(ftp_port_of_229, "Entering Extended Passive Mode (|||58612|)"), 58612);
    CHECK_EQ_U(P(ftp_port_of_229, "Entering Extended Passive Mode (|||0|)"), (uint64_t)-1);
    CHECK_EQ_U(P(ftp_port_of_229, "(||"), (uint64_t)-1);
#undef P
    struct mon_flow f21 = {.cport = 40000, .sport = 21}, f25 = {.cport = 40000, .sport = 25};
#define PR(fn, s, f) fn((const uint8_t *)(s), strlen(s), f)
    CHECK(PR(ftp_probe_client, "USER bob\r\n", &f25) == DET_YES);
    CHECK(PR(ftp_probe_client, "US", &f25) == DET_NEED_MORE);
    CHECK(PR(ftp_probe_client, "QUIT\r\n", &f25) == DET_NO); /* SMTP's too: port 21 only */
    CHECK(PR(ftp_probe_client, "QUIT\r\n", &f21) == DET_YES);
    CHECK(PR(ftp_probe_client, "GET / HTTP/1.1\r\n", &f21) == DET_NO);
    CHECK(PR(ftp_probe_server, "220 mail.example ESMTP\r\n", &f25) == DET_NO);
    /* a greeting naming FTP off port 21 is weak (the client's command decides); vsftpd's
     * "220 (" is Suricata's own server pattern, a yes anywhere */
    CHECK(PR(ftp_probe_server, "220 ProFTPD Server\r\n", &f25) == DET_WEAK);
    CHECK(PR(ftp_probe_server, "220 (vsFTPd 3.0.3)\r\n", &f25) == DET_YES);
    CHECK(PR(ftp_probe_server, "220 ", &f25) == DET_NEED_MORE);
    CHECK(PR(ftp_probe_server, "220-FileZilla Server\r\n", &f25) == DET_NO);
    CHECK(PR(ftp_probe_server, "220 welcome\r\n", &f21) == DET_YES);
    CHECK(PR(ftp_probe_server, "22", &f21) == DET_NEED_MORE);
    CHECK(PR(ftp_probe_server, "230 x\r\n", &f21) == DET_NO);
#undef PR
}

/* A RETR after PASV leaves an expectation: the flow to the announced port between the same
 * two hosts is ftp-data with the file's name; its bytes are file.data. */
static void test_data_connection(void)
{
    struct ph h;
    ph_init(&h, "ftp", 6, 40000, 21);
    memset(h.f.cli.b, 1, sizeof h.f.cli.b);
    memset(h.f.srv.b, 2, sizeof h.f.srv.b);
    h.f.ipver = 4;
    feed_str(&h, 0, "PASV\r\n");
    feed_str(&h, 1, "227 Entering Passive Mode (2,2,2,2,200,10).\r\n");
    CHECK_EQ_U(field_or(&h, "ftp.dynamic_port", -1), 200 * 256 + 10);
    CHECK_EQ_U(field_or(&h, "ftp.mode", -1), FTP_MODE_PASSIVE);
    feed_str(&h, 0, "RETR /pub/a.txt\r\n");

    struct pflow pf = {.w = &h.w, .anomaly = -1};
    struct mon_flow f = {.proto = 6, .ipver = 4, .cport = 50000, .sport = 200 * 256 + 9};
    f.cli = h.f.cli;
    f.srv = h.f.srv;
    CHECK(!pexpect_claim(&pf, &f, 1)); /* another port */
    CHECK_EQ_U(h.w.expect.on_port[200 * 256 + 9], 0);
    CHECK_EQ_U(h.w.expect.on_port[200 * 256 + 10], 1);
    f.sport = 200 * 256 + 10;
    f.cli = h.f.srv; /* either host may connect */
    f.srv = h.f.cli;
    CHECK(pexpect_claim(&pf, &f, 1));
    CHECK_EQ_U(pf.proto, (uint64_t)osprey_app_proto_find("ftp-data"));
    CHECK(!pexpect_claim(&(struct pflow){.w = &h.w}, &f, 1)); /* claimed once */
    CHECK_EQ_U(h.w.expect.on_port[200 * 256 + 10], 0);
    const struct osprey_proto_def *d = reg_proto(pf.proto);
    d->parse(&pf, &f, 1, (const uint8_t *)"root:x:0:0", 10);
    d->parse(&pf, &f, 1, (const uint8_t *)"\n", 1);
    int b = osprey_buffer_find_in("file.data", 1, pf.proto);
    uint16_t proto;
    const struct proto_buffer *r = reg_buffer((uint16_t)b, &proto);
    uint32_t n;
    const uint8_t *p = r->get(&pf, r->key, 0, NULL, &n);
    CHECK(p && n == 11 && !memcmp(p, "root:x:0:0\n", 11));
    int64_t cmd = 0;
    const struct proto_field *fr = reg_field((uint16_t)osprey_field_find("ftpdata_command"), &proto);
    CHECK(fr->get(&pf, fr->key, 0, &cmd) && cmd == FD_CMD_RETR);
    uint32_t txs = h.txs;
    d->end(&pf, &f);
    CHECK_EQ_U(h.txs, txs + 1);
    CHECK_EQ_U(ph_count(&h, "ftp_data_files"), 1);
    CHECK_EQ_U(ph_count(&h, "files_truncated"), 0);
    d->state_free(pf.state);
    /* a second transfer whose direction was given up (a gap: the core's dead flag) ends
     * with its file cut short */
    feed_str(&h, 0, "RETR /pub/b.txt\r\n");
    struct pflow pf2 = {.w = &h.w, .anomaly = -1};
    CHECK(pexpect_claim(&pf2, &f, 1));
    d->parse(&pf2, &f, 1, (const uint8_t *)"half", 4);
    pf2.dead[1] = true;
    d->end(&pf2, &f);
    CHECK_EQ_U(ph_count(&h, "files_truncated"), 1);
    d->state_free(pf2.state);
    pexpect_free(&h.w.expect);
    ph_free(&h);
}

/* Suricata's ftp.file_without_name / ftp.file_before_port: no expectation is made then */
static void test_file_events(void)
{
    struct ph h;
    ph_init(&h, "ftp", 6, 40000, 21);
    feed_str(&h, 0, "RETR\r\n");
    CHECK_EQ_U(ph_raised(&h, "ftp.file_without_name"), 1);
    CHECK_EQ_U(ph_raised(&h, "ftp.file_before_port"), 0);
    feed_str(&h, 0, "STOR a.txt\r\n");
    CHECK_EQ_U(ph_raised(&h, "ftp.file_before_port"), 1);
    CHECK_EQ_U(ph_count(&h, "ftp_expect"), 0);
    feed_str(&h, 0, "PORT 10,0,0,1,4,1\r\nRETR a.txt\r\n");
    CHECK_EQ_U(ph_raised(&h, "ftp.file_before_port"), 1);
    CHECK_EQ_U(ph_count(&h, "ftp_expect"), 1);
    ph_free(&h);
}

int main(void)
{
    test_file_events();
    test_session();
    test_limits();
    test_max_line();
    test_ports_and_probes();
    test_data_connection();
    return unit_report("test_proto_ftp");
}
