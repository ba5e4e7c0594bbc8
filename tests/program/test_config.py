"""osprey's configuration: defaults, the YAML file, --set overrides, and their diagnostics.

Each test writes a small YAML file, runs `osprey --dump-config` and checks the exact effective
values (sizes are dumped in bytes, durations in seconds) or the exact message on stderr.
"""
import pytest

from conftest import BUILD, ROOT, binary, run

SHIPPED = ROOT / "etc" / "osprey.yaml"

DEFAULTS = {
    "vars.address-groups.HOME_NET": "[192.168.0.0/16,10.0.0.0/8,172.16.0.0/12]",
    "vars.address-groups.EXTERNAL_NET": "!$HOME_NET",
    **{f"vars.address-groups.{name}": "$HOME_NET" for name in (
        "HTTP_SERVERS", "SMTP_SERVERS", "SQL_SERVERS", "DNS_SERVERS", "TELNET_SERVERS",
        "AIM_SERVERS", "DC_SERVERS", "DNP3_SERVER", "DNP3_CLIENT", "MODBUS_CLIENT",
        "MODBUS_SERVER", "ENIP_CLIENT", "ENIP_SERVER", "SIP_SERVERS")},
    "vars.port-groups.HTTP_PORTS": "80",
    "vars.port-groups.SHELLCODE_PORTS": "!80",
    "vars.port-groups.ORACLE_PORTS": "1521",
    "vars.port-groups.SSH_PORTS": "22",
    "vars.port-groups.DNP3_PORTS": "20000",
    "vars.port-groups.MODBUS_PORTS": "502",
    "vars.port-groups.FILE_DATA_PORTS": "[$HTTP_PORTS,110,143]",
    "vars.port-groups.FTP_PORTS": "21",
    "vars.port-groups.GENEVE_PORTS": "6081",
    "vars.port-groups.VXLAN_PORTS": "4789",
    "vars.port-groups.TEREDO_PORTS": "3544",
    "vars.port-groups.SIP_PORTS": "[5060,5061,5600]",
    "default-log-dir": "/var/log/osprey/",
    "pcap-file.checksum-checks": "auto",
    "pcap-file.continuous": False,
    "pcap-file.read-ahead": True,
    "pcap-file.delete-when-done": False,
    "host-os-policy.default": "bsd",
    "defrag.memcap": 32 * 2**20,
    "defrag.timeout": 60,
    "defrag.max-frags": 8192,
    "defrag.trackers": 65535,
    "flow.memcap": 128 * 2**20,
    "flow.hash-size": 65536,
    "flow.prealloc": 10000,
    "flow.hash-seed": 0,
    "flow.recyclers": "auto",
    "default-rule-path": "/var/lib/osprey/rules",
    "rule-files": [],
    "classification-file": "classification.config",
    "reference-config-file": "reference.config",
    "threshold-file": "threshold.config",
    "stream.reassembly.memcap": 256 * 1024 * 1024,
    "stream.reassembly.depth": 1024 * 1024,
    "stream.reassembly.buffer-size": 65536,
    "stream.reassembly.toserver-chunk-size": 2560,
    "stream.reassembly.toclient-chunk-size": 2560,
    "stream.reassembly.max-fragments": 1024,
    "stream.reassembly.urgent.policy": "inline",
    "stream.midstream": False,
    "stream.async-oneside": False,
    "stream.midstream-policy": "auto",
    "stream.reassembly.memcap-policy": "auto",
    "stream.checksum-validation": False,
    "stream.inline": "auto",
    "exception-policy": "auto",
    "stream.one-sided-packets": 10,
    "flow-timeouts.default.new": 30,
    "flow-timeouts.default.established": 300,
    "flow-timeouts.default.closed": 0,
    "flow-timeouts.tcp.new": 60,
    "flow-timeouts.tcp.established": 600,
    "flow-timeouts.tcp.closed": 60,
    "flow-timeouts.udp.new": 30,
    "flow-timeouts.udp.established": 300,
    "flow-timeouts.icmp.new": 30,
    "flow-timeouts.icmp.established": 300,
    "decoder.teredo.enabled": True,
    "decoder.teredo.ports": "3544",
    "decoder.vxlan.enabled": True,
    "decoder.vxlan.ports": "4789",
    "decoder.geneve.enabled": True,
    "decoder.geneve.ports": "6081",
    "decoder.gtpu.enabled": True,
    "decoder.gtpu.ports": "2152",
    "decoder.gre-udp.enabled": True,
    "decoder.gre-udp.ports": "4754",
    "decoder.mpls-udp.enabled": True,
    "decoder.mpls-udp.ports": "6635",
    "decoder.max-layers": 8,
    "detect.stream-mpm": "stream",
    "detect.sgh-mpm-caching": True,
    "detect.sgh-mpm-caching-path": "/var/lib/osprey/cache/hs",
    "detect.sgh-mpm-caching-max-age": 7 * 86400,
    "pcre.match-limit": 3500,
    "pcre.match-limit-recursion": 1500,
    "profiling.rules.enabled": False,
    "profiling.rules.limit": 10,
    "profiling.rules.filename": "rule_perf.log",
    "detect.prefilter.default": "mpm",
    "detect.guess-applayer-tx": False,
    "threading.workers": 0,
    "threading.ring-size": 0,
    # every registered protocol's switch (test_every_protocol_has_its_switch)
    **{f"app-layer.protocols.{p}.enabled": True for p in (
        "dcerpc", "dns", "ftp", "ftp-data", "http", "sip", "mqtt", "smb", "smtp", "ssh", "tls", "krb5",
        "ldap", "snmp", "http2", "dhcp", "ntp", "ike", "irc", "netbios-ns", "netbios-dgm",
        "wins", "ssdp", "mysql", "nntp",
        "nfs", "sunrpc", "tftp", "tftp-data", "pop3", "imap", "quic")},
    "app-layer.protocols.ssh.hassh": False,
    "app-layer.protocols.tls.encryption-handling": "default",
    **{f"app-layer.protocols.dns.{t}detection-ports.dp": "" for t in ("", "tcp.", "udp.")},
    **{f"app-layer.protocols.{p}.enabled": True for p in ("websocket", "telnet", "rfb", "rdp")},
    **{f"app-layer.protocols.{p}.enabled": True for p in ("pgsql", "mdns", "bittorrent-dht")},
    "app-layer.protocols.doh2.enabled": True,
    "app-layer.protocols.pgsql.max-tx": 1024,
    "app-layer.protocols.pgsql.stream-depth": 0,
    # the SCADA parsers are off unless configured, as in Suricata
    **{f"app-layer.protocols.{p}.enabled": False for p in ("modbus", "dnp3", "enip")},
    "app-layer.protocols.modbus.request-flood": 500,
    "app-layer.protocols.ldap.max-tx": 256,
    "app-layer.protocols.ftp.max-tx": 256,
    "app-layer.protocols.ftp.max-line-length": 4096,
    "app-layer.files.memcap": 64 * 1024 * 1024,
    "app-layer.protocols.http.header-limit": 32768,
    "app-layer.protocols.http.request-body-limit": 102400,
    "app-layer.protocols.http.response-body-limit": 102400,
    "app-layer.protocols.http.body-file-limit": 1048576,
    "app-layer.protocols.http.libhtp.default-config.request-body-limit": 102400,
    "app-layer.protocols.http.libhtp.default-config.response-body-limit": 102400,
    "app-layer.protocols.http.decompress": True,
    "app-layer.protocols.http.libhtp.default-config.response-body-decompress-layer-limit": 2,
    "app-layer.protocols.http.libhtp.default-config.lzma-enabled": False,
    "app-layer.protocols.http.libhtp.default-config.lzma-memlimit": 1048576,
    "app-layer.protocols.http2.max-streams": 4096,
    "app-layer.protocols.http2.http1-rules": False,
    "app-layer.protocols.mqtt.max-msg-length": 1048576,
    "app-layer.protocols.mqtt.max-tx": 4096,
    "app-layer.protocols.smtp.attachment-limit": 1048576,
    "app-layer.protocols.websocket.max-payload-size": 65535,
    "app-layer.protocols.pop3.attachment-limit": 1048576,
    "app-layer.protocols.imap.attachment-limit": 1048576,
    "af-packet.threads": 0,
    "af-packet.cluster-id": 99,
    "af-packet.defrag": True,
    "af-packet.promisc": True,
    "af-packet.block-size": 1024 * 1024,
    "af-packet.blocks": 16,
    "af-packet.block-timeout": 10,
    "af-packet.offload-metadata": True,
    "pcap.buffer-size": 32 * 1024 * 1024,
    "pcap.snaplen": 65535,
    "live-capture": "af-packet",
    "inline.fail-mode": "closed",
    "inline.max-delay": 0,
    "dpdk.eal-args": [],
    "dpdk.interfaces": [],
    "dpdk.copy-mode": "ips",
    "dpdk.threads": 0,
    "dpdk.mempool-size": 16383,
    "dpdk.mempool-cache-size": 256,
    "dpdk.rx-descriptors": 1024,
    "dpdk.tx-descriptors": 1024,
    "dpdk.promisc": True,
    "pid-file": "",
    "logging.default-log-level": "notice",
    "logging.outputs.console.enabled": True,
    "logging.outputs.file.enabled": False,
    "logging.outputs.file.filename": "osprey.log",
    "logging.outputs.syslog.enabled": False,
    "logging.outputs.syslog.facility": "local5",
    "unix-command.enabled": False,
    "unix-command.filename": "/var/run/osprey/osprey-command.socket",
    "stats.enabled": True,
    "stats.interval": 8,
    "stats.threads": False,
    "stats.decoder-events": True,
    "stats.stream-events": False,
    "outputs.fast.enabled": True,
    "outputs.fast.filename": "fast.log",
    "outputs.fast.append": True,
    "outputs.eve-log.enabled": True,
    "outputs.eve-log.filetype": "regular",
    "outputs.eve-log.filename": "eve.json",
    "outputs.eve-log.append": False,
    "outputs.eve-log.buffer-size": 65536,
    "outputs.eve-log.community-id": False,
    "outputs.eve-log.community-id-seed": 0,
    "outputs.eve-log.tagged-packets": True,
    "outputs.eve-log.anomaly.enabled": True,
    "outputs.eve-log.anomaly.types.decode": False,
    "outputs.eve-log.anomaly.types.stream": False,
    "outputs.eve-log.anomaly.types.applayer": True,
    "outputs.eve-log.types": ["alert", "anomaly", "flow", "stats"],
    "outputs.eve-log.files.force-hash": [],
    "outputs.eve-log.files.force-magic": False,
    "outputs.eve-log.redis.server": "127.0.0.1",
    "outputs.eve-log.redis.port": 6379,
    "outputs.eve-log.redis.mode": "list",
    "outputs.eve-log.redis.key": "suricata",
    "outputs.eve-log.redis.async": True,
    "outputs.eve-log.redis.pipelining.enabled": False,
    "outputs.eve-log.redis.pipelining.batch-size": 10,
    "outputs.eve-log.redis.stream-maxlen": 100000,
    "outputs.eve-log.redis.stream-trim-exact": False,
    "outputs.eve-log.redis.memcap": 32 * 1024 * 1024,
    "outputs.eve-log.kafka.brokers": "127.0.0.1:9092",
    "outputs.eve-log.kafka.topic": "suricata",
    "outputs.eve-log.kafka.partition": "-1",  # parse_dump reads no negative numbers
    "outputs.eve-log.kafka.batch-size": 10000,
    "outputs.eve-log.kafka.linger-ms": 5,
    "outputs.eve-log.kafka.compression": "none",
    "outputs.eve-log.kafka.memcap": 32 * 1024 * 1024,
    "outputs.eve-log.kafka.message-timeout": 30,
    "outputs.eve-log.identity": "osprey",
    "outputs.eve-log.facility": "local5",
    "outputs.eve-log.level": "Info",
    "outputs.eve-log.syslog.socket": "/dev/log",
    "outputs.unified2-alert.enabled": True,
    "outputs.unified2-alert.filename": "unified2.alert",
    "outputs.unified2-alert.limit": 32 * 1024 * 1024,
    "outputs.unified2-alert.sensor-id": 0,
    "outputs.pcap-log.enabled": False,
    "outputs.pcap-log.filename": "log.pcap",
    "outputs.pcap-log.limit": 1000 * 1024 * 1024,
    "outputs.pcap-log.conditional": "all",
    "outputs.file-store.enabled": False,
    "outputs.file-store.version": 2,
    "outputs.file-store.dir": "filestore",
    "outputs.file-store.write-fileinfo": False,
    "outputs.file-store.force-filestore": False,
    "geoip-database": "",
    "datasets.enabled": True,
    "datasets.defaults.memcap": 16 * 1024 * 1024,
    "datasets.defaults.hashsize": 4096,
    "security.lua.allow-rules": False,
    "security.lua.max-bytes": 500000,
    "security.lua.max-instructions": 500000,
}


