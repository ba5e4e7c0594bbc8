/* test_mime.c — the MIME reader alone, lines in, callbacks out: headers (folding, the
 * message's vs a part's), multipart nesting and its bound, base64 / quoted-printable / uuencode
 * decoding, attachments with their names and exact bytes (the line end before a boundary is
 * the boundary's), encapsulated messages (message/rfc822 resets the encoding), URLs, the
 * decoders' edge cases and anomalies. */
#include <stdio.h>
#include <string.h>

#include "mime.h"
#include "unit.h"

struct rec {
    char hdrs[4096];              /* "level:name=value\n" … */
    unsigned hends;               /* headers_end calls */
    char files[8][64];            /* names */
    char fdata[8][4096];
    size_t flen[8];
    unsigned nfiles, ends;
    size_t total;                 /* every attachment byte, kept or not */
    char text[4096];
    uint32_t anomalies;
};

static void on_header(void *arg, unsigned level, const uint8_t *n, size_t nl, const uint8_t *v,
                      size_t vl)
{
    struct rec *r = arg;
    size_t o = strlen(r->hdrs);
    snprintf(r->hdrs + o, sizeof r->hdrs - o, "%u:%.*s=%.*s\n", level, (int)nl, (const char *)n,
             (int)vl, (const char *)v);
}

static void on_hend(void *arg, unsigned level)
{
    (void)level;
    ((struct rec *)arg)->hends++;
}

static void on_file(void *arg, const uint8_t *name, size_t nl, const uint8_t *d, size_t n,
                    bool end)
{
    struct rec *r = arg;
    if (!n && !end) { /* begins */
        snprintf(r->files[r->nfiles % 8], 64, "%.*s", (int)nl, (const char *)name);
        r->flen[r->nfiles % 8] = 0;
        r->nfiles++;
        return;
    }
    unsigned k = (r->nfiles - 1) % 8;
    r->total += n;
    if (n && r->flen[k] + n < sizeof r->fdata[k]) {
        memcpy(r->fdata[k] + r->flen[k], d, n);
        r->flen[k] += n;
    }
    if (end)
        r->ends++;
}

static void on_text(void *arg, const uint8_t *l, size_t n)
{
    struct rec *r = arg;
    size_t o = strlen(r->text);
    snprintf(r->text + o, sizeof r->text - o, "%.*s|", (int)n, (const char *)l);
}

static void on_anomaly(void *arg, enum mime_anomaly a)
{
    ((struct rec *)arg)->anomalies |= 1u << a;
}

static const struct mime_ops OPS = {on_header, on_hend, on_file, on_text, on_anomaly};

/* feed a message of lines separated by "\n" */
static void run(struct mime *m, struct rec *r, const char *msg)
{
    memset(r, 0, sizeof *r);
    mime_init(m, &OPS, r);
    const char *p = msg;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        mime_line(m, (const uint8_t *)p, n);
        p += n + (e != NULL);
    }
    mime_end(m);
}

static bool file_is(const struct rec *r, unsigned k, const char *want)
{
    return r->flen[k] == strlen(want) && !memcmp(r->fdata[k], want, r->flen[k]);
}

static struct mime m; /* (big: not on the stack) */

static void test_headers(void)
{
    struct rec r;
    run(&m, &r,
        "From: a <a@b.c>\n"
        "Subject: one\n"
        "  two\n"
        "Received: from x\n"
        "\tby y\n"
        "NoColonHere\n"
        "\n"
        "body http://Example.COM/Path and HTTP://x.org\n");
    CHECK(strstr(r.hdrs, "0:From=a <a@b.c>\n") != NULL);
    CHECK(strstr(r.hdrs, "0:Subject=one  two\n") != NULL); /* unfolded: the blanks stay */
    CHECK(strstr(r.hdrs, "0:Received=from x\tby y\n") != NULL);
    CHECK(r.anomalies & (1u << MIME_A_MALFORMED));
    CHECK_EQ_U(r.hends, 1);
    CHECK(!strcmp(r.text, "body http://Example.COM/Path and HTTP://x.org|"));
    CHECK_EQ_U(r.nfiles, 0);
}

