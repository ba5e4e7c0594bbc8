/* test_dataset_json.c — the JSON reader of dataset load files (compile/dataset_json.c) on its
 * own: values from the document's array or the one at array_key, dotted value_key paths,
 * string escapes, numbers, skipped objects and elements, ndjson lines, and the malformed
 * documents it refuses. */
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "unit.h"

/* The values found, joined by '|' (a failing callback stops at the value "stop"). */
static char got[512];

static int collect(void *arg, const char *v, size_t n)
{
    (void)arg;
    if (n == 4 && !memcmp(v, "stop", 4))
        return -1;
    size_t k = strlen(got);
    if (k + n + 2 < sizeof got) {
        if (k)
            got[k++] = '|';
        memcpy(got + k, v, n);
        got[k + n] = 0;
    }
    return 0;
}

static int run(const char *text, bool ndjson, const char *array_key, const char *value_key)
{
    got[0] = 0;
    return ds_json_values(text, strlen(text), ndjson, array_key, value_key, collect, NULL);
}

static void arrays(void)
{
    CHECK(run("[{\"v\": \"a\"}, {\"w\": 1}, {\"v\": 7}, 3, [1], {\"v\": {\"x\": 1}}]", false,
              NULL, "v") == 0 && !strcmp(got, "a|7"));
    CHECK(run("[]", false, NULL, "v") == 0 && !strcmp(got, ""));
    CHECK(run(" {\"a\": {\"b\": [{\"v\": \"x\"}], \"c\": 1}} ", false, "a.b", "v") == 0 &&
          !strcmp(got, "x"));
    /* a dotted value_key goes down into objects; a missing step gives no value */
    CHECK(run("[{\"h\": {\"f\": \"q\"}}, {\"h\": {}}, {\"h\": \"s\"}]", false, NULL, "h.f") == 0 &&
          !strcmp(got, "q"));
    /* the first member of a repeated key wins */
    CHECK(run("[{\"v\": \"1\", \"v\": \"2\"}]", false, NULL, "v") == 0 && !strcmp(got, "1"));
}

static void strings(void)
{
    CHECK(run("[{\"v\": \"a\\\"b\\\\c\\/d\\n\"}]", false, NULL, "v") == 0 &&
          !strcmp(got, "a\"b\\c/d\n"));
    CHECK(run("[{\"v\": \"\\u00e9\\u0041\"}]", false, NULL, "v") == 0 &&
          !strcmp(got, "\xc3\xa9" "A"));
    CHECK(run("[{\"v\": true}, {\"v\": null}, {\"v\": -1.5e3}]", false, NULL, "v") == 0 &&
          !strcmp(got, "true|null|-1.5e3"));
}

static void ndjson(void)
{
    CHECK(run("{\"v\": \"a\"}\n\n  {\"v\": \"b\", \"n\": [1, {\"z\": null}]}\n{\"w\": 1}", true,
              NULL, "v") == 0 && !strcmp(got, "a|b"));
    CHECK(run("{\"v\": \"a\"} x\n", true, NULL, "v") < 0);
    CHECK(run("{\"v\": \"a\"\n}\n", true, NULL, "v") < 0); /* an object is one line */
}

static void refused(void)
{
    CHECK(run("", false, NULL, "v") < 0);
    CHECK(run("{\"v\": 1}", false, NULL, "v") < 0);          /* no array, no array_key */
    CHECK(run("{\"a\": {\"c\": []}}", false, "a.b", "v") < 0); /* array_key not found */
    CHECK(run("{\"a\": 1}", false, "a", "v") < 0);            /* not an array there */
    CHECK(run("[{\"v\": \"a\"}", false, NULL, "v") < 0);
    CHECK(run("[{\"v\": \"a\"}] x", false, NULL, "v") < 0);
    CHECK(run("[{\"v\": \"a}]", false, NULL, "v") < 0);
    CHECK(run("[{\"v\": \"\\x\"}]", false, NULL, "v") < 0);
    CHECK(run("[{v: 1}]", false, NULL, "v") < 0);
    CHECK(run("[{\"v\" 1}]", false, NULL, "v") < 0);
    CHECK(run("[{\"v\": 1,}]", false, NULL, "v") < 0);
    /* the callback stops the walk */
    CHECK(run("[{\"v\": \"a\"}, {\"v\": \"stop\"}, {\"v\": \"c\"}]", false, NULL, "v") < 0 &&
          !strcmp(got, "a"));
    /* nesting is bounded */
    char deep[201];
    memset(deep, '[', 100);
    memset(deep + 100, ']', 100);
    deep[200] = 0;
    CHECK(run(deep, false, NULL, "v") < 0);
    CHECK(run("[[[[1]]]]", false, NULL, "v") == 0); /* (shallow: fine) */
}

int main(void)
{
    arrays();
    strings();
    ndjson();
    refused();
    return unit_report("test_dataset_json");
}