def scalar(text):
    """One value of --dump-config's output: "quoted" → str, [a, b] → list, yes/no → bool,
    digits → int, anything else → str. (The dump's format is ours, so no YAML library.)"""
    if text.startswith('"'):
        assert text.endswith('"'), text
        return text[1:-1].encode().decode("unicode_escape")
    if text.startswith("["):
        inner = text[1:-1].strip()
        return [scalar(item.strip()) for item in inner.split(",")] if inner else []
    if text in ("yes", "no"):
        return text == "yes"
    if text.isdigit():
        return int(text)
    return text


def parse_dump(text):
    """--dump-config output → {"dotted.key": value}."""
    lines = text.splitlines()
    assert lines[:2] == ["%YAML 1.1", "---"], lines[:2]
    flat, stack = {}, []
    for line in lines[2:]:
        if not line.strip():
            continue
        depth = (len(line) - len(line.lstrip(" "))) // 2
        key, _, value = line.strip().partition(":")
        key = scalar(key)
        del stack[depth:]
        value = value.strip()
        if value == "":
            stack.append(key)
        elif value != "{}":
            flat[".".join(stack + [key])] = scalar(value)
    return flat


def osprey(*args, check=True):
    return run([binary("osprey"), *args], check=check)


def dump(tmp_path, yaml_text=None, *sets):
    """Effective config for a file holding yaml_text (None: no file) plus --set overrides.
    Asserts that nothing was printed on stderr."""
    args = []
    if yaml_text is not None:
        path = tmp_path / "osprey.yaml"
        path.write_text(yaml_text)
        args += ["-c", str(path)]
    for s in sets:
        args += ["--set", s]
    proc = osprey(*args, "--dump-config")
    assert proc.stderr == ""
    return parse_dump(proc.stdout)


