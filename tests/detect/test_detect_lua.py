"""Lua rules (Suricata 8's `lua:` / `luajit:` keyword and `luaxform` transform, on Lua 5.4)
and their sandbox: refused unless security.lua.allow-rules, scripts beside the rule file,
init() needs, match() on the payload, the sticky buffer and the suricata.* modules (packet,
flow, http, flowvar, flowint, hashlib, base64, rule), and the limits — memory
(security.lua.max-bytes), instructions (max-instructions), blocked functions — each stopping
only that run, counted in stats.detect.lua.*."""
import hashlib

from scapy.layers.inet import IP, UDP
from scapy.packet import Raw

from detect_helpers import CLI, SRV, detect, http_conv, rule

ALLOW = ["--set", "security.lua.allow-rules=true"]


def script(tmp_path, name, text):
    (tmp_path / name).write_text(text)
    return name


def udp(payload, sport=5000):
    return IP(src=CLI, dst=SRV) / UDP(sport=sport, dport=9999) / Raw(payload)


PAYLOAD_FIND = '''
function init(args)
    return {payload = true}
end
function match(args)
    if string.find(args["payload"], "evil", 1, true) then
        return 1
    end
    return 0
end
'''


def lua_stats(r):
    return r.stats["detect"]["lua"]


def test_refused_unless_allowed(tmp_path):
    script(tmp_path, "p.lua", PAYLOAD_FIND)
    r = detect(tmp_path, [udp(b"evil")], [rule("lua:p.lua;", sid=7, proto="udp"),
                                          rule('content:"evil";', sid=8, proto="udp")])
    assert r.sids == [8]
    assert "t.rules:1: sid 7: lua: Lua rules are not enabled" in r.proc.stderr


def test_payload_match_and_near_miss(tmp_path):
    script(tmp_path, "p.lua", PAYLOAD_FIND)
    r = detect(tmp_path, [udp(b"an evil thing"), udp(b"a good thing", 5001)],
               [rule("lua:p.lua;", proto="udp")], *ALLOW)
    assert [a["pcap_cnt"] for a in r.alerts] == [1]
    assert lua_stats(r)["errors"] == 0


def test_negated_and_luajit_alias(tmp_path):
    script(tmp_path, "p.lua", PAYLOAD_FIND)
    r = detect(tmp_path, [udp(b"an evil thing"), udp(b"a good thing", 5001)],
               [rule("luajit:!p.lua;", sid=2, proto="udp")], *ALLOW)
    assert [(a["pcap_cnt"], a["alert"]["signature_id"]) for a in r.alerts] == [(2, 2)]


def test_runs_after_the_content_of_its_rule(tmp_path):
    # the script counts its runs in a flowint: only packets with the content reach it
    script(tmp_path, "c.lua", '''
local flowint = require("suricata.flowint")
function init(args)
    flowint.register("runs")
    return {payload = true}
end
function match(args)
    local n = flowint.get("runs")
    n:incr()
    return 1
end
''')
    pkts = [udp(b"zzz"), udp(b"abc"), udp(b"zzz"), udp(b"abc")]
    r = detect(tmp_path, pkts, [rule('content:"abc"; lua:c.lua;', sid=1, proto="udp"),
                                rule("flowint:runs,==,2;", sid=2, proto="udp")], *ALLOW)
    assert sorted((a["pcap_cnt"], a["alert"]["signature_id"]) for a in r.alerts) == \
        [(2, 1), (4, 1), (4, 2)]