static void test_multipart(void)
{
    struct rec r;
    run(&m, &r,
        "Content-Type: multipart/mixed; boundary=\"XX\"\n"
        "\n"
        "preamble is skipped\n"
        "--XX\n"
        "Content-Type: text/plain\n"
        "\n"
        "hello\n"
        "--XX\n"
        "Content-Type: application/octet-stream; name=\"a.bin\"\n"
        "Content-Transfer-Encoding: base64\n"
        "\n"
        "aGVsbG8g\n"
        "d29ybGQ=\n"
        "--XX\n"
        "Content-Disposition: attachment; filename=b.txt\n"
        "Content-Transfer-Encoding: quoted-printable\n"
        "\n"
        "line=3D1 soft=\n"
        "continues\n"
        "last\n"
        "--XX--\n"
        "epilogue skipped\n");
    CHECK_EQ_U(r.nfiles, 2);
    CHECK_EQ_U(r.ends, 2);
    CHECK(!strcmp(r.files[0], "a.bin"));
    CHECK(file_is(&r, 0, "hello world"));
    CHECK(!strcmp(r.files[1], "b.txt"));
    CHECK(file_is(&r, 1, "line=1 softcontinues\r\nlast")); /* no line end before the boundary */
    CHECK(!strcmp(r.text, "hello|"));
    CHECK_EQ_U(r.hends, 4); /* the message's and each part's */
    CHECK(strstr(r.hdrs, "1:Content-Disposition=attachment; filename=b.txt\n") != NULL);
}

/* A long line given in pieces (mime_part, then mime_line) is one line: an attachment gets
 * no line end between its pieces, a piece that looks like a boundary or starts a line is
 * none; a line longer than a decoding piece (MIME_PIECE_MAX) is one line too. */
static void test_pieces(void)
{
    struct rec r;
    memset(&r, 0, sizeof r);
    mime_init(&m, &OPS, &r);
    const char *lines[] = {"Content-Type: multipart/mixed; boundary=B", "",
                           "--B", "Content-Disposition: attachment; filename=p.txt", ""};
    for (int i = 0; i < 5; i++)
        mime_line(&m, (const uint8_t *)lines[i], strlen(lines[i]));
    mime_part(&m, (const uint8_t *)"abc", 3);
    mime_part(&m, (const uint8_t *)"--B", 3); /* the middle of a line: no boundary */
    mime_line(&m, (const uint8_t *)"def", 3);
    mime_line(&m, (const uint8_t *)"next", 4);
    mime_part(&m, (const uint8_t *)"ghi", 3);
    mime_line(&m, (const uint8_t *)"", 0); /* the rest of it is empty: its line end */
    mime_line(&m, (const uint8_t *)"--B--", 5);
    mime_end(&m);
    CHECK_EQ_U(r.nfiles, 1);
    CHECK(file_is(&r, 0, "abc--Bdef\r\nnext\r\nghi"));
    /* one line longer than MIME_PIECE_MAX, given whole */
    static uint8_t big[MIME_PIECE_MAX + 100];
    memset(big, 'x', sizeof big);
    memset(&r, 0, sizeof r);
    mime_init(&m, &OPS, &r);
    mime_line(&m, (const uint8_t *)"Content-Disposition: attachment", 31);
    mime_line(&m, (const uint8_t *)"", 0);
    mime_line(&m, big, sizeof big);
    mime_line(&m, (const uint8_t *)"y", 1);
    mime_end(&m);
    CHECK_EQ_U(r.nfiles, 1);
    CHECK_EQ_U(r.total, sizeof big + 3); /* no line end inside it; one before "y" */
}

static void test_nesting(void)
{
    struct rec r;
    /* nested multiparts; the outer boundary closes the inner part left open */
    run(&m, &r,
        "Content-Type: multipart/mixed; boundary=outer\n"
        "\n"
        "--outer\n"
        "Content-Type: multipart/alternative; boundary=inner\n"
        "\n"
        "--inner\n"
        "Content-Type: text/plain\n"
        "\n"
        "alt\n"
        "--outer\n"
        "Content-Disposition: attachment; filename=\"f\"\n"
        "\n"
        "data\n"
        "--outer--\n");
    CHECK_EQ_U(r.nfiles, 1);
    CHECK(file_is(&r, 0, "data"));
    CHECK(!strcmp(r.text, "alt|"));
    /* deeper than MIME_DEPTH_MAX: flagged, the rest read as one body */
    char msg[8192] = "";
    for (int i = 0; i < MIME_DEPTH_MAX + 2; i++) {
        size_t o = strlen(msg);
        snprintf(msg + o, sizeof msg - o,
                 "Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n", i, i);
    }
    strcat(msg, "Content-Disposition: attachment; filename=deep\n\nx\n");
    run(&m, &r, msg);
    CHECK(r.anomalies & (1u << MIME_A_DEPTH));
}

static void test_encapsulated(void)
{
    struct rec r;
    /* message/rfc822 declared base64: the inner message is its own, read as it says */
    run(&m, &r,
        "Content-Type: message/rfc822\n"
        "Content-Transfer-Encoding: base64\n"
        "Content-Disposition: attachment; filename=\"innocent.txt\"\n"
        "\n"
        "From: x\n"
        "Content-Disposition: attachment; filename=\"malware.exe\"\n"
        "\n"
        "PAYLOAD\n");
    CHECK_EQ_U(r.nfiles, 1);
    CHECK(!strcmp(r.files[0], "malware.exe"));
    CHECK(file_is(&r, 0, "PAYLOAD"));
    CHECK(strstr(r.hdrs, "1:From=x\n") != NULL);
}