def load_fails(tmp_path, yaml_text, *sets):
    """stderr of a load that must fail (exit 1, nothing on stdout); FILE is replaced by 'F'."""
    path = tmp_path / "osprey.yaml"
    path.write_text(yaml_text)
    args = ["-c", str(path)]
    for s in sets:
        args += ["--set", s]
    proc = osprey(*args, "--dump-config", check=False)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == ""
    return proc.stderr.replace(str(path), "F")


# --- defaults -------------------------------------------------------------------------------

def test_defaults_without_a_file(tmp_path):
    assert dump(tmp_path) == DEFAULTS


def test_empty_file_and_bare_vars_give_defaults(tmp_path):
    assert dump(tmp_path, "") == DEFAULTS
    assert dump(tmp_path, "vars:\n") == DEFAULTS
    assert dump(tmp_path, "%YAML 1.1\n---\n") == DEFAULTS


def test_only_vars_file_merges_over_default_groups(tmp_path):
    cfg = dump(tmp_path, """\
%YAML 1.1
---
vars:
  address-groups:
    HOME_NET: "[10.0.0.0/8]"
    LAB_NET: 10.9.0.0/16
  port-groups:
    HTTP_PORTS: "[80,8080]"
    SSH_PORTS: 2222
""")
    expected = dict(DEFAULTS)
    expected["vars.address-groups.HOME_NET"] = "[10.0.0.0/8]"
    expected["vars.address-groups.LAB_NET"] = "10.9.0.0/16"
    expected["vars.port-groups.HTTP_PORTS"] = "[80,8080]"
    expected["vars.port-groups.SSH_PORTS"] = "2222"
    assert cfg == expected
    # New names come after the built-in ones, in file order.
    assert list(cfg)[16] == "vars.address-groups.LAB_NET"