def test_sticky_buffer_and_http_module(tmp_path):
    script(tmp_path, "u.lua", '''
function init(args)
    return {buffer = true}
end
function match(args)
    return args["buffer"] == "/secret/admin.php" and 1 or 0
end
''')
    script(tmp_path, "h.lua", '''
local http = require("suricata.http")
function init(args)
    return {}
end
function match(args)
    local tx = http.get_tx()
    local line = tx:request_line()
    local ua = tx:request_header("user-agent")
    if line and line:find("^GET /secret/") and ua == "Evil/1.0" then
        return 1
    end
    return 0
end
''')
    req = b"GET /secret/admin.php HTTP/1.1\r\nHost: x\r\nUser-Agent: Evil/1.0\r\n\r\n"
    ok = b"GET /public.php HTTP/1.1\r\nHost: x\r\nUser-Agent: Evil/1.0\r\n\r\n"
    pkts = http_conv(req=req) + http_conv(req=ok, sport=40001)
    r = detect(tmp_path, pkts,
               [rule("http.uri; lua:u.lua;", sid=1, proto="http"),
                rule('http.method; content:"GET"; lua:h.lua;', sid=2, proto="http")], *ALLOW)
    assert r.sids == [1, 2]
    assert lua_stats(r)["errors"] == 0


def test_needs_a_named_http_buffer(tmp_path):
    # Suricata's older needs: the buffer arrives in args under its name
    script(tmp_path, "n.lua", '''
function init(args)
    local needs = {}
    needs["http.request_line"] = tostring(true)
    return needs
end
function match(args)
    local a = tostring(args["http.request_line"])
    if a:find("^POST%s+/.*%.php%s+HTTP/1.0$") then return 1 end
    return 0
end
''')
    post = b"POST /up.php HTTP/1.0\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
    pkts = http_conv(req=post) + http_conv(sport=40001)
    r = detect(tmp_path, pkts, [rule("lua:n.lua;", proto="http")], *ALLOW)
    assert len(r.alerts) == 1 and r.alerts[0]["src_port"] == 40000


def test_flowvar_set_then_get_on_a_later_packet(tmp_path):
    script(tmp_path, "v.lua", '''
local flowvar = require("suricata.flowvar")
function init(args)
    flowvar.register("user")
    return {payload = true}
end
function match(args)
    local v = flowvar.get("user")
    local p = args["payload"]
    local u = p:match("^USER (%w+)")
    if u then
        v:set(u, #u)
        return 0
    end
    return (p:find("^PASS") and v:value() == "root") and 1 or 0
end
''')
    pkts = [udp(b"USER root"), udp(b"PASS x"), udp(b"USER bob", 5001), udp(b"PASS x", 5001)]
    r = detect(tmp_path, pkts, [rule("lua:v.lua;", proto="udp")], *ALLOW)
    assert [a["pcap_cnt"] for a in r.alerts] == [2]


def test_packet_flow_rule_hashlib_base64_modules(tmp_path):
    digest = hashlib.sha256(b"hello").hexdigest()
    script(tmp_path, "m.lua", f'''
local packet = require("suricata.packet")
local flow = require("suricata.flow")
local hashlib = require("suricata.hashlib")
local base64 = require("suricata.base64")
local rule = require("suricata.rule")
function init(args)
    return {{}}
end
function match(args)
    local p = packet.get()
    local ipver, src, dst, proto, sp, dp = p:tuple()
    local f = flow.get()
    local fv, fsrc = f:tuple()
    local r = rule.get_rule()
    if ipver == 4 and src == "{CLI}" and dst == "{SRV}" and proto == 17 and dp == 9999
       and fsrc == "{CLI}" and p:payload() == "hello" and p:pcap_cnt() == 1
       and hashlib.sha256_hexdigest(p:payload()) == "{digest}"
       and base64.decode(base64.encode("hello")) == "hello"
       and base64.encode("hi") == "aGk=" and r:sid() == 5 and r:msg() == "t5" then
        return 1
    end
    return 0
end
''')
    r = detect(tmp_path, [udp(b"hello")], [rule("lua:m.lua;", sid=5, proto="udp")], *ALLOW)
    assert r.sids == [5]
    assert lua_stats(r)["errors"] == 0


