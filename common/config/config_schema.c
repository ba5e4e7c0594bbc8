/* config_schema.c — every configuration key, its type, default and doc.
 *
 * Adding a key is adding one line here (and documenting it in etc/osprey.yaml). Rows are in
 * suricata.yaml's order, which is also the order of `osprey --dump-config`. Defaults follow
 * Suricata's where it has one, so a suricata.yaml section means the same thing here.
 */
#include "config_schema.h"

#include <stdint.h>

#define KEY(p, t, d, lo, hi, w, doc) {(p), CK_KEY, (t), (d), (lo), (hi), (w), (doc)}
#define BOOL(p, d, doc)              KEY(p, CT_BOOL, d, 0, 0, NULL, doc)
#define INT(p, d, lo, hi, doc)       KEY(p, CT_INT, d, lo, hi, NULL, doc)
#define SIZE(p, d, doc)              KEY(p, CT_SIZE, d, 0, 0, NULL, doc)
#define SECS(p, d, doc)              KEY(p, CT_SECONDS, d, 0, 0, NULL, doc)
#define STR(p, d, doc)               KEY(p, CT_STRING, d, 0, 0, NULL, doc)
#define ENUM(p, d, words, doc)       KEY(p, CT_ENUM, d, 0, 0, words, doc)
#define LIST(p, d, doc)              KEY(p, CT_LIST, d, 0, 0, NULL, doc)
#define MAP(p, t, names, doc)        {(p), CK_MAP, (t), NULL, 0, 0, (names), (doc)}
#define ENTRY(p, d)                  {(p), CK_ENTRY, CT_STRING, (d), 0, 0, NULL, NULL}

#define COUNT_MAX INT32_MAX

/* app-layer.protocols.<proto>.enabled: Suricata's three-way switch (yes: detected and parsed;
 * detection-only: detected, not parsed; no: neither) */
#define APP_MODES "yes|no|detection-only|true|false|on|off|1|0"
#define APP_ENABLED(proto)                                                                 \
    ENUM("app-layer.protocols." proto ".enabled", "yes", APP_MODES,                        \
         "yes: " proto " detected and parsed; detection-only: detected, not parsed (no "   \
         "buffers, events or records); no: not detected")

/* the same, off unless configured (Suricata's default for its SCADA parsers) */
#define APP_DISABLED(proto)                                                                \
    ENUM("app-layer.protocols." proto ".enabled", "no", APP_MODES,                         \
         "yes: " proto " detected and parsed; detection-only: detected, not parsed (no "   \
         "buffers, events or records); no (default, as Suricata): not detected")

/* Suricata's exception policies (what to do with a flow at an exception: a midstream
 * pick-up, an app-layer parser error …); "auto" is drop-flow in IPS mode, ignore in IDS. */
#define EXCEPTION_POLICIES "auto|ignore|drop-flow|drop-packet|reject|bypass|pass-flow|pass-packet"
/* a suricata.yaml boolean, or auto (decided by the run mode) */
#define BOOL_OR_AUTO "auto|yes|no|true|false|on|off|1|0"
/* stream.reassembly.urgent.policy (Suricata's drop, which drops the packet, is not offered) */
#define URGENT_POLICIES "inline|oob|gap"

/* Suricata's host-os-policy names: OSes and the two plain policies. */
#define OS_POLICY_NAMES                                                                    \
    "windows|bsd|bsd-right|old-linux|linux|old-solaris|solaris|hpux10|hpux11|irix|macos|" \
    "vista|windows2k3|first|last"