def test_shipped_config_loads_without_warnings():
    proc = osprey("-c", str(SHIPPED), "--dump-config")
    assert proc.stderr == ""
    cfg = parse_dump(proc.stdout)
    policies = {k: v for k, v in cfg.items() if k.startswith("host-os-policy.") and
                k != "host-os-policy.default"}
    assert set(policies) == {f"host-os-policy.{os}" for os in (
        "windows", "bsd", "bsd-right", "old-linux", "linux", "old-solaris", "solaris",
        "hpux10", "hpux11", "irix", "macos", "vista", "windows2k3")}
    assert all(v == [] for v in policies.values())
    # the shipped file names its tables beside itself (relative to its directory, etc/); the
    # built-in defaults name them from the repository root
    tables = {"classification-file": "classification.config",
              "reference-config-file": "reference.config", "threshold-file": "threshold.config"}
    assert {k: v for k, v in cfg.items() if k not in policies} == {**DEFAULTS, **tables}


# Suricata's names of keys the shipped file writes under Osprey's names: read only when set,
# so writing them too would make the file's value win over an edit of the other name.
ALIASES = {"app-layer.protocols.http.libhtp.default-config.request-body-limit",
           "app-layer.protocols.http.libhtp.default-config.response-body-limit"}


def test_shipped_config_sets_every_key():
    """etc/osprey.yaml is the reference: every fixed key of the dump is written in it."""
    text = SHIPPED.read_text()
    for key in DEFAULTS:
        if key in ALIASES:
            assert key.rsplit(".", 1)[1] in text, key  # named in the comments
        elif key.startswith("outputs."):  # suricata.yaml's list: "  - fast:", then its keys
            _, name, leaf = key.split(".", 2)
            assert f"\n  - {name}:" in text, key
            # nested keys (redis.pipelining.enabled) one level deeper each
            for depth, part in enumerate(leaf.split(".")):
                assert f"\n{' ' * (6 + 2 * depth)}{part}:" in text, key
        elif not key.startswith("vars."):
            assert f"\n{' ' * 2 * key.count('.')}{key.split('.')[-1]}:" in text, key