def test_memory_limit_stops_the_run_and_is_counted(tmp_path):
    script(tmp_path, "big.lua", '''
function init(args)
    return {payload = true}
end
function match(args)
    local s = string.rep("B", 400000)
    return 1
end
''')
    r = detect(tmp_path, [udp(b"x")], [rule("lua:big.lua;", proto="udp")], *ALLOW,
               "--set", "security.lua.max-bytes=100000")
    assert r.alerts == []
    assert lua_stats(r) == {"errors": 1, "blocked_function_errors": 0,
                            "instruction_limit_errors": 0, "memory_limit_errors": 1}
    assert "memory limit exceeded" in r.proc.stderr
    # with room enough the same script runs
    r = detect(tmp_path, [udp(b"x")], [rule("lua:big.lua;", proto="udp")], *ALLOW,
               "--set", "security.lua.max-bytes=2000000", name="roomy")
    assert r.sids == [1]


def test_infinite_loop_stopped_by_the_instruction_limit(tmp_path):
    script(tmp_path, "loop.lua", '''
function init(args)
    return {payload = true}
end
function match(args)
    while true do end
    return 1
end
''')
    script(tmp_path, "p.lua", PAYLOAD_FIND)
    pkts = [udp(b"evil"), udp(b"evil", 5001)]
    r = detect(tmp_path, pkts, [rule("lua:loop.lua;", sid=1, proto="udp"),
                                rule("lua:p.lua;", sid=2, proto="udp")], *ALLOW)
    assert r.sids == [2, 2]  # the other script still runs on both packets
    assert lua_stats(r)["instruction_limit_errors"] == 2
    assert lua_stats(r)["errors"] == 2
    assert "instruction limit exceeded" in r.proc.stderr


def test_blocked_functions_and_missing_libraries(tmp_path):
    for name, call in [("pc.lua", 'pcall(function() error("x") end)'),
                       ("ld.lua", 'load("return 1")'),
                       ("io.lua", 'io.open("/etc/passwd")'),
                       ("os.lua", 'os.execute("true")'),
                       ("rq.lua", 'require("io")')]:
        script(tmp_path, name, f'''
function init(args)
    return {{payload = true}}
end
function match(args)
    {call}
    return 1
end
''')
    names = ["pc.lua", "ld.lua", "io.lua", "os.lua", "rq.lua"]
    rules = [rule(f"lua:{n};", sid=i + 1, proto="udp") for i, n in enumerate(names)]
    r = detect(tmp_path, [udp(b"x")], rules, *ALLOW)
    assert r.alerts == []
    assert lua_stats(r)["errors"] == 5
    assert lua_stats(r)["blocked_function_errors"] == 2  # pcall, load
    assert "Blocked Lua function called: pcall" in r.proc.stderr
    assert "attempt to index a nil value (global 'io')" in r.proc.stderr


def test_bad_scripts_reject_their_rule_at_load(tmp_path):
    script(tmp_path, "syntax.lua", "function init(args) return {} end\nfunction match(\n")
    script(tmp_path, "noinit.lua", "function match(args) return 1 end\n")
    script(tmp_path, "p.lua", PAYLOAD_FIND)
    rules = [rule("lua:syntax.lua;", sid=1, proto="udp"),
             rule("lua:noinit.lua;", sid=2, proto="udp"),
             rule("lua:missing.lua;", sid=3, proto="udp"),
             rule("lua:p.lua;", sid=4, proto="udp")]
    r = detect(tmp_path, [udp(b"evil")], rules, *ALLOW)
    assert r.sids == [4]
    err = r.proc.stderr
    assert "sid 1: lua:" in err and "syntax.lua" in err
    assert "sid 2: lua:" in err and "no init function" in err
    assert "sid 3: lua:" in err and "cannot read" in err


