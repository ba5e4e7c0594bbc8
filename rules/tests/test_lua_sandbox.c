/* test_lua_sandbox.c — the Lua sandbox of rules/lua/ on its own: init() needs and
 * registrations, match() on a buffer, the memory limit (a growing and a brand-new
 * allocation alike), the instruction limit, blocked functions and missing libraries,
 * require limited to the suricata.* modules, precompiled chunks refused, a failed run that
 * leaves its state usable, states independent of each other, and luaxform's two results. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rlua.h"
#include "unit.h"

static char dir[] = "/tmp/osprey-lua-XXXXXX";
static const struct rlua_limits LIM = {true, 200000, 100000};

static const char *put(const char *name, const char *text)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "w");
    fputs(text, fp);
    fclose(fp);
    return path;
}

static struct rlua_script *load(const char *name, const char *text, bool xform, char *why)
{
    return rlua_script_load(put(name, text), &LIM, xform, why, 256);
}

/* match() on buf: its result, with the counters in *st */
static int run(struct rlua_state *s, const char *buf, struct osprey_detect_lua *st)
{
    struct rlua_input in = {.buf = (const uint8_t *)buf, .len = (uint32_t)strlen(buf)};
    return rlua_match(s, &in, st);
}

#define BUFSCRIPT(body)                                                                    \
    "function init(args) return {buffer = true} end\n"                                     \
    "function match(args)\n" body "\nend\n"

static void needs_and_errors(void)
{
    char why[256];
    CHECK(!rlua_script_load("/nonexistent/x.lua", &LIM, false, why, sizeof why));
    CHECK(strstr(why, "cannot read") != NULL);
    CHECK(!load("syn.lua", "function init(args) return {} end\nfunction match(", false, why));
    CHECK(strstr(why, "syn.lua:") != NULL);
    CHECK(!load("noinit.lua", "function match(a) return 1 end", false, why));
    CHECK(strstr(why, "no init") != NULL);
    CHECK(!load("badinit.lua", "function init(a) return 1 end function match(a) end", false, why));
    CHECK(!load("byte.lua", "\x1bLua\x54", false, why)); /* bytecode: text chunks only */
    struct rlua_script *s = load("needs.lua",
        "local fv = require('suricata.flowvar')\n"
        "local fi = require('suricata.flowint')\n"
        "function init(args)\n"
        "  fv.register('a'); fi.register('n')\n"
        "  local needs = {payload = true, packet = 'true', flowvar = {'b'}}\n"
        "  needs['http.request_line'] = tostring(true)\n"
        "  return needs\n"
        "end\nfunction match(args) return 0 end\n", false, why);
    CHECK(s != NULL);
    if (!s)
        return;
    CHECK(s->needs == (RLUA_NEED_PAYLOAD | RLUA_NEED_PACKET));
    CHECK(s->app_buffer && !strcmp(s->app_buffer, "http.request_line"));
    CHECK(s->nflowvars == 2 && s->nflowints == 1 && !strcmp(s->flowints[0], "n"));
    rlua_script_free(s);
}