def test_dump_output_loads_back_to_itself(tmp_path):
    first = osprey("-c", str(SHIPPED), "--set", "host-os-policy.linux=[10.0.0.0/8, ::1]",
                   "--set", 'vars.address-groups.ODD=a "quoted" \\ value',
                   "--dump-config").stdout
    again = tmp_path / "again.yaml"
    again.write_text(first)
    second = osprey("-c", str(again), "--dump-config")
    assert second.stderr == ""
    assert second.stdout == first
    assert parse_dump(first)["vars.address-groups.ODD"] == 'a "quoted" \\ value'


# --- value types ------------------------------------------------------------------------------

@pytest.mark.parametrize("text,expected", [
    ("4096", 4096), ("64kb", 65536), ("64KB", 65536), ("64k", 65536), ("2KiB", 2048),
    ("128mb", 128 * 2**20), ("128MB", 128 * 2**20), ("1gb", 2**30), ("1GB", 2**30),
    ("1.5mb", 3 * 2**19), ('"64 mb"', 64 * 2**20), ("0", 0),
])
def test_size_units(tmp_path, text, expected):
    assert dump(tmp_path, f"flow:\n  memcap: {text}\n")["flow.memcap"] == expected
    assert dump(tmp_path, None, f"defrag.memcap={text.strip(chr(34))}")["defrag.memcap"] == expected


@pytest.mark.parametrize("text,expected", [
    ("yes", True), ("no", False), ("true", True), ("false", False), ("on", True),
    ("off", False), ("Yes", True), ("FALSE", False), ("1", True), ("0", False),
])
def test_bools(tmp_path, text, expected):
    cfg = dump(tmp_path, f"decoder:\n  vxlan:\n    enabled: {text}\n")
    assert cfg["decoder.vxlan.enabled"] is expected
    assert cfg["decoder.geneve.enabled"] is True


@pytest.mark.parametrize("text,expected", [
    ("45", 45), ("45s", 45), ("2m", 120), ("1h", 3600), ("1H", 3600), ("0", 0),
])
def test_seconds(tmp_path, text, expected):
    cfg = dump(tmp_path, f"flow-timeouts:\n  tcp:\n    established: {text}\n")
    assert cfg["flow-timeouts.tcp.established"] == expected
    assert cfg["flow-timeouts.tcp.new"] == 60


def test_ints_at_their_bounds(tmp_path):
    cfg = dump(tmp_path, "decoder:\n  max-layers: 8\nflow:\n  hash-seed: 4294967295\n"
               "  prealloc: 0\n")
    assert (cfg["decoder.max-layers"], cfg["flow.hash-seed"], cfg["flow.prealloc"]) == \
        (8, 4294967295, 0)


# (parse_dump reads the words yes/no as booleans.)
@pytest.mark.parametrize("text,expected", [("yes", True), ("no", False), ("AUTO", "auto"),
                                           ('"No"', False)])
def test_enum(tmp_path, text, expected):
    assert dump(tmp_path, f"pcap-file:\n  checksum-checks: {text}\n")[
        "pcap-file.checksum-checks"] == expected


def test_strings_and_policy_lists(tmp_path):
    cfg = dump(tmp_path, """\
default-log-dir: /tmp/osprey-logs
host-os-policy:
  default: Windows
  linux: [10.0.0.0/8, "2001:db8::/32"]
  Solaris:
    - 192.168.1.1
  bsd: []
  irix:
""")
    assert cfg["default-log-dir"] == "/tmp/osprey-logs"
    assert cfg["host-os-policy.default"] == "windows"
    assert cfg["host-os-policy.linux"] == ["10.0.0.0/8", "2001:db8::/32"]
    assert cfg["host-os-policy.solaris"] == ["192.168.1.1"]
    assert cfg["host-os-policy.bsd"] == []
    assert cfg["host-os-policy.irix"] == []


def test_key_without_value_keeps_default(tmp_path):
    assert dump(tmp_path, "flow:\n  memcap:\n") == DEFAULTS


# --- --set ------------------------------------------------------------------------------------