def test_script_found_under_default_rule_path(tmp_path):
    lib = tmp_path / "scripts"
    lib.mkdir()
    (lib / "p.lua").write_text(PAYLOAD_FIND)
    sub = tmp_path / "rules"
    sub.mkdir()
    r = detect(sub, [udp(b"evil")], [rule("lua:p.lua;", proto="udp")], *ALLOW,
               "--set", f"default-rule-path={lib}")
    assert r.sids == [1]


def test_luaxform_transforms_a_sticky_buffer(tmp_path):
    script(tmp_path, "up.lua", '''
function transform(input, args)
    local s = string.upper(input) .. (args[1] or "")
    return s, #s
end
''')
    script(tmp_path, "one.lua", '''
function transform(input, args)
    return string.upper(input)
end
''')
    req = b"GET /exec_post.php HTTP/1.1\r\nHost: x\r\n\r\n"
    rules = [rule('http.uri; luaxform:up.lua; content:"/EXEC_POST.PHP"; endswith;', sid=1,
                  proto="http"),
             rule('http.uri; luaxform:up.lua, -X; content:"/EXEC_POST.PHP-X"; endswith;', sid=2,
                  proto="http"),
             # one value returned where two are needed: the run fails, nothing matches
             rule('http.uri; luaxform:one.lua; content:"EXEC_POST.PHP";', sid=3, proto="http")]
    r = detect(tmp_path, http_conv(req=req), rules, *ALLOW)
    assert r.sids == [1, 2]
    assert lua_stats(r)["errors"] >= 1


def test_thread_init_handles_as_suricata_documents(tmp_path):
    # Suricata 8's flowvar example: register in init, a handle from thread_init, count in match
    script(tmp_path, "count.lua", '''
local flowvarlib = require("suricata.flowvar")
function init()
    flowvarlib.register("count")
    return {}
end
function thread_init()
    count_var = flowvarlib.get("count")
end
function match()
    local value = count_var:value()
    if value == nil then
        value = tostring(1)
    else
        value = tostring(tonumber(value) + 1)
    end
    count_var:set(value, #value)
    return value == "3" and 1 or 0
end
''')
    pkts = [udp(b"a"), udp(b"b"), udp(b"c"), udp(b"d"), udp(b"a", 5001)]
    r = detect(tmp_path, pkts, [rule("lua:count.lua;", proto="udp")], *ALLOW)
    assert [a["pcap_cnt"] for a in r.alerts] == [3]  # per flow: the other flow starts over


def test_dns_module(tmp_path):
    from scapy.layers.dns import DNS, DNSQR
    script(tmp_path, "d.lua", '''
local dns = require("suricata.dns")
function init(args)
    return {}
end
function match(args)
    local tx = dns.get_tx()
    local q = tx:queries()
    return (tx:rrname() == "evil.example" and #q == 1) and 1 or 0
end
''')
    pkts = [IP(src=CLI, dst=SRV) / UDP(sport=5353 + i, dport=53) / DNS(rd=1, qd=DNSQR(qname=n))
            for i, n in enumerate(["good.example", "evil.example"])]
    r = detect(tmp_path, pkts, [rule("dns.query; lua:d.lua;", proto="dns")], *ALLOW)
    assert [a["pcap_cnt"] for a in r.alerts] == [2]
    assert lua_stats(r)["errors"] == 0