static const struct cfg_key SCHEMA[] = {
    /* vars: names usable in rules as $NAME. A file's entries are merged over these. */
    MAP("vars.address-groups.*", CT_STRING, NULL, "address variable usable in rules as $NAME"),
    ENTRY("vars.address-groups.HOME_NET", "[192.168.0.0/16,10.0.0.0/8,172.16.0.0/12]"),
    ENTRY("vars.address-groups.EXTERNAL_NET", "!$HOME_NET"),
    ENTRY("vars.address-groups.HTTP_SERVERS", "$HOME_NET"),
    ENTRY("vars.address-groups.SMTP_SERVERS", "$HOME_NET"),
    ENTRY("vars.address-groups.SQL_SERVERS", "$HOME_NET"),
    ENTRY("vars.address-groups.DNS_SERVERS", "$HOME_NET"),
    ENTRY("vars.address-groups.TELNET_SERVERS", "$HOME_NET"),
    ENTRY("vars.address-groups.AIM_SERVERS", "$HOME_NET"),
    ENTRY("vars.address-groups.DC_SERVERS", "$HOME_NET"),
    ENTRY("vars.address-groups.DNP3_SERVER", "$HOME_NET"),
    ENTRY("vars.address-groups.DNP3_CLIENT", "$HOME_NET"),
    ENTRY("vars.address-groups.MODBUS_CLIENT", "$HOME_NET"),
    ENTRY("vars.address-groups.MODBUS_SERVER", "$HOME_NET"),
    ENTRY("vars.address-groups.ENIP_CLIENT", "$HOME_NET"),
    ENTRY("vars.address-groups.ENIP_SERVER", "$HOME_NET"),
    ENTRY("vars.address-groups.SIP_SERVERS", "$HOME_NET"),
    MAP("vars.port-groups.*", CT_STRING, NULL, "port variable usable in rules as $NAME"),
    ENTRY("vars.port-groups.HTTP_PORTS", "80"),
    ENTRY("vars.port-groups.SHELLCODE_PORTS", "!80"),
    ENTRY("vars.port-groups.ORACLE_PORTS", "1521"),
    ENTRY("vars.port-groups.SSH_PORTS", "22"),
    ENTRY("vars.port-groups.DNP3_PORTS", "20000"),
    ENTRY("vars.port-groups.MODBUS_PORTS", "502"),
    ENTRY("vars.port-groups.FILE_DATA_PORTS", "[$HTTP_PORTS,110,143]"),
    ENTRY("vars.port-groups.FTP_PORTS", "21"),
    ENTRY("vars.port-groups.GENEVE_PORTS", "6081"),
    ENTRY("vars.port-groups.VXLAN_PORTS", "4789"),
    ENTRY("vars.port-groups.TEREDO_PORTS", "3544"),
    ENTRY("vars.port-groups.SIP_PORTS", "[5060,5061,5600]"),

    STR("default-log-dir", "/var/log/osprey/", "directory where output files are written"),

    /* stats and outputs (outputs/ sinks, engine/emit/); `outputs:` is suricata.yaml's list of
     * one-key maps, read as outputs.<name>.<key> */
    BOOL("stats.enabled", "yes", "write stats records (eve-log type stats)"),
    SECS("stats.interval", "8", "seconds between stats records (one more at exit)"),
    BOOL("stats.threads", "no", "also each worker's counters, under threads.W#NN"),
    /* Suricata's per-event counters in stats records; Osprey always counts its anomalies by
     * reason (decoder.event.*, stream anomalies), so both are accepted and change nothing */
    BOOL("stats.decoder-events", "yes", "accepted for suricata.yaml; anomalies are always counted"),
    BOOL("stats.stream-events", "no", "accepted for suricata.yaml; anomalies are always counted"),
    BOOL("outputs.fast.enabled", "yes", "write fast.log (one line per alert)"),
    STR("outputs.fast.filename", "fast.log", "fast.log file name (relative: under the log dir)"),
    BOOL("outputs.fast.append", "yes", "keep what the file holds (no: truncate at start)"),
    BOOL("outputs.eve-log.enabled", "yes", "write EVE JSON records"),
    ENUM("outputs.eve-log.filetype", "regular", "regular|unix_stream|unix_dgram|redis|kafka|syslog",
         "EVE to a file, a Unix socket, Redis, Kafka or the local syslog"),
    STR("outputs.eve-log.filename", "eve.json", "EVE file or socket (relative: under the log dir)"),
    BOOL("outputs.eve-log.append", "no", "keep what the file holds (no: truncate at start)"),
    SIZE("outputs.eve-log.buffer-size", "64kb",
         "regular/unix_stream: whole records batched per write, written within 100 ms; 0 = a "
         "write per record"),
    BOOL("outputs.eve-log.community-id", "no", "add community_id to alert and flow records"),
    INT("outputs.eve-log.community-id-seed", "0", 0, 65535, "seed of the community_id hash"),
    BOOL("outputs.eve-log.tagged-packets", "yes",
         "with alert records: the packets tag: rules tagged, as packet records"),
    BOOL("outputs.eve-log.anomaly.enabled", "yes", "anomaly records, of the types below"),
    BOOL("outputs.eve-log.anomaly.types.decode", "no",
         "decoder anomalies (Suricata's default: no; one record per anomalous packet)"),
    BOOL("outputs.eve-log.anomaly.types.stream", "no", "TCP stream anomalies (Suricata's default: no)"),
    BOOL("outputs.eve-log.anomaly.types.applayer", "yes", "application-layer anomalies"),
    LIST("outputs.eve-log.types", "[alert, anomaly, flow, stats]",
         "record types: alert, anomaly, files (fileinfo), flow, stats, http, dns, tls …"),
    LIST("outputs.eve-log.files.force-hash", "[]",
         "fileinfo: hashes computed for every file (md5, sha1, sha256)"),
    BOOL("outputs.eve-log.files.force-magic", "no", "fileinfo: libmagic's magic of every file"),
    /* filetype redis (outputs/log_redis.c): Suricata's keys and defaults; memcap is Osprey's */
    STR("outputs.eve-log.redis.server", "127.0.0.1", "Redis server (host name or address)"),
    INT("outputs.eve-log.redis.port", "6379", 1, 65535, "Redis port"),
    ENUM("outputs.eve-log.redis.mode", "list", "list|lpush|rpush|channel|publish|xadd|stream",
         "list/lpush, rpush: a list; channel/publish: PUBLISH; xadd/stream: a stream"),
    STR("outputs.eve-log.redis.key", "suricata", "the list, channel or stream name"),
    BOOL("outputs.eve-log.redis.async", "yes", "accepted for suricata.yaml; writes are always queued"),
    BOOL("outputs.eve-log.redis.pipelining.enabled", "no", "send batch-size commands per round trip"),
    INT("outputs.eve-log.redis.pipelining.batch-size", "10", 1, 100000,
        "most commands per round trip when pipelining"),
    INT("outputs.eve-log.redis.stream-maxlen", "100000", 0, INT64_MAX,
        "xadd: MAXLEN of the stream (0: none)"),
    BOOL("outputs.eve-log.redis.stream-trim-exact", "no", "xadd: trim to exactly MAXLEN (no: ~)"),
    SIZE("outputs.eve-log.redis.memcap", "32mb",
         "records queued while Redis is slow or away; past it they are dropped (counted)"),
    /* filetype kafka (outputs/log_kafka.c, librdkafka) */
    STR("outputs.eve-log.kafka.brokers", "127.0.0.1:9092", "bootstrap brokers, host:port[,…]"),
    STR("outputs.eve-log.kafka.topic", "suricata", "the topic records are produced to"),
    INT("outputs.eve-log.kafka.partition", "-1", -1, INT32_MAX,
        "fixed partition (order kept per partition); -1: librdkafka's partitioner"),
    INT("outputs.eve-log.kafka.batch-size", "10000", 1, 1000000, "most messages per batch"),
    INT("outputs.eve-log.kafka.linger-ms", "5", 0, 900000, "wait up to this to fill a batch"),
    ENUM("outputs.eve-log.kafka.compression", "none", "none|gzip|snappy|lz4|zstd",
         "compression of the batches"),
    SIZE("outputs.eve-log.kafka.memcap", "32mb",
         "records queued while the brokers are slow or away; past it they are dropped (counted)"),
    SECS("outputs.eve-log.kafka.message-timeout", "30",
         "a record not acknowledged after this is dropped (counted)"),
    /* filetype syslog (outputs/log_syslog.c): Suricata's keys; the socket is Osprey's */
    STR("outputs.eve-log.identity", "osprey", "syslog: the program name of each message"),
    STR("outputs.eve-log.facility", "local5", "syslog: facility (kern … local7)"),
    STR("outputs.eve-log.level", "Info", "syslog: level (Emergency … Debug)"),
    STR("outputs.eve-log.syslog.socket", "/dev/log", "syslog: the local syslog datagram socket"),
    BOOL("outputs.unified2-alert.enabled", "yes", "write unified2 (Snort's binary alerts)"),
    STR("outputs.unified2-alert.filename", "unified2.alert", "unified2 name; files are NAME.<seconds>"),
    SIZE("outputs.unified2-alert.limit", "32mb", "size of a unified2 file before the next starts"),
    INT("outputs.unified2-alert.sensor-id", "0", 0, UINT32_MAX, "sensor id in unified2 records"),
    BOOL("outputs.pcap-log.enabled", "no", "write the packets to pcap files (Suricata's pcap-log)"),
    STR("outputs.pcap-log.filename", "log.pcap", "pcap name; files are NAME.<seconds>"),
    SIZE("outputs.pcap-log.limit", "1000mb", "size of a pcap file before the next starts"),
    ENUM("outputs.pcap-log.conditional", "all", "all|alerts|tag",
         "which packets: all, those an alert was raised on, those a tag: rule tagged"),
    BOOL("outputs.file-store.enabled", "no",
         "store the files filestore rules ask for (Suricata 8's file-store, version 2)"),
    INT("outputs.file-store.version", "2", 2, 2, "Suricata's file-store version (2 only)"),
    STR("outputs.file-store.dir", "filestore", "where files go: DIR/XX/SHA256 (relative: under the log dir)"),
    BOOL("outputs.file-store.write-fileinfo", "no", "a SHA256.<seconds>.<file_id>.json fileinfo record beside each file"),
    BOOL("outputs.file-store.force-filestore", "no", "store every file, not only those rules ask for"),
    STR("geoip-database", "", "MaxMind .mmdb: alerts get src_geoip/dest_geoip, geoip: rules work"),

    /* datasets: the sets of dataset/datarep rules (rules/compile/dataset.c) */
    BOOL("datasets.enabled", "yes", "compile dataset/datarep rules (no: they are left out)"),
    SIZE("datasets.defaults.memcap", "16mb", "memory of a set whose rule gives no memcap"),
    INT("datasets.defaults.hashsize", "4096", 1, 16777216,
        "hash buckets of a set whose rule gives no hashsize"),

    /* security.lua: Suricata 8's Lua sandbox for lua: rules and luaxform (rules/lua/) */
    BOOL("security.lua.allow-rules", "no",
         "load rules with lua:/luajit:/luaxform (no: they are refused with an error)"),
    INT("security.lua.max-bytes", "500000", 0, INT64_MAX,
        "memory of one script's Lua state in bytes (0: no limit); over it a run fails"),
    INT("security.lua.max-instructions", "500000", 0, INT64_MAX,
        "Lua instructions per call of a script (0: no limit); over it the run stops"),

    /* rules (rules/): which rule files to load and the tables they refer to. Relative file
     * names in rule-files are under default-rule-path; a relative path written in a config
     * file is relative to that file's directory, a default one to the program's shipped
     * configuration (osprey_config_home), a --set one to the working directory
     * (osprey_config_path). */
    STR("default-rule-path", "/var/lib/osprey/rules", "directory of the files in rule-files"),
    LIST("rule-files", "[]", "rule files to load (osprey -S FILE replaces the list)"),
    STR("classification-file", "classification.config", "classtypes and their priorities"),
    STR("reference-config-file", "reference.config", "reference systems and their URLs"),
    STR("threshold-file", "threshold.config", "thresholds, suppressions, rate filters"),
    ENUM("pcap-file.checksum-checks", "auto", "auto|yes|no",
         "verify checksums of packets read from a file (auto: off if most are bad)"),
    BOOL("pcap-file.continuous", "no",
         "-r DIR: keep watching the directory for new captures until SIGTERM/SIGINT"),
    BOOL("pcap-file.read-ahead", "yes",
         "read a capture file on a thread of its own, ahead of the packets being processed "
         "(--runmode single; workers have a reader thread already)"),
    ENUM("pcap-file.delete-when-done", "no", "no|yes|non-alerts|true|false|on|off|1|0",
         "-r: delete each capture file once it is read (non-alerts: only if the run raised "
         "no alert)"),

    /* host-os-policy: which overlap policy each host's OS implies (defrag, TCP). */
    ENUM("host-os-policy.default", "bsd", "first|last|bsd|linux|windows|solaris",
         "policy for hosts no list below names"),
    MAP("host-os-policy.*", CT_LIST, OS_POLICY_NAMES, "addresses/CIDRs of hosts with this OS"),

    SIZE("defrag.memcap", "32mb", "memory for IP fragments being reassembled"),
    SECS("defrag.timeout", "60", "a datagram still incomplete after this is dropped"),
    /* Suricata's max-frags (65535) bounds all fragments held; ours one datagram's: 8192 lets a
     * 64 KiB+ datagram of small fragments through (1024 fragments of 85 bytes, bug 6942) */
    INT("defrag.max-frags", "8192", 1, COUNT_MAX, "most fragments kept per datagram"),
    INT("defrag.trackers", "65535", 1, COUNT_MAX, "most datagrams reassembled at once"),

    SIZE("flow.memcap", "128mb", "memory for the flow table"),
    INT("flow.hash-size", "65536", 1, COUNT_MAX, "least slots in the flow hash (one and a half per record the memcap allows at least)"),
    INT("flow.prealloc", "10000", 0, COUNT_MAX, "flows allocated at start"),
    INT("flow.hash-seed", "0", 0, UINT32_MAX, "flow hash key; 0 = random at start"),
    ENUM("flow.recyclers", "auto", "auto|0|1",
         "1: flow records are written by a thread of their own (Suricata's flow recycler), 0: "
         "by the worker that ends the flow; auto: 1 when the workers leave a CPU free"),

    /* app-layer: the parsers (parsers/, engine/stack_config/parsers_config.c). Every
     * registered protocol has Suricata's `enabled` switch (read by the parsers' registry name;
     * a protocol added to parsers/ adds its row here, test_config.py checks) */
    APP_ENABLED("dcerpc"),
    APP_ENABLED("dns"),
    STR("app-layer.protocols.dns.detection-ports.dp", "",
        "server ports (\"1053\", \"53, 5300:5310\") whose flows DNS's probes take as port "
        "53's, over TCP and UDP"),
    STR("app-layer.protocols.dns.tcp.detection-ports.dp", "",
        "the same over TCP only (overrides detection-ports.dp there)"),
    STR("app-layer.protocols.dns.udp.detection-ports.dp", "",
        "the same over UDP only (overrides detection-ports.dp there)"),
    APP_ENABLED("ftp"),
    APP_ENABLED("ftp-data"),
    INT("app-layer.protocols.ftp.max-tx", "256", 1, 256, "FTP commands waiting for their replies; past it: ftp.too_many_transactions, the client's side no longer parsed"),
    SIZE("app-layer.files.memcap", "64mb",
         "bytes of files kept per worker for file-store; past it a file's bytes are shed (counted)"),
    SIZE("app-layer.protocols.ftp.max-line-length", "4kb", "bytes of an FTP command or reply line kept (the rest cut and flagged)"),
    APP_ENABLED("http"),
    SIZE("app-layer.protocols.http.header-limit", "32kb", "bytes of an HTTP start line + headers kept"),
    SIZE("app-layer.protocols.http.request-body-limit", "100kb", "request body bytes rules inspect (decoded); 0 = unlimited"),
    SIZE("app-layer.protocols.http.response-body-limit", "100kb", "response body bytes rules inspect (decoded); 0 = unlimited"),
    SIZE("app-layer.protocols.http.body-file-limit", "1mb", "body bytes kept for its file past the inspection limits; 0 = unlimited"),
    SIZE("app-layer.protocols.http.libhtp.default-config.request-body-limit", "100kb",
         "Suricata's name of request-body-limit: when set, it wins"),
    SIZE("app-layer.protocols.http.libhtp.default-config.response-body-limit", "100kb",
         "Suricata's name of response-body-limit: when set, it wins"),
    BOOL("app-layer.protocols.http.decompress", "yes", "gunzip/inflate response bodies"),
    INT("app-layer.protocols.http.libhtp.default-config.response-body-decompress-layer-limit",
        "2", 1, 8, "Content-Encoding layers undone (a single named coding is always undone)"),
    BOOL("app-layer.protocols.http.libhtp.default-config.lzma-enabled", "no",
         "undo Content-Encoding: lzma (liblzma)"),
    SIZE("app-layer.protocols.http.libhtp.default-config.lzma-memlimit", "1mb",
         "memory one lzma layer may use"),
    APP_ENABLED("sip"),
    APP_ENABLED("mqtt"),
    APP_ENABLED("krb5"),
    APP_ENABLED("ldap"),
    INT("app-layer.protocols.ldap.max-tx", "256", 1, UINT32_MAX,
        "LDAP requests waiting for their responses; past it the oldest is finished with ldap.too_many_transactions"),
    APP_ENABLED("snmp"),
    APP_ENABLED("dhcp"),
    APP_ENABLED("ntp"),
    APP_ENABLED("ike"),
    /* recognition-only services (parsers/services/): detected, never parsed */
    APP_ENABLED("irc"),
    APP_ENABLED("netbios-ns"),
    APP_ENABLED("netbios-dgm"),
    APP_ENABLED("wins"),
    APP_ENABLED("ssdp"),
    APP_ENABLED("mysql"),
    APP_ENABLED("nntp"),
    APP_ENABLED("nfs"),
    APP_ENABLED("sunrpc"),
    APP_ENABLED("tftp"),
    APP_ENABLED("tftp-data"),
    APP_ENABLED("http2"),
    /* doh2: what an HTTP/2 flow carrying DNS is called (parsers/http2/doh2.c); no: it stays
     * http2 (its app_proto, app-layer-protocol) */
    APP_ENABLED("doh2"),
    INT("app-layer.protocols.http2.max-streams", "4096", 1, UINT32_MAX,
        "live HTTP/2 streams per flow; past it a new one is shed (http2.too_many_streams)"),
    BOOL("app-layer.protocols.http2.http1-rules", "no",
         "accepted for Suricata's configurations: http.* rules always run on HTTP/2 here"),
    SIZE("app-layer.protocols.mqtt.max-msg-length", "1mb",
         "MQTT packet bytes read; a longer packet keeps its fixed header only (truncated)"),
    INT("app-layer.protocols.mqtt.max-tx", "4096", 1, UINT32_MAX,
        "MQTT transactions waiting for an answer; past it the oldest is finished"),
    APP_ENABLED("pgsql"),
    INT("app-layer.protocols.pgsql.max-tx", "1024", 1, UINT32_MAX,
        "PostgreSQL transactions open per flow; past it the oldest is finished "
        "(pgsql.too_many_transactions)"),
    SIZE("app-layer.protocols.pgsql.stream-depth", "0",
         "PostgreSQL bytes parsed per direction (0: all, Suricata's default)"),
    APP_ENABLED("mdns"),
    APP_ENABLED("bittorrent-dht"),
    APP_ENABLED("websocket"),
    SIZE("app-layer.protocols.websocket.max-payload-size", "65535",
         "WebSocket payload bytes kept per frame and per reassembled message (websocket.payload, "
         "EVE); past it: shed, websocket.skip_end_of_payload / reassembly_limit_reached"),
    APP_ENABLED("telnet"),
    APP_ENABLED("rfb"),
    APP_ENABLED("rdp"),
    APP_ENABLED("pop3"),
    SIZE("app-layer.protocols.pop3.attachment-limit", "1mb", "decoded bytes of an attachment of a message POP3 retrieves kept for file.data (the rest counted)"),
    APP_ENABLED("imap"),
    SIZE("app-layer.protocols.imap.attachment-limit", "1mb", "decoded bytes of an attachment of a message IMAP fetches or appends kept for file.data (the rest counted)"),
    APP_ENABLED("quic"),
    /* Suricata leaves its SCADA parsers off unless asked (suricata.yaml: enabled: no) */
    APP_DISABLED("modbus"),
    INT("app-layer.protocols.modbus.request-flood", "500", 0, COUNT_MAX,
        "Modbus requests without their responses that are a flood (modbus.flooded); 0: no limit"),
    APP_DISABLED("dnp3"),
    APP_DISABLED("enip"),
    APP_ENABLED("smb"),
    APP_ENABLED("smtp"),
    SIZE("app-layer.protocols.smtp.attachment-limit", "1mb", "decoded bytes of an SMTP attachment kept for file.data (the rest counted)"),
    APP_ENABLED("ssh"),
    BOOL("app-layer.protocols.ssh.hassh", "no",
         "compute each side's HASSH (its KEXINIT's algorithms, MD5) for EVE; a rule on "
         "ssh.hassh* turns it on for its flows anyway"),
    APP_ENABLED("tls"),
    ENUM("app-layer.protocols.tls.encryption-handling", "default", "default|bypass|full",
         "once encrypted application data flows: default — the TLS records are still read, "
         "content rules no longer inspect the payload; bypass — neither; full — content rules "
         "inspect the encrypted payload too"),

    /* stream: TCP tracking and reassembly (libmon's TCP layer) */
    SIZE("stream.reassembly.memcap", "256mb", "memory for all reassembly buffers of a worker"),
    ENUM("stream.reassembly.memcap-policy", "auto", EXCEPTION_POLICIES,
         "a side's buffer cannot be had for the memcap (auto: drop-flow in IPS, ignore in IDS)"),
    SIZE("stream.reassembly.depth", "1mb", "bytes of each stream inspected; 0 = unlimited"),
    SIZE("stream.reassembly.buffer-size", "64kb", "reassembly buffer per side; 0 = no reassembly"),
    SIZE("stream.reassembly.toserver-chunk-size", "2560",
         "IDS stream model (stream.inline: no/auto): acknowledged client bytes inspected at once"),
    SIZE("stream.reassembly.toclient-chunk-size", "2560",
         "IDS stream model (stream.inline: no/auto): acknowledged server bytes inspected at once"),
    INT("stream.reassembly.max-fragments", "1024", 1, COUNT_MAX,
        "out-of-order runs held per side before a gap is declared"),
    ENUM("stream.reassembly.urgent.policy", "inline", URGENT_POLICIES,
         "the last urgent byte: inline (in the stream), oob (taken out), gap (a hole)"),
    BOOL("stream.midstream", "false", "pick up TCP sessions whose handshake was not seen"),
    BOOL("stream.async-oneside", "false", "accept TCP sessions seen in one direction only"),
    ENUM("stream.midstream-policy", "auto", EXCEPTION_POLICIES,
         "a session whose handshake was not seen: see etc/osprey.yaml"),
    /* Suricata's default is yes; ours is no: Suricata still matches content rules on such a
     * packet's own payload, Osprey's TCP content rules see the stream only (etc/osprey.yaml) */
    BOOL("stream.checksum-validation", "no",
         "a TCP packet with a bad checksum (when checksums are checked) updates no session"),
    ENUM("stream.inline", "auto", BOOL_OR_AUTO,
         "inline stream mode (auto: in the inline modes and --simulate-ips)"),
    INT("stream.one-sided-packets", "10", 1, COUNT_MAX,
        "packets one way with none back before a flow is reported one-sided"),

    SECS("flow-timeouts.default.new", "30", "other protocols: idle timeout before a reply"),
    SECS("flow-timeouts.default.established", "300", "other protocols: idle timeout after"),
    SECS("flow-timeouts.default.closed", "0", "other protocols: timeout once closed"),
    SECS("flow-timeouts.tcp.new", "60", "TCP: idle timeout during the handshake"),
    SECS("flow-timeouts.tcp.established", "600", "TCP: idle timeout once established"),
    SECS("flow-timeouts.tcp.closed", "60", "TCP: timeout after FIN/RST"),
    SECS("flow-timeouts.udp.new", "30", "UDP: idle timeout before a reply"),
    SECS("flow-timeouts.udp.established", "300", "UDP: idle timeout after a reply"),
    SECS("flow-timeouts.icmp.new", "30", "ICMP: idle timeout before a reply"),
    SECS("flow-timeouts.icmp.established", "300", "ICMP: idle timeout after a reply"),

    /* decoder: tunnels decoded when their UDP port matches. */
    BOOL("decoder.teredo.enabled", "yes", "decode Teredo (IPv6 in UDP)"),
    STR("decoder.teredo.ports", "3544", "UDP ports carrying Teredo"),
    BOOL("decoder.vxlan.enabled", "yes", "decode VXLAN"),
    STR("decoder.vxlan.ports", "4789", "UDP ports carrying VXLAN"),
    BOOL("decoder.geneve.enabled", "yes", "decode Geneve"),
    STR("decoder.geneve.ports", "6081", "UDP ports carrying Geneve"),
    BOOL("decoder.gtpu.enabled", "yes", "decode GTP-U"),
    STR("decoder.gtpu.ports", "2152", "UDP ports carrying GTP-U"),
    BOOL("decoder.gre-udp.enabled", "yes", "decode GRE in UDP (RFC 8086)"),
    STR("decoder.gre-udp.ports", "4754", "UDP ports carrying GRE"),
    BOOL("decoder.mpls-udp.enabled", "yes", "decode MPLS in UDP (RFC 7510)"),
    STR("decoder.mpls-udp.ports", "6635", "UDP ports carrying MPLS"),
    INT("decoder.max-layers", "8", 1, 8, "most encapsulations (tunnels, tag stacks) decoded in one packet"),

    /* exception policies: the master switch; a specific key that is set wins */
    ENUM("exception-policy", "auto", EXCEPTION_POLICIES,
         "every exception policy not set on its own (auto: drop-flow in IPS, ignore in IDS)"),

    /* detect: how rules are matched (rules/compile/) */
    ENUM("detect.stream-mpm", "stream", "block|stream",
         "fast patterns on TCP streams: block scans of new bytes, or a Hyperscan stream per side"),
    INT("pcre.match-limit", "3500", 0, UINT32_MAX,
        "backtracking steps a pcre search may take before it counts as no match (0: PCRE2's)"),
    INT("pcre.match-limit-recursion", "1500", 0, UINT32_MAX,
        "nesting depth a pcre search may reach (0: PCRE2's; the JIT has none)"),
    BOOL("profiling.rules.enabled", "no",
         "time each rule's options and print the top rules at exit (any build; a little slower)"),
    INT("profiling.rules.limit", "10", 0, INT32_MAX, "rules listed (0: all evaluated)"),
    STR("profiling.rules.filename", "rule_perf.log",
        "the top rules as JSON, in the log directory (empty: none)"),
    BOOL("detect.sgh-mpm-caching", "yes",
         "keep compiled fast-pattern databases on disk and read them back at the next start"),
    STR("detect.sgh-mpm-caching-path", "/var/lib/osprey/cache/hs",
        "where detect.sgh-mpm-caching keeps them (created if missing)"),
    SECS("detect.sgh-mpm-caching-max-age", "7d",
         "cached databases no start has used for this long are removed (0: kept)"),
    /* Suricata's prefilter engine choice and its guess of the transaction an alert belongs
     * to: how it finds matches and what it logs beside them, never which rules match */
    ENUM("detect.prefilter.default", "mpm", "mpm|auto", "accepted for suricata.yaml; no effect"),
    BOOL("detect.guess-applayer-tx", "no", "accepted for suricata.yaml; no effect"),
    /* Suricata 8's firewall mode: the default policy of a table where no firewall rule
     * matched (docs/rules.md "Firewall mode"); each is a list of one verdict, as
     * suricata.yaml writes it: filter: ["accept:hook"] */
    MAP("firewall.policies.packet.*", CT_LIST, "pre-flow|pre-stream|filter|pre_flow|pre_stream",
        "default policy of a packet table (drop:packet, accept:hook …; default drop:packet)"),
    MAP("firewall.policies.app.http1.*", CT_LIST, NULL,
        "default policy of an HTTP/1 state (request-line …; default accept:hook for "
        "request-started / response-started, drop:flow for the others)"),
    MAP("firewall.policies.app.tls.*", CT_LIST, NULL,
        "default policy of a TLS state (client-hello-done …; default accept:hook for "
        "client-in-progress / server-in-progress, drop:flow for the others)"),

    /* daemon life (engine/service/: daemon.c, log.c, control.c) */
    STR("pid-file", "", "write the process id here; refuse to start if it names a running one"),
    ENUM("logging.default-log-level", "notice", "error|warning|notice|info|debug",
         "Osprey's own messages at this level and more severe"),
    BOOL("logging.outputs.console.enabled", "yes", "messages on stderr (off once -D detaches)"),
    BOOL("logging.outputs.file.enabled", "no", "messages in a file (reopened on SIGHUP)"),
    STR("logging.outputs.file.filename", "osprey.log", "the file; relative to the log directory"),
    BOOL("logging.outputs.syslog.enabled", "no", "messages to syslog"),
    STR("logging.outputs.syslog.facility", "local5", "daemon, user or local0..local7"),
    BOOL("unix-command.enabled", "no", "the Unix control socket (osprey-ctl, JSON or plain lines)"),
    STR("unix-command.filename", "/var/run/osprey/osprey-command.socket", "its path"),

    INT("threading.workers", "0", 0, 1024, "worker threads of --runmode workers; 0 = one per CPU"),
    SIZE("threading.ring-size", "0",
         "frame bytes queued for each worker of an offline --runmode workers run (its memcap); "
         "0 = 64mb shared out, 4mb to 16mb each; at least 1mb"),

    /* af-packet / live / inline: osprey -i, --pcap-live, --af-packet-inline (run_live.c) */
    INT("af-packet.threads", "0", 0, 1024, "live workers (one socket per interface each); 0 = threading.workers"),
    INT("af-packet.cluster-id", "99", 1, 65534, "fanout group id of the first interface (next ones: +1 each)"),
    BOOL("af-packet.defrag", "yes", "the kernel sends all fragments of a datagram to one worker"),
    BOOL("af-packet.promisc", "yes", "put the interfaces in promiscuous mode"),
    SIZE("af-packet.block-size", "1mb", "ring block bytes (power of two, multiple of the page size)"),
    INT("af-packet.blocks", "16", 2, 65536, "blocks in each socket's ring"),
    INT("af-packet.block-timeout", "10", 1, 10000, "ms before a partly filled block is handed over"),
    BOOL("af-packet.offload-metadata", "yes", "inline: forward each frame with the offload work its sender left (partial checksum, TSO); ring slots then hold 64 KiB frames (no: MTU-sized slots, the senders' offloads must be off)"),
    SIZE("pcap.buffer-size", "32mb", "libpcap live capture (--pcap-live): kernel buffer per interface"),
    INT("pcap.snaplen", "65535", 64, 262144, "libpcap live capture: bytes kept of each frame"),
    ENUM("live-capture", "af-packet", "af-packet|libpcap", "how -i captures (--pcap-live = libpcap)"),
    ENUM("inline.fail-mode", "closed", "closed|open", "overloaded/stopping: drop uninspected (closed) or forward"),
    INT("inline.max-delay", "0", 0, 60000, "ms a frame may wait in the ring before fail-mode applies; 0 = never"),

    /* dpdk: osprey --dpdk (engine/run/run_dpdk.c) */
    LIST("dpdk.eal-args", "[]", "DPDK EAL arguments (cores, memory, devices, --file-prefix)"),
    LIST("dpdk.interfaces", "[]", "ports: A:B pairs bridged both ways; single ports too with copy-mode none"),
    ENUM("dpdk.copy-mode", "ips", "ips|tap|none", "ips enforces drops; tap forwards all; none = IDS"),
    INT("dpdk.threads", "0", 0, 128, "workers, one lcore and one queue per port each; 0 = all lcores"),
    INT("dpdk.mempool-size", "16383", 1023, INT32_MAX, "mbufs in the packet pool"),
    INT("dpdk.mempool-cache-size", "256", 0, 512, "mbufs cached per lcore"),
    INT("dpdk.rx-descriptors", "1024", 0, 32768, "RX ring size per queue (0 = driver's choice)"),
    INT("dpdk.tx-descriptors", "1024", 0, 32768, "TX ring size per queue (0 = driver's choice)"),
    BOOL("dpdk.promisc", "yes", "put the ports in promiscuous mode"),
};

const struct cfg_key *cfg_schema(size_t *count)
{
    *count = sizeof SCHEMA / sizeof SCHEMA[0];
    return SCHEMA;
}