def test_set_overrides_file_and_default(tmp_path):
    cfg = dump(tmp_path, "flow:\n  memcap: 64mb\n  prealloc: 5\n",
               "flow.memcap=1gb", "defrag.timeout=5m", "decoder.vxlan.enabled=no")
    assert cfg["flow.memcap"] == 2**30           # file value replaced
    assert cfg["flow.prealloc"] == 5             # file value kept
    assert cfg["defrag.timeout"] == 300          # default replaced
    assert cfg["decoder.vxlan.enabled"] is False
    assert cfg["flow.hash-size"] == 65536        # default kept


def test_set_last_one_wins(tmp_path):
    assert dump(tmp_path, None, "flow.prealloc=1", "flow.prealloc=2")["flow.prealloc"] == 2


def test_set_into_wildcard_maps(tmp_path):
    cfg = dump(tmp_path, "vars:\n  address-groups:\n    LAB: 10.1.0.0/16\n",
               "vars.address-groups.HOME_NET=[10.0.0.0/8]",
               "vars.address-groups.LAB=10.2.0.0/16",
               "vars.port-groups.MY_PORTS=[1,2]",
               "host-os-policy.windows=[10.0.0.0/8, 192.168.0.0/16]",
               "host-os-policy.linux=172.16.0.0/12,::1",
               "host-os-policy.default=linux")
    assert cfg["vars.address-groups.HOME_NET"] == "[10.0.0.0/8]"
    assert cfg["vars.address-groups.LAB"] == "10.2.0.0/16"
    assert cfg["vars.port-groups.MY_PORTS"] == "[1,2]"
    assert cfg["host-os-policy.windows"] == ["10.0.0.0/8", "192.168.0.0/16"]
    assert cfg["host-os-policy.linux"] == ["172.16.0.0/12", "::1"]
    assert cfg["host-os-policy.default"] == "linux"


def test_set_unknown_key_warns_and_continues(tmp_path):
    proc = osprey("--set", "flow.memcapp=1mb", "--set", "host-os-policy.plan9=1.2.3.4",
                  "--dump-config")
    assert proc.stderr == ("warning: --set flow.memcapp=1mb: unknown key 'flow.memcapp'\n"
                           "warning: --set host-os-policy.plan9=1.2.3.4: unknown key "
                           "'host-os-policy.plan9'\n")
    assert parse_dump(proc.stdout) == DEFAULTS


@pytest.mark.parametrize("arg,message", [
    ("flow.memcap=lots", "--set flow.memcap=lots: flow.memcap: expected a size such as 64mb, "
                         "got 'lots'"),
    ("decoder.max-layers=0", "--set decoder.max-layers=0: decoder.max-layers: expected an "
                             "integer from 1 to 8, got '0'"),
    ("app-layer.protocols.http.libhtp.default-config.response-body-decompress-layer-limit=9",
     "--set app-layer.protocols.http.libhtp.default-config.response-body-decompress-layer-limit"
     "=9: app-layer.protocols.http.libhtp.default-config.response-body-decompress-layer-limit:"
     " expected an integer from 1 to 8, got '9'"),
    ("flow.memcap", "--set flow.memcap: expected key.path=value"),
    ("=1", "--set =1: expected key.path=value"),
    ("flow=1", "--set flow=1: flow: is a section; set one key below it, as flow.NAME=VALUE"),
])
def test_set_errors(arg, message):
    proc = osprey("--set", arg, "--dump-config", check=False)
    assert (proc.returncode, proc.stdout, proc.stderr) == (1, "", message + "\n")


# --- diagnostics --------------------------------------------------------------------------------

def test_unknown_keys_warn_with_file_and_line(tmp_path):
    path = tmp_path / "osprey.yaml"
    path.write_text("""\
%YAML 1.1
---
flow:
  memcapp: 1mb
  memcap: 64mb
unknown-section:
  deeper:
    still: 1
host-os-policy:
  plan9: []
decoder:
  vxlan:
    enable: yes
""")
    proc = osprey("-c", str(path), "--dump-config")
    assert proc.stderr == (
        f"warning: {path}:4: unknown key 'flow.memcapp'\n"
        f"warning: {path}:6: unknown key 'unknown-section'\n"
        f"warning: {path}:10: unknown key 'host-os-policy.plan9'\n"
        f"warning: {path}:13: unknown key 'decoder.vxlan.enable'\n")
    cfg = parse_dump(proc.stdout)
    assert cfg["flow.memcap"] == 64 * 2**20   # loading went on past the unknown key


def test_duplicate_key_warns(tmp_path):
    path = tmp_path / "osprey.yaml"
    path.write_text("flow:\n  prealloc: 1\n  prealloc: 2\n")
    proc = osprey("-c", str(path), "--dump-config")
    assert proc.stderr == (f"warning: {path}:3: flow.prealloc: set again (first at line 2); "
                           "the last one wins\n")
    assert parse_dump(proc.stdout)["flow.prealloc"] == 2