def test_ssh_and_tls_modules(tmp_path):
    from detect_helpers import Conv
    from tls_helpers import hello
    script(tmp_path, "s.lua", '''
local ssh = require("suricata.ssh")
function init(args)
    return {}
end
function match(args)
    local tx = ssh.get_tx()
    local sw = tx:server_software()
    return (tx:client_software() == "libssh_0.9.6" and sw ~= nil and sw:find("^OpenSSH"))
           and 1 or 0
end
''')
    script(tmp_path, "t.lua", '''
local tls = require("suricata.tls")
function init(args)
    return {}
end
function match(args)
    return tls.get_tx():get_sni() == "www.example.org" and 1 or 0
end
''')
    c = Conv(sport=40022, dport=22).handshake()
    c.send(False, b"SSH-2.0-OpenSSH_8.9\r\n").send(True, b"SSH-2.0-libssh_0.9.6\r\n")
    ssh_pkts = c.close().pkts
    t = Conv(sport=40443, dport=443).handshake()
    tls_pkts = t.send(True, hello()).close().pkts
    u = Conv(sport=40444, dport=443).handshake()
    other = u.send(True, hello(sni=b"other.example")).close().pkts
    rules = [rule("flow:to_server; ssh.software; lua:s.lua;", sid=1, proto="ssh"),
             rule("tls.sni; lua:t.lua;", sid=2, proto="tls")]
    r = detect(tmp_path, ssh_pkts + tls_pkts + other, rules, *ALLOW)
    assert r.sids == [1, 2]
    assert lua_stats(r)["errors"] == 0


def test_ja3_module_reads_the_hellos_fingerprints(tmp_path):
    from detect_helpers import Conv
    from tls_helpers import hello, server
    # needs["ja3"]: the script runs with the ClientHello; its JA3 string is the hello's
    # (version 771 = TLS 1.2 first) and its hash the string's MD5, as Suricata's module gives
    script(tmp_path, "j.lua", '''
local ja3 = require("suricata.ja3")
local hashlib = require("suricata.hashlib")
function init(args)
    ja3.enable_ja3()
    return {ja3 = true}
end
function match(args)
    local tx = ja3.get_tx()
    local s, h = tx:ja3_get_string(), tx:ja3_get_hash()
    return (s ~= nil and s:find("^771,") and hashlib.md5_hexdigest(s) == h) and 1 or 0
end
''')
    script(tmp_path, "js.lua", '''
local ja3 = require("suricata.ja3")
function init(args)
    return {ja3s = true}
end
function match(args)
    local s = ja3.get_tx():ja3s_get_string()
    return (s ~= nil and s:find("^771,")) and 1 or 0
end
''')
    t = Conv(sport=40443, dport=443).handshake()
    pkts = t.send(True, hello()).send(False, server([])).close().pkts
    old = Conv(sport=40444, dport=443).handshake()
    near = old.send(True, hello(version=0x0301)).close().pkts  # 769,…: no match
    rules = [rule("lua:j.lua;", sid=1, proto="tls"), rule("lua:js.lua;", sid=2, proto="tls")]
    r = detect(tmp_path, pkts + near, rules, *ALLOW)
    assert sorted(r.sids) == [1, 2]
    assert [a["src_port"] for a in r.alerts if a["alert"]["signature_id"] == 1] == [40443]
    assert lua_stats(r)["errors"] == 0


def test_a_module_outside_its_protocol_fails_the_run(tmp_path):
    # http.get_tx() on a flow that is not HTTP: the run fails (counted), nothing matches
    script(tmp_path, "h.lua", '''
local http = require("suricata.http")
function init(args)
    return {payload = true}
end
function match(args)
    return http.get_tx():request_line() and 1 or 0
end
''')
    r = detect(tmp_path, [udp(b"GET / HTTP/1.0")], [rule("lua:h.lua;", proto="udp")], *ALLOW)
    assert r.alerts == []
    assert lua_stats(r)["errors"] == 1


def test_check_mode_refuses_or_loads_as_the_config_says(tmp_path):
    from conftest import binary, run
    script(tmp_path, "p.lua", PAYLOAD_FIND)
    rf = tmp_path / "l.rules"
    rf.write_text(rule("lua:p.lua;", sid=3, proto="udp") + "\n")
    off = run([binary("osprey"), "-T", "-S", str(rf)], check=False)
    assert off.returncode != 0
    assert "l.rules:1: sid 3: lua: Lua rules are not enabled" in off.stdout + off.stderr
    on = run([binary("osprey"), "-T", "-S", str(rf), *ALLOW], check=False)
    assert on.returncode == 0, on.stdout + on.stderr