static void match_and_limits(void)
{
    char why[256];
    struct osprey_detect_lua st = {0};
    struct rlua_script *s = load("m.lua", BUFSCRIPT(
        "  local b = args['buffer']\n"
        "  if b == 'mem' then local x = string.rep('B', 400000) end\n"   /* a new allocation */
        "  if b == 'grow' then local t = {} for i = 1, 100000 do t[i] = i end end\n"
        "  if b == 'loop' then while true do end end\n"
        "  if b == 'pcall' then pcall(print) end\n"
        "  if b == 'load' then load('return 1') end\n"
        "  if b == 'gc' then collectgarbage() end\n"
        "  if b == 'meta' then setmetatable({}, {}) end\n"
        "  if b == 'dump' then string.dump(match) end\n"
        "  if b == 'io' then io.write('x') end\n"
        "  if b == 'os' then os.exit(1) end\n"
        "  if b == 'debug' then debug.sethook() end\n"
        "  if b == 'pkg' then package.loadlib('x', 'y') end\n"
        "  if b == 'req' then require('io') end\n"
        "  if b == 'b64' then return require('suricata.base64').encode('hi') == 'aGk=' and 1 or 0 end\n"
        "  count = (count or 0) + 1\n"
        "  return b == 'yes' and 1 or 0"), false, why);
    CHECK(s != NULL);
    if (!s)
        return;
    struct rlua_state *a = rlua_state_new(s), *b = rlua_state_new(s);
    CHECK(run(a, "yes", &st) == 1);
    CHECK(run(a, "no", &st) == 0);
    CHECK(run(a, "b64", &st) == 1);
    CHECK(st.errors == 0);
    CHECK(run(a, "mem", &st) == -1);
    CHECK(st.memory_limit_errors == 1);
    CHECK(run(a, "grow", &st) == -1);
    CHECK(st.memory_limit_errors == 2);
    CHECK(run(a, "loop", &st) == -1);
    CHECK(st.instruction_limit_errors == 1);
    static const char *const BLOCKED[] = {"pcall", "load", "gc", "meta", "dump"};
    for (int i = 0; i < 5; i++)
        CHECK(run(a, BLOCKED[i], &st) == -1);
    CHECK(st.blocked_function_errors == 5);
    static const char *const MISSING[] = {"io", "os", "debug", "pkg", "req"};
    for (int i = 0; i < 5; i++)
        CHECK(run(a, MISSING[i], &st) == -1);
    CHECK(st.blocked_function_errors == 5); /* not there at all: an ordinary error */
    CHECK(st.errors == 3 + 5 + 5);
    /* the state still works after its failures */
    CHECK(run(a, "yes", &st) == 1);
    /* each state keeps its own globals: x counted its runs, y has not run yet */
    struct rlua_script *c = load("cnt.lua", BUFSCRIPT("  n = (n or 0) + 1\n  return n == 2 and 1 or 0"),
                                 false, why);
    CHECK(c != NULL);
    if (c) {
        struct rlua_state *x = rlua_state_new(c), *y = rlua_state_new(c);
        CHECK(run(x, "", &st) == 0 && run(x, "", &st) == 1);
        CHECK(run(y, "", &st) == 0);
        rlua_state_free(x);
        rlua_state_free(y);
        rlua_script_free(c);
    }
    CHECK(run(b, "yes", &st) == 1);
    rlua_state_free(a);
    rlua_state_free(b);
    rlua_script_free(s);
}

/* The args table and the buffer copied into it count too, and a failure there is a run's
 * memory error (inside the protected call), never a panic. */
static void args_over_the_limit(void)
{
    char why[256];
    struct osprey_detect_lua st = {0};
    struct rlua_script *s = load("fat.lua",
        "fat = string.rep('A', 60000)\n"
        BUFSCRIPT("  return 1"), false, why);
    CHECK(s != NULL);
    if (!s)
        return;
    struct rlua_state *a = rlua_state_new(s);
    char *big = malloc(150001);
    memset(big, 'b', 150000);
    big[150000] = 0;
    CHECK(run(a, "small", &st) == 1);
    CHECK(run(a, big, &st) == -1);
    CHECK(st.memory_limit_errors == 1);
    CHECK(run(a, "small", &st) == 1);
    free(big);
    rlua_state_free(a);
    rlua_script_free(s);
}

static void transforms(void)
{
    char why[256];
    struct osprey_detect_lua st = {0};
    CHECK(!load("nox.lua", "function match(a) end", true, why));
    struct rlua_script *two = load("two.lua",
        "function transform(input, args) local s = input:upper() .. (args[1] or '')\n"
        "  return s, #s end", true, why);
    struct rlua_script *one = load("one.lua",
        "function transform(input, args) return input:upper() end", true, why);
    CHECK(two && one);
    if (!two || !one)
        return;
    struct rlua_state *a = rlua_state_new(two), *b = rlua_state_new(one);
    uint8_t out[64];
    uint32_t n = 0;
    const char *args[] = {"-x"};
    CHECK(rlua_transform(a, (const uint8_t *)"abc", 3, args, 1, out, sizeof out, &n, &st) == 0);
    CHECK(n == 5 && !memcmp(out, "ABC-x", 5));
    CHECK(rlua_transform(a, (const uint8_t *)"abc", 3, args, 1, out, 2, &n, &st) == 0);
    CHECK(n == 2); /* cut to the room given */
    CHECK(rlua_transform(b, (const uint8_t *)"abc", 3, NULL, 0, out, sizeof out, &n, &st) == -1);
    CHECK(st.errors == 1);
    rlua_state_free(a);
    rlua_state_free(b);
    rlua_script_free(two);
    rlua_script_free(one);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    needs_and_errors();
    match_and_limits();
    args_over_the_limit();
    transforms();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        return 1;
    return unit_report("test_lua_sandbox");
}