@pytest.mark.parametrize("yaml_text,message", [
    ("flow:\n  memcap: lots\n", "F:2: flow.memcap: expected a size such as 64mb, got 'lots'"),
    ("flow:\n  memcap: 1.5\n", "F:2: flow.memcap: expected a size such as 64mb, got '1.5'"),
    ("flow:\n  memcap: 64tb\n", "F:2: flow.memcap: expected a size such as 64mb, got '64tb'"),
    ("flow:\n  memcap: 99999999999gb\n",
     "F:2: flow.memcap: expected a size such as 64mb, got '99999999999gb'"),
    ("decoder:\n  teredo:\n    enabled: maybe\n",
     "F:3: decoder.teredo.enabled: expected yes or no, got 'maybe'"),
    ("decoder:\n  max-layers: 9\n",
     "F:2: decoder.max-layers: expected an integer from 1 to 8, got '9'"),
    ("flow:\n  prealloc: 12abc\n",
     "F:2: flow.prealloc: expected an integer from 0 to 2147483647, got '12abc'"),
    ("defrag:\n  timeout: 1w\n",
     "F:2: defrag.timeout: expected a duration such as 30s, 5m, 1h or 7d, got '1w'"),
    ("defrag:\n  timeout: -5\n",
     "F:2: defrag.timeout: expected a duration such as 30s, 5m, 1h or 7d, got '-5'"),
    ("pcap-file:\n  checksum-checks: maybe\n",
     "F:2: pcap-file.checksum-checks: expected one of auto, yes, no, got 'maybe'"),
    ("host-os-policy:\n  default: hpux11\n",
     "F:2: host-os-policy.default: expected one of first, last, bsd, linux, windows, "
     "solaris, got 'hpux11'"),
    # Wrong shapes.
    ("flow:\n  memcap:\n    a: 1\n", "F:3: flow.memcap: expected a size such as 64mb, got a map"),
    ("flow:\n  memcap: [1mb]\n", "F:2: flow.memcap: expected a size such as 64mb, got a list"),
    ("default-log-dir: [a, b]\n", "F:1: default-log-dir: expected a string, got a list"),
    ("flow: 128mb\n", "F:1: flow: expected a map, got '128mb'"),
    ("vars:\n  - a\n", "F:2: vars: expected a map, got a list"),
    ("vars:\n  address-groups: 10.0.0.0/8\n",
     "F:2: vars.address-groups: expected a map, got '10.0.0.0/8'"),
    ("vars:\n  address-groups:\n    HOME_NET:\n      - 10.0.0.0/8\n",
     "F:4: vars.address-groups.HOME_NET: expected a string, got a list"),
    ("host-os-policy:\n  linux:\n    a: 1\n",
     "F:3: host-os-policy.linux: expected a list such as [a, b], got a map"),
    ("host-os-policy:\n  linux: [[1]]\n",
     "F:2: host-os-policy.linux: expected a list such as [a, b], got a list"),
    ("- flow\n", "F:1: expected a map of settings at the top level, got a list"),
])
def test_bad_values_fail_naming_key_file_and_line(tmp_path, yaml_text, message):
    assert load_fails(tmp_path, yaml_text) == message + "\n"


def test_every_error_is_reported_before_failing(tmp_path):
    err = load_fails(tmp_path, "flow:\n  memcap: lots\n  hash-size: 0\nbogus: 1\n",
                     "defrag.memcap=x")
    assert err == ("F:2: flow.memcap: expected a size such as 64mb, got 'lots'\n"
                   "F:3: flow.hash-size: expected an integer from 1 to 2147483647, got '0'\n"
                   "warning: F:4: unknown key 'bogus'\n"
                   "--set defrag.memcap=x: defrag.memcap: expected a size such as 64mb, "
                   "got 'x'\n")


@pytest.mark.parametrize("yaml_text,message", [
    ("flow:\n  memcap: 1mb\n   hash-size: 2\n",
     "F:3: YAML syntax error: mapping values are not allowed in this context (column 13)"),
    ("flow: [1, 2\n", "F:2: YAML syntax error: did not find expected ',' or ']' (column 1), "
                      "while parsing a flow sequence at line 1"),
    ("a: 1\n---\nb: 2\n", "F:2: more than one YAML document; a config file holds one"),
    ("a: &x 1\nb: *x\n", "F:2: YAML aliases (*name) are not supported in config files"),
    ("[" * 100 + "\n", "F:1: nesting too deep"),
])
def test_yaml_errors(tmp_path, yaml_text, message):
    assert load_fails(tmp_path, yaml_text) == message + "\n"