static void test_uuencode(void)
{
    struct rec r;
    run(&m, &r,
        "Subject: uu\n"
        "\n"
        "see attached\n"
        "begin 644 cat.txt\n"
        "#0V%T\n"
        "`\n"
        "end\n"
        "after\n");
    CHECK_EQ_U(r.nfiles, 1);
    CHECK(!strcmp(r.files[0], "cat.txt"));
    CHECK(file_is(&r, 0, "Cat"));
    CHECK_EQ_U(r.ends, 1);
    CHECK(!strcmp(r.text, "see attached|after|"));
}

static void test_decoders(void)
{
    uint8_t q[4], out[64];
    unsigned qn = 0;
    bool bad = false;
    /* a quantum split across calls, padding, invalid characters skipped and flagged */
    size_t n = mime_b64((const uint8_t *)"aGVs", 4, q, &qn, out, &bad);
    n += mime_b64((const uint8_t *)"bG8*", 4, q, &qn, out + n, &bad);
    CHECK(bad);
    n += mime_b64((const uint8_t *)"=", 1, q, &qn, out + n, &bad);
    CHECK(n == 5 && !memcmp(out, "hello", 5));
    bool soft;
    bad = false;
    n = mime_qp((const uint8_t *)"a=3Db=ZZ=4", 10, out, &soft, &bad);
    CHECK(bad && !soft);
    CHECK(n == 8 && !memcmp(out, "a=b=ZZ=4", 8));
    n = mime_qp((const uint8_t *)"x=  ", 4, out, &soft, &bad);
    CHECK(soft && n == 1);
    CHECK(mime_uu((const uint8_t *)"", 0, out) == -1);
    CHECK(mime_uu((const uint8_t *)"M", 1, out) == -1); /* claims 45 bytes, has none */
    const uint8_t *p;
    CHECK(mime_param((const uint8_t *)"a/b; name=\"x;y\"; q=1", 20, "name", &p) == 3);
    CHECK(!memcmp(p, "x;y", 3));
    CHECK(mime_param((const uint8_t *)"a/b; q=1", 8, "name", &p) == -1);
}

static void test_limits(void)
{
    struct rec r;
    char big[MIME_VALUE_MAX + 600];
    memset(big, 'v', sizeof big);
    memcpy(big, "Subject: ", 9);
    big[sizeof big - 1] = 0;
    char msg[sizeof big + 64];
    snprintf(msg, sizeof msg, "%s\n\nbody\n", big);
    run(&m, &r, msg);
    CHECK(r.anomalies & (1u << MIME_A_LONG_HEADER_VALUE));
    CHECK(strlen(r.hdrs) < MIME_VALUE_MAX + 32); /* kept up to the limit */
    /* exactly MIME_VALUE_MAX bytes of value: the blank after the colon is not one of them */
    CHECK_EQ_U(strlen(r.hdrs), strlen("0:Subject=\n") + MIME_VALUE_MAX);
    char line[MIME_PIECE_MAX * 2 + 10];
    memset(line, 'A', sizeof line);
    line[sizeof line - 1] = 0;
    snprintf(msg, sizeof msg, "Content-Disposition: attachment\n\n");
    memset(&r, 0, sizeof r);
    mime_init(&m, &OPS, &r);
    mime_line(&m, (const uint8_t *)"Content-Transfer-Encoding: base64", 33);
    mime_line(&m, (const uint8_t *)"Content-Disposition: attachment", 31);
    mime_line(&m, (const uint8_t *)"", 0);
    mime_line(&m, (const uint8_t *)line, strlen(line)); /* decoded in pieces */
    mime_end(&m);
    CHECK(r.anomalies & (1u << MIME_A_LONG_LINE));
    CHECK(r.anomalies & (1u << MIME_A_LONG_ENC_LINE));
    CHECK_EQ_U(r.ends, 1);
    char name[MIME_FILENAME_MAX + 50];
    memset(name, 'n', sizeof name);
    name[sizeof name - 1] = 0;
    snprintf(msg, sizeof msg, "Content-Disposition: attachment; filename=%s\n\nx\n", name);
    run(&m, &r, msg);
    CHECK(r.anomalies & (1u << MIME_A_LONG_FILENAME));
    CHECK_EQ_U(strlen(r.files[0]), 63); /* (the test's own record keeps 63) */
}

int main(void)
{
    test_pieces();
    test_headers();
    test_multipart();
    test_nesting();
    test_encapsulated();
    test_uuencode();
    test_decoders();
    test_limits();
    return unit_report("test_mime");
}