def test_missing_config_file(tmp_path):
    path = tmp_path / "nope.yaml"
    proc = osprey("-c", str(path), "--dump-config", check=False)
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr == f"{path}: cannot open config file: No such file or directory\n"


def test_config_path_is_a_directory(tmp_path):
    proc = osprey("-c", str(tmp_path), "--dump-config", check=False)
    assert (proc.returncode, proc.stderr) == \
        (1, f"{tmp_path}: cannot open config file: Is a directory\n")


# --- command line -------------------------------------------------------------------------------

def test_version():
    for flag in ("-V", "--version"):
        proc = osprey(flag)
        assert proc.stdout == "osprey 0.1.0\n" and proc.stderr == ""


def test_help_lists_every_option():
    for flag in ("-h", "--help"):
        out = osprey(flag).stdout
        assert out.startswith("Usage: osprey [OPTION]...\n")
        for option in ("-c, --config FILE", "--set KEY=VALUE", "--dump-config",
                       "-V, --version", "-h, --help"):
            assert option in out


@pytest.mark.parametrize("args,message", [
    (["--bogus"], "osprey: unknown option '--bogus'"),
    (["-Z"], "osprey: unknown option '-Z'"),
    (["-c"], "osprey: option '-c' needs an argument"),
    (["--dump-config", "--set"], "osprey: option '--set' needs an argument"),
    (["--dump-config=yes"], "osprey: option '--dump-config=yes' takes no argument"),
    (["--dump-config", "extra"], "osprey: unexpected argument 'extra'"),
    ([], "osprey: nothing to do: no mode given (--dump-config)"),
])
def test_usage_errors_exit_2(args, message):
    proc = osprey(*args, check=False)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == message + "\nTry 'osprey --help' for more information.\n"


def test_config_c_api():
    """common/tests/test_config_api.c: getters, osprey_config_each, origins (also in ctest)."""
    exe = BUILD / "unit" / "test_config_api"
    if not exe.exists():
        pytest.fail(f"{exe} not built")
    proc = run([str(exe), str(SHIPPED)])
    assert proc.stdout.endswith(" passed, 0 failed\n")


# --- host-os-policy blocks (common/cidr.c, read when the stack is set up) ----------------------

def _one_packet_pcap(tmp_path):
    from scapy.all import IP, UDP, Ether, wrpcap
    pcap = tmp_path / "one.pcap"
    wrpcap(str(pcap), [Ether() / IP(src="10.0.0.1", dst="10.0.0.2") / UDP()])
    return pcap


@pytest.mark.parametrize("block,ok", [
    ("10.0.0.0/8", True), ("10.1.2.3", True), ("2001:db8::/32", True), ("0.0.0.0/0", True),
    # a prefix length is decimal digits only, within the family's bits
    ("10.0.0.0/", False), ("10.0.0.0/+8", False), ("10.0.0.0/-5", False),
    ("10.0.0.0/33", False), ("2001:db8::/129", False), ("10.0.0/8", False),
    ("10.0.0.0/255.0.0.0", False),
])
def test_host_os_policy_blocks(tmp_path, block, ok):
    proc = osprey("-r", str(_one_packet_pcap(tmp_path)), "-l", str(tmp_path), "-S", "/dev/null",
                  "--set", f"host-os-policy.linux=[{block}]", check=False)
    if ok:
        assert proc.returncode == 0, proc.stderr
    else:
        assert proc.returncode == 1
        assert (f"host-os-policy.linux: expected an address or CIDR, got '{block}'"
                in proc.stderr)


def test_every_protocol_has_its_switch(tmp_path):
    """app-layer.protocols.<name>.enabled exists for every protocol parsers/ registers (the
    descriptors' names), so each can be turned off or to detection-only."""
    import re
    names = set()
    for src in (ROOT / "parsers").glob("*/*.c"):
        text = src.read_text()
        for m in re.finditer(r"const struct osprey_proto_def \w+ = \{\s*\.name = \"([^\"]+)\"", text):
            names.add(m.group(1))
    assert {"http", "dns", "tls", "ftp-data"} <= names
    cfg = dump(tmp_path)
    off = {"modbus", "dnp3", "enip"}  # Suricata's default for its SCADA parsers: off
    for name in names:
        assert cfg.get(f"app-layer.protocols.{name}.enabled") is (name not in off), name
    assert dump(tmp_path, None, "app-layer.protocols.dns.enabled=detection-only")[
        "app-layer.protocols.dns.enabled"] == "detection-only"
