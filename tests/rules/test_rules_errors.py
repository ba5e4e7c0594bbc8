"""Every reason a rule can be rejected for, with the exact message `osprey -T` prints.

A case is an option fragment put in `alert tcp any any -> any any (msg:"t"; FRAGMENT sid:9;)`
or, when it starts with a header word, a whole rule. The expected text is the reason after
"t.rules:1: sid N: ", without its "(col N)" position (test_positions checks those)."""
import re

import pytest

from rules_helpers import check_text, reason

WRAP = 'alert tcp any any -> any any (msg:"t"; {} sid:9;)'
HEADER_WORDS = ("alert ", "drop ", "pass ", "file_id", "bogus ", "log ", "reject", "(",
                "alert\t")

CASES = [
    # --- header -----------------------------------------------------------------------------
    ("bogus tcp any any -> any any (sid:1;)", "header: unknown action 'bogus'"),
    ("alert tcpx any any -> any any (sid:1;)", "header: unknown protocol 'tcpx'"),
    ("alert tcp any any -> any (sid:1;)",
     "header: 6 fields; expected 'action protocol source port direction destination port' "
     "(7) or Snort 3's 'action service' (2)"),
    ("alert tcp any any <- any any (sid:1;)", "header: direction must be '->', '<>' or '=>', got '<-'"),
    ("alert tcp any any -> any any any any (sid:1;)",
     "header: too many fields before '(' (expected action, protocol, source, source port, "
     "direction, destination, destination port)"),
    ("alert tcp [1.1.1.1 any -> any any (sid:1;)", "header: '[' without ']'"),
    ("alert tcp any any -> any any sid:1;", "header: missing '(' before the options"),
    ("alert (sid:1;)", "header: missing protocol"),
    ("(sid:1;)", "header: missing action"),
    ("file_id tcp (sid:1;)", "header: file_id rules take no header fields"),
    ("alert tcp any any -> any any (sid:1;", "options: the rule must end with ')'"),
    ("alert tcp any any -> any any (sid:1;) x", "options: the rule must end with ')'"),
    # --- addresses and ports ---------------------------------------------------------------
    ("alert tcp 1.2.3.256 any -> any any (sid:1;)", "invalid address '1.2.3.256'"),
    ("alert tcp 1.2.3.4/33 any -> any any (sid:1;)", "invalid prefix length '/33' (0..32)"),
    ("alert tcp ::1/129 any -> any any (sid:1;)", "invalid prefix length '/129' (0..128)"),
    ("alert tcp 1.2.3.0/255.0.255.0 any -> any any (sid:1;)",
     "netmask '255.0.255.0' is not contiguous"),
    ("alert tcp 1.2.3.0/255.255.255.x any -> any any (sid:1;)",
     "invalid netmask '255.255.255.x'"),
    ("alert tcp 1.1.1.9-1.1.1.1 any -> any any (sid:1;)",
     "address range '1.1.1.9-1.1.1.1' is empty or mixes IPv4 and IPv6"),
    ("alert tcp 1.1.1.1-x any -> any any (sid:1;)", "invalid address range '1.1.1.1-x'"),
    ("alert tcp [] any -> any any (sid:1;)", "empty list"),
    ("alert tcp [1.1.1.1,] any -> any any (sid:1;)", "missing address before ']'"),
    ("alert tcp !!1.1.1.1 any -> any any (sid:1;)", "double negation"),
    ("alert tcp !any any -> any any (sid:1;)", "address '!any' matches nothing"),
    ("alert tcp [10.0.0.0/8,!10.0.0.0/7] any -> any any (sid:1;)",
     "address '[10.0.0.0/8,!10.0.0.0/7]' matches nothing"),
    ("alert tcp $NOPE any -> any any (sid:1;)", "unknown variable $NOPE"),
    ("alert tcp $HTTP_PORTS any -> any any (sid:1;)",
     "$HTTP_PORTS is a port variable, used as address"),
    ("alert tcp $ any -> any any (sid:1;)", "'$' without a name"),
    ("alert tcp $HOME-NET any -> any any (sid:1;)",
     "invalid character '-' in variable name"),
    ("alert tcp any 65536 -> any any (sid:1;)", "invalid port '65536' (ports are 0..65535)"),
    ("alert tcp any 90:80 -> any any (sid:1;)", "port range '90:80' is reversed"),
    ("alert tcp any : -> any any (sid:1;)", "invalid port range ':' (ports are 0..65535)"),
    ("alert tcp any [80 443] -> any any (sid:1;)", "expected ',' or ']' in list"),
    ("alert tcp any !any -> any any (sid:1;)", "port '!any' matches nothing"),
    ("alert tcp any $HOME_NET -> any any (sid:1;)",
     "$HOME_NET is an address variable, used as port"),
    # --- option list ---------------------------------------------------------------------
    ('alert tcp any any -> any any (msg:"t";; sid:1;)', "options: empty option (';;')"),
    ('alert tcp any any -> any any (msg:"t"; :x; sid:1;)',
     "options: expected a keyword, got ':'"),
    ('alert tcp any any -> any any (msg "t"; sid:1;)',
     "options: expected ':' or ';' after 'msg'"),
    ('alert tcp any any -> any any (msg:; sid:1;)', "options: missing value after 'msg:'"),
    ("foo:bar;", "unknown option 'foo'"),
    ("nocase:1;", "nocase: takes no argument"),
    ("depth;", "depth: needs an argument ('depth:VALUE;')"),
    ('alert tcp any any -> any any (msg:"t";)', "the rule has no sid"),
    ("sid:2;", "sid: given twice"),
    ("gid:1; gid:2;", "gid: given twice"),
    ("rev:1; rev:2;", "rev: given twice"),
    ('msg:"again";', "msg: given twice"),
    # --- msg, sid, classtype, priority, reference, metadata, target ------------------------
    ('alert tcp any any -> any any (msg:"t" x; sid:1;)',
     "msg: unexpected text after the closing quote"),
    ('alert tcp any any -> any any (msg:"t; sid:1;)', "msg: missing closing quote"),
    ('alert tcp any any -> any any (msg:"t"; sid:0;)', "sid: sid 0 out of range 1..4294967295"),
    ('alert tcp any any -> any any (msg:"t"; sid:x;)', "sid: sid: expected a number, got 'x'"),
    ('alert tcp any any -> any any (msg:"t"; sid:4294967296;)',
     "sid: sid 4294967296 out of range 1..4294967295"),
    ("classtype:no such;", "classtype: invalid classtype name 'no such'"),
    ("classtype:not-a-class;", "unknown classtype 'not-a-class' (not in the classification file)"),
    ("classtype:misc-activity; classtype:misc-attack;", "classtype: given twice"),
    ("priority:0;", "priority: priority 0 out of range 1..255"),
    ("priority:1; priority:2;", "priority: given twice"),
    ("reference:cve;", "reference: expected 'SYSTEM,ID'"),
    ("reference:,1;", "reference: missing reference system"),
    ("reference:cve,;", "reference: missing reference id"),
    ("reference:c v e,1;", "reference: invalid reference system 'c v e'"),
    ("reference:nosuch,1;", "unknown reference system 'nosuch' (not in the reference file)"),
    ("metadata:a b,,c d;", "metadata: empty entry"),
    ("metadata:a=b c;", "metadata: invalid key 'a=b'"),
    ("target:both;", "target: unknown target 'both' (expected one of: src_ip, dest_ip)"),
    ("target:src_ip; target:dest_ip;", "target: contradicts the earlier target"),
    # --- content ---------------------------------------------------------------------------
    ("content:abc;", "content: the pattern must be in double quotes"),
    ('content:"";', "content: empty string"),
    ('content:"abc;', "content: missing closing quote"),
    ('content:"a|4|";', "content: odd number of hex digits in |...|"),
    ('content:"a|41 4g|";', "content: invalid character 'g' in |hex|"),
    ('content:"a|41";', "content: unterminated |hex| sequence"),
    ('content:"a\\x";', "content: invalid escape '\\x' (only \\\" \\\\ \\; \\: \\| are)"),
    ('content:"a" b;', "content: unexpected text after the pattern"),
    ('uricontent:"a",nocase;', "uricontent: uricontent takes no Snort 3 arguments"),
    ('content:"a",;', "content: empty argument after ','"),
    ('content:"a",nocase 1;', "content: nocase takes no value"),
    ('content:"a",depth;', "content: depth needs a value"),
    ('content:"a",nocase,nocase;', "content: nocase given twice"),
    ('content:"a",bogus;', "content: unknown content argument 'bogus'"),
    ('content:"a",fast_pattern_offset 1,fast_pattern_length 9;',
     "content: fast_pattern slice 1,9 goes past the content (1 bytes)"),
    ("nocase;", "nocase: needs a content before it"),
    ('content:"a"; nocase; nocase;', "nocase: given twice for the same content"),
    ('content:"a"; rawbytes; rawbytes;', "rawbytes: given twice for the same content"),
    ('content:"a"; depth:1; depth:2;', "depth: depth given twice for the same content"),
    ('content:"abc"; depth:2;', "depth: depth 2 is less than the content length 3"),
    ('content:"abc"; depth:0;', "depth: depth 0 out of range 1..65535"),
    ('content:"abc"; offset:-1;', "offset: offset -1 out of range 0..65535"),
    ('content:"abc"; distance:70000;', "distance: distance 70000 out of range -65535..65535"),
    ('content:"abc"; within:2;', "within: within 2 is less than the content length 3"),
    ('content:"abc"; depth:x;',
     "depth: depth: 'x' is neither a number nor a byte_extract/byte_math variable defined "
     "before"),
    ('content:"abc"; depth:1x;', "depth: depth: expected a number, got '1x'"),
    ('content:"a"; distance:0; depth:4;',
     "depth: depth cannot be combined with distance/within on the same content"),
    ('content:"a"; offset:0; within:4;',
     "within: within cannot be combined with depth/offset on the same content"),
    ('content:"a"; startswith; offset:1;', "offset: offset cannot be combined with startswith"),
    ('content:"a"; depth:3; startswith;',
     "startswith: cannot be combined with depth, offset, distance or within"),
    ('content:"a"; fast_pattern:only; depth:3;',
     "depth: depth cannot be combined with fast_pattern:only"),
    ('content:"a"; depth:3; fast_pattern:only;',
     "fast_pattern: fast_pattern:only cannot be combined with depth, offset, distance or "
     "within"),
    ('content:!"a"; fast_pattern:only;',
     "fast_pattern: fast_pattern:only cannot be used on a negated content"),
    ('content:"a"; fast_pattern; fast_pattern;', "fast_pattern: given twice for the same content"),
    ('content:"a"; fast_pattern; content:"b"; fast_pattern;',
     "fast_pattern: only one content of a rule can be the fast pattern"),
    ('content:"a"; fast_pattern:sometimes;',
     "fast_pattern: expected 'only' or 'OFFSET,LENGTH', got 'sometimes'"),
    ('content:"abc"; fast_pattern:2,2;',
     "fast_pattern: fast_pattern slice 2,2 goes past the content (3 bytes)"),
    ('content:!"a"; replace:"b";', "replace: cannot replace a negated content"),
    ('content:"ab"; replace:"b";',
     "replace: the replacement (1 bytes) must be as long as the content (2 bytes)"),
    # --- classic modifiers and sticky buffers -------------------------------------------
    ('content:"a"; http_uri; http_uri;',
     "http_uri: the content before it is already in http.uri"),
    ('alert tcp any any -> any any (msg:"t"; content:"a"; http_uri; http_header; sid:9;)',
     "http_header: the content before it is already in http.uri"),
    ('file_data; content:"a"; http_uri; bsize:1;',
     "http_uri: the content before it is in sticky buffer file.data"),
    ('content:"a"; http_uri:path;',
     "http_uri: takes no argument (selectors are Snort 3 syntax)"),
    ('content:"a"; file_data;', "file_data: sticky buffer selected but nothing inspects it"),
    ('http.uri; http.header; content:"a";',
     "http.uri: sticky buffer selected but nothing inspects it"),
    ('to_lowercase; content:"a";', "to_lowercase: a transform needs a sticky buffer before it"),
    ('http.uri; content:"a"; to_lowercase;',
     "http.uri: a transform after its matches, and nothing inspects its result"),
    ('http.uri; xor:"0";', "xor: the key must be an even number of hex digits"),
    ('http.uri; xor:"zz";', "xor: the key must be hex digits"),
    ('http.uri; xor:!"00"; content:"a";', "xor: cannot be negated"),
    ('http.uri; pcrexform:"abc"; content:"a";', "pcrexform: the regex needs a capture group"),
    ('http.uri; pcrexform:"(a"; content:"a";',
     "pcrexform: missing closing parenthesis at offset 2 of the regex"),
    ('http.uri; from_base64:bytes 4, mode weird; content:"a";',
     "from_base64: unknown mode 'weird' (expected one of: rfc4648, rfc2045, strict)"),
    ('http.uri; from_base64:size 4; content:"a";',
     "from_base64: unknown argument 'size' (bytes, offset, mode)"),
    ('http.request_body; zlib_deflate:size 5; content:"a";',
     "zlib_deflate: unknown argument 'size' (max-size)"),
    ('http.request_body; gunzip:max-size 0; content:"a";',
     "gunzip: max-size 0 out of range 1..16777216"),
    ('http.request_body; gunzip:max-size 5, max-size 6; content:"a";',
     "gunzip: 'max-size' given twice"),
    ('alert http any any -> any any (msg:"t"; http_header:field; content:"a"; service:http; '
     'sid:9;)', "http_header: field needs a header name"),
    ('alert http any any -> any any (msg:"t"; http_uri:bogus; content:"a"; service:http; '
     'sid:9;)',
     "http_uri: unknown URI part 'bogus' (expected one of: path, query, fragment, host, port, "
     "scheme, user_info)"),
    ('alert http any any -> any any (msg:"t"; http_cookie:field x; content:"a"; service:http; '
     'sid:9;)', "http_cookie: unknown selector 'field'"),
    ('alert http any any -> any any (msg:"t"; http_param:"id" x; service:http; sid:9;)',
     "http_param: expected ', nocase' after the parameter name"),
    # --- pcre --------------------------------------------------------------------------------
    ('pcre:a/;', 'pcre: the regex must be in double quotes: "/regex/flags"'),
    ('pcre:/Java/Vi";', 'pcre: the regex must be in double quotes: "/regex/flags"'),
    ('pcre:/a/q;', "pcre: unknown modifier 'q'"),
    ('pcre:"abc";', 'pcre: expected "/regex/flags" (or m<delimiter>...)'),
    ('pcre:"/abc";', "pcre: missing closing '/' after the regex"),
    ('pcre:"/a/q";', "pcre: unknown modifier 'q'"),
    ('pcre:"/a/ii";', "pcre: modifier 'i' given twice"),
    ('pcre:"/a/UH";', "pcre: two HTTP buffer modifiers"),
    ('http.header; pcre:"/a/U";', "pcre: HTTP buffer modifier 'U' used in sticky buffer http.header"),
    ('pcre:"/a(/";', "pcre: missing closing parenthesis at offset 2 of the regex"),
    ('pcre:"/a/" x;', "pcre: unexpected text after the regex"),
    ('pcre:"/a/;', "pcre: missing closing quote"),
    ('pcre:"/(a)/", flow;',
     "pcre: expected a capture 'flow:NAME', 'pkt:NAME' or 'alert:NAME', got 'flow'"),
    ('pcre:"/a/iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii";', "pcre: too many modifiers"),
    # --- flow, flowbits, xbits, flowint ---------------------------------------------------
    ("flow:to_server,sideways;", "flow: unknown flow option 'sideways'"),
    ("flow:to_server,,established;", "flow: empty item"),
    ("flow:established,established;", "flow: 'established' repeats a setting"),
    ("flow:to_server,to_client;", "flow: 'to_client' contradicts an earlier flow option"),
    ("flow:from_client,to_server;", "flow: 'to_server' repeats a setting"),
    ("flow:established,stateless;", "flow: 'stateless' contradicts an earlier flow option"),
    ("flowbits:toggle;", "flowbits: toggle needs a flowbit name"),
    ("flowbits:flip,a;",
     "flowbits: unknown flowbits operation 'flip' (expected one of: set, setx, unset, toggle, "
     "isset, isnotset, noalert, reset)"),
    ("flowbits:noalert,a;", "flowbits: noalert takes no name"),
    ("flowbits:set,a|b;", "flowbits: set cannot take alternatives ('|')"),
    ("flowbits:isset,a|b&c;", "flowbits: cannot mix '|' and '&'"),
    ("flowbits:isset,a||b;", "flowbits: missing name"),
    ("flowbits:isset,a b;", "flowbits: invalid name 'a b'"),
    ("flowbits:set,a,g h;", "flowbits: invalid group name 'g h'"),
    ("flowbits:set,a,b,c;", "flowbits: too many fields"),
    ("flowbits:reset,a b;", "flowbits: invalid group name"),
    ("xbits:set,a;", "xbits: expected 'OP,NAME,track ip_src|ip_dst|ip_pair[,expire N]'"),
    ("xbits:set,a|b,track ip_src;", "xbits: cannot combine names with '|' here"),
    ("xbits:set,a,track ip_any;",
     "xbits: unknown track 'ip_any' (expected one of: ip_src, ip_dst, ip_pair, tx)"),
    ("xbits:set,a,expire 5;", "xbits: missing 'track ip_src|ip_dst|ip_pair'"),
    ("xbits:set,a,track ip_src,ttl 5;", "xbits: unknown xbits field 'ttl'"),
    ("xbits:noalert,a;", "xbits: noalert takes nothing more"),
    ("flowint:cnt;", "flowint: expected 'NAME,OPERATOR[,VALUE]'"),
    ("flowint:c n t,+,1;", "flowint: invalid name 'c n t'"),
    ("flowint:cnt,+;", "flowint: '+' needs a value"),
    ("flowint:cnt,isset,1;", "flowint: 'isset' takes no value"),
    ("flowint:cnt,%,1;",
     "flowint: unknown operator '%' (expected one of: +, -, =, ==, !=, <, >, <=, >=, isset, "
     "notset, isnotset)"),
    ("flowint:cnt,+,1,2;", "flowint: too many fields"),
    ("flowint:cnt,+,o t h;", "flowint: invalid variable name"),
    # --- byte_* and isdataat -----------------------------------------------------------------
    ("byte_test:4,>,1;", "byte_test: expected 'BYTES,OPERATOR,VALUE,OFFSET[,...]'"),
    ("byte_test:4,~,1,0;",
     "byte_test: unknown operator '~' (expected one of: <, >, =, <=, >=, &, ^)"),
    ("byte_test:11,>,1,0;", "byte_test: 11 bytes: at most 10 for a binary number"),
    ("byte_test:24,>,1,0,string;", "byte_test: number of bytes 24 out of range 0..23"),
    ("byte_test:0,>,1,0;",
     "byte_test: 0 bytes: the count must be 1..10 (0 only for a string byte_test or a "
     "byte_jump)"),
    ("byte_test:4,>,1,0,,relative;", "byte_test: empty field"),
    ("byte_test:4,>,1,0,relative,relative;", "byte_test: 'relative' given twice"),
    ("byte_test:4,>,1,0,big,little;", "byte_test: big and little endian together"),
    ("byte_test:4,>,1,0,hex;", "byte_test: hex/dec/oct need 'string'"),
    ("byte_test:4,>,1,0,string,hex,dec;", "byte_test: number base given twice"),
    ("byte_test:4,>,1,0,string,dce;",
     "byte_test: dce takes its byte order from DCE/RPC: no endian or string with it"),
    ("byte_test:4,>,1,0,sideways;", "byte_test: unknown field 'sideways'"),
    ("byte_test:4,>,1,0,bitmask 0x1,bitmask 0x2;", "byte_test: bitmask given twice"),
    ("byte_test:4,>,1,0,relative 2;", "byte_test: unexpected '2' after 'relative'"),
    ("byte_test:4,>,nope,0;",
     "byte_test: value: 'nope' is neither a number nor a byte_extract/byte_math variable "
     "defined before"),
    ("byte_jump:4;", "byte_jump: expected 'BYTES,OFFSET[,...]'"),
    ("byte_jump:4,0,from_beginning,from_end;",
     "byte_jump: from_beginning and from_end together"),
    ("byte_jump:4,0,multiplier 0;", "byte_jump: multiplier 0 out of range 1..65535"),
    ("byte_extract:4,0;", "byte_extract: expected 'BYTES,OFFSET,NAME[,...]'"),
    ("byte_extract:4,0,1abc;", "byte_extract: invalid variable name '1abc'"),
    ("byte_extract:4,0,v,align 3;", "byte_extract: align must be 2 or 4"),
    ("byte_extract:4,0,v,endian big;", "byte_extract: unknown field 'endian'"),
    ("byte_math:bytes 2, offset 0, oper +, rvalue 1;",
     "byte_math: needs bytes, offset, oper, rvalue and result"),
    ("byte_math:bytes 2, bytes 2, offset 0, oper +, rvalue 1, result r;",
     "byte_math: 'bytes' given twice"),
    ("byte_math:bytes 2, offset 0, oper %, rvalue 1, result r;",
     "byte_math: unknown operator '%' (expected one of: +, -, *, /, <<, >>)"),
    ("byte_math:bytes 2, offset 0, oper +, rvalue 1, result 9r;",
     "byte_math: invalid result name '9r'"),
    ("byte_math:bytes, offset 0, oper +, rvalue 1, result r;",
     "byte_math: 'bytes' needs a value"),
    ("byte_math:bytes 2, offset 0, oper +, rvalue 1, result r, endian middle;",
     "byte_math: endian must be big, little or dce"),
    ("isdataat:10,sideways;", "isdataat: unexpected 'sideways' (relative, rawbytes)"),
    ("isdataat:x;",
     "isdataat: size: 'x' is neither a number nor a byte_extract/byte_math variable defined "
     "before"),
    (" ".join(f"byte_extract:1,0,v{i};" for i in range(33)),
     "byte_extract: more than 32 byte variables in one rule"),
    # --- numbers and comparisons -----------------------------------------------------------
    ("dsize:;", "options: missing value after 'dsize:'"),
    ("dsize:>x;", "dsize: value: expected a number, got 'x'"),
    ("dsize:>5y;", "dsize: unexpected 'y' in comparison"),
    ("dsize:70000;", "dsize: value 70000 out of range 0..65535"),
    ("dsize:<;", "dsize: missing value"),
    ("dsize:!10-20<>30;", "dsize: unexpected '-20<>30' in comparison"),
    ("dsize:20-10;", "dsize: range 20-10 is reversed"),
    ("dsize:10<>5;", "dsize: range 10<>5 is reversed"),
    ("dsize:5<>6;", "dsize: range 5<>6 matches nothing ('<>' excludes both ends)"),
    ("dsize:5<>x;", "dsize: range end: expected a number, got 'x'"),
    ("dsize:5<>7y;", "dsize: unexpected 'y' in range"),
    ("dsize:5-6;", "dsize: range 5-6 matches nothing ('-' excludes both ends)"),
    ("dsize:5 6;", "dsize: unexpected '6' in comparison"),
    ("itype:256;", "itype: value 256 out of range 0..255"),
    ("urilen:5,normal;", "urilen: unknown modifier 'normal' (expected one of: norm, raw)"),
    ("window:!x;", "window: window: expected a number, got 'x'"),
    ("stream_size:server,<;", "stream_size: expected 'server|client|both|either,OPERATOR,VALUE'"),
    ("stream_size:server,~,5;",
     "stream_size: unknown operator '~' (expected one of: =, !=, <, >, <=, >=)"),
    ("stream_size:>5,to_nowhere;",
     "stream_size: unknown direction 'to_nowhere' (expected one of: to_server, to_client, both, "
     "either)"),
    ("stream_size:>5,to_server,x;",
     "stream_size: expected 'COMPARISON[,to_server|to_client|both|either]'"),
    ("fragoffset:9000;", "fragoffset: value 9000 out of range 0..8191"),
    # --- IP and TCP bits ---------------------------------------------------------------------
    ("flags:SX;", "flags: unknown flag 'X' (expected FSRPAUCE12)"),
    ("flags:SS;", "flags: flag 'S' given twice"),
    ("flags:+;", "flags: no flags given"),
    ("flags:0S;", "flags: 0 (no flags) cannot be combined with other flags"),
    ("flags:!S+;", "flags: unexpected '+'"),
    ("flags:S,0;", "flags: unknown flag '0' (expected FSRPAUCE12)"),
    ("fragbits:MX;", "fragbits: unknown flag 'X' (expected MDR)"),
    ("fragbits:M+D;", "fragbits: unexpected 'D'"),
    ("ipopts:xx;",
     "ipopts: unknown IP option 'xx' (expected one of: rr, eol, nop, ts, sec, esec, lsrr, "
     "lsrre, ssrr, satid, any)"),
    ("ip_proto:300;", "ip_proto: protocol number 300 out of range 0..255"),
    ("ip_proto:tcpx;",
     "ip_proto: unknown protocol name 'tcpx' (expected one of: ip, icmp, igmp, ggp, ipip, "
     "tcp, egp, pup, udp, idp, ipv6, rsvp, gre, esp, ah, icmpv6, ipv6-icmp, pim, sctp, "
     "udplite)"),
    ("sameip:1;", "sameip: takes no argument"),
    # --- threshold, detection_filter -------------------------------------------------------
    ("threshold:type limit, track by_src, count 1;", "threshold: missing 'seconds'"),
    ("threshold:type limit, track by_src, count 1, seconds 1, count 2;",
     "threshold: 'count' given twice"),
    ("threshold:type sometimes, track by_src, count 1, seconds 1;",
     "threshold: unknown type 'sometimes' (expected one of: limit, threshold, both, backoff)"),
    ("threshold:type limit, track by_host, count 1, seconds 1;",
     "threshold: unknown track 'by_host' (expected one of: by_src, by_dst, by_rule, by_both, "
     "by_flow)"),
    ("threshold:type limit, track by_src, count 0, seconds 1;",
     "threshold: count 0 out of range 1..4294967295"),
    ("threshold:type limit, track by_src, count 1, seconds 1, often 2;",
     "threshold: unknown field 'often'"),
    ("threshold:type limit, track by_src, count 1, seconds 1, multiplier 2;",
     "threshold: multiplier is only for type backoff"),
    ("threshold:type backoff, track by_flow, count 1, seconds 1, multiplier 2;",
     "threshold: type backoff takes no seconds"),
    ("detection_filter:track by_src, count 1;", "detection_filter: missing 'seconds'"),
    ("detection_filter:type limit, track by_src, count 1, seconds 1;",
     "detection_filter: unknown field 'type'"),
    # --- events, TLS, files, DCE, SIP, misc -----------------------------------------------
    ("app-layer-event:http;", "app-layer-event: expected PROTOCOL.EVENT, got 'http'"),
    ("app-layer-event:http..x;", "app-layer-event: empty part in event name"),
    ("decode-event:ipv4.bad!;", "decode-event: invalid character '!' in event name"),
    ("app-layer-protocol:http,later;",
     "app-layer-protocol: unknown mode 'later' (expected one of: final, original, either, "
     "to_server, to_client, direction)"),
    ("app-layer-protocol:ht tp;", "app-layer-protocol: invalid protocol name 'ht tp'"),
    ("ipv4-csum:ok;", "ipv4-csum: unknown checksum state 'ok' (expected one of: valid, invalid)"),
    ("ssl_state:client_hello,goodbye;",
     "ssl_state: unknown value 'goodbye' (expected one of: client_hello, server_hello, "
     "client_keyx, server_keyx, unknown)"),
    ("ssl_version:tls1.4;",
     "ssl_version: unknown value 'tls1.4' (expected one of: sslv2, sslv3, tls1.0, tls1.1, "
     "tls1.2, tls1.3)"),
    ("ssl_version:sslv3,;", "ssl_version: empty item in list"),
    ("tls.version:2.0;",
     "tls.version: unknown TLS version '2.0' (expected one of: 1.0, 1.1, 1.2, 1.3)"),
    ("tls.version:0x1ffff;", "tls.version: invalid version '0x1ffff'"),
    ('tls.fingerprint:"aa:bb";', "tls.fingerprint: a SHA-1 fingerprint has 20 bytes (59 characters)"),
    ('tls.fingerprint:"aabb";', 'tls.fingerprint: expected a fingerprint like "aa:bb:cc:..."'),
    ("tls.cert_chain_len:many;", "tls.cert_chain_len: missing value"),
    ("tls_cert_notbefore:2015-13-01;",
     "tls_cert_notbefore: expected a date like 2015, 2015-10-22 or 2015-10-22T14:30:00, after "
     "'<', '>' or around '<>'"),
    ("tls_cert_notafter:2016<>2015;",
     "tls_cert_notafter: expected a date like 2015, 2015-10-22 or 2015-10-22T14:30:00, after "
     "'<', '>' or around '<>'"),
    ("tls.cert_notafter:>2015-1-2;",
     "tls.cert_notafter: expected a date like 2015, 2015-10-22 or 2015-10-22T14:30:00, after "
     "'<', '>' or around '<>'"),
    ("filestore:sideways;",
     "filestore: unknown direction 'sideways' (expected one of: request, response, to_server, "
     "to_client, both)"),
    ("filestore:both,file,x;", "filestore: expected 'DIRECTION[,SCOPE]'"),
    ('filemagic:"a" b;', "filemagic: unexpected text after the string"),
    ("filemd5:a b;", "filemd5: expected a list file name, got 'a b'"),
    ('service:http; file_meta:type PDF;', "file_meta: needs type and id"),
    ('service:http; file_meta:type PDF, id 1, size 2;', "file_meta: unknown field 'size'"),
    ('service:http; file_meta:type PDF, id 1, id 2;', "file_meta: 'id' given twice"),
    ('service:http; file_meta:type, id 1;', "file_meta: type needs a name"),
    ('service:http; file_meta:type PDF, id 1, category "x" y;',
     "file_meta: unexpected text after the string"),
    ("service:http; file_type:PDF||ZIP;", "file_type: empty file type"),
    ("dce_iface:1234;", "dce_iface: expected a UUID like 4b324fc8-1670-01d3-1278-5a47bf6ee188"),
    ("dce_iface:4b324fc8-1670-01d3-1278-5a47bf6ee188,sometimes;",
     "dce_iface: unexpected 'sometimes' (VERSION comparison or any_frag)"),
    ('dce_opnum:"15;', "dce_opnum: missing closing quote"),
    ("dce_opnum:9-3;", "dce_opnum: opnum range 9-3 is reversed"),
    ("sip_stat_code:42;", "sip_stat_code: status code 42: use 1-9 for a class or 100-999"),
    ("sip_method:in vite;", "sip_method: invalid name 'in vite'"),
    ("service:!http;", "service: items cannot be negated"),
    ("ftpdata_command:list;",
     "ftpdata_command: unknown command 'list' (expected one of: stor, retr)"),
    ("tag:host;", "tag: host tags need a count and a metric"),
    ("tag:session,10;", "tag: missing metric (packets, seconds, bytes)"),
    ("tag:host,10,packets;", "tag: host tags end with src or dst"),
    ("tag:session,10,packets,src;", "tag: unexpected 'src'"),
    ("asn1:bitstring_overflow 1;", "asn1: unexpected '1'"),
    ("asn1:double_overflow, double_overflow;", "asn1: 'double_overflow' given twice"),
    ("asn1:absolute_offset 1, relative_offset 1;",
     "asn1: absolute_offset and relative_offset together"),
    ("asn1:bitstring_overflow,,double_overflow;", "asn1: empty item"),
    ("asn1:bitstring_overflow,;", "asn1: empty item"),
    ("asn1:oversize_length;", "asn1: oversize_length needs a number"),
    ("asn1:oversize_length, 10;", "asn1: oversize_length needs a number"),
    ("asn1:oversize_length 4294967296;",
     "asn1: oversize_length 4294967296 out of range 0..4294967295"),
    ("asn1:absolute_offset -1;", "asn1: absolute_offset -1 out of range 0..65535"),
    ("asn1:relative_offset -65536;", "asn1: relative_offset -65536 out of range -65535..65535"),
    ("asn1:relative_offset x;", "asn1: relative_offset: expected a number, got 'x'"),
    ("asn1:overflow;", "asn1: unknown asn1 check 'overflow' (expected one of: "
     "bitstring_overflow, double_overflow, print, oversize_length, absolute_offset, "
     "relative_offset)"),
    ("service:http; ber_data:0x100;", "ber_data: BER type 0x100 out of range 0..255"),
    ("service:http; ber_data:0x02,optional;", "ber_data: unexpected 'optional'"),
    ("base64_decode:bytes 0;", "base64_decode: bytes 0 out of range 1..65535"),
    ("base64_decode:relative 1;", "base64_decode: unexpected '1'"),
    ("base64_decode:size 1;", "base64_decode: unknown field 'size' (bytes, offset, relative)"),
    ("base64_decode:relative,relative;", "base64_decode: 'relative' given twice"),
    ("rpc:1,2,3,4;", "rpc: expected 'APPLICATION[,VERSION|*[,PROCEDURE|*]]'"),
    ("rpc:*,2;", "rpc: number: expected a number, got '*'"),
    # --- MQTT integers (opt_mqtt.c) -------------------------------------------------------
    ("mqtt.flags:foo;", "mqtt.flags: unknown flag 'foo'"),
    ("mqtt.flags:retain,!retain;", "mqtt.flags: flag 'retain' named twice"),
    ("mqtt.connect.flags:will,bogus;", "mqtt.connect.flags: unknown flag 'bogus'"),
    ("mqtt.qos:3;", "mqtt.qos: value 3 out of range 0..2"),
    ("mqtt.type:BOGUS;", "mqtt.type: unknown type 'BOGUS' (CONNECT … AUTH, or 0..15)"),
    ("mqtt.type:16;", "mqtt.type: value 16 out of range 0..15"),
    ("pop3.command:FETCH;", "pop3.command: unknown value 'FETCH' for pop3.command"),
    ("pop3.status:maybe;", "pop3.status: unknown value 'maybe' for pop3.status"),
    ("pop3.status:2;", "pop3.status: value 2 out of range 0..1"),
    ("mqtt.connack.session_present:maybe;", "mqtt.connack.session_present: unknown value "
     "'maybe' (expected one of: false, true, no, yes)"),
    # --- Kerberos 5, LDAP, SNMP (opt_krb5.c, opt_ldap.c, opt_snmp.c) -----------------------
    ("krb5_msg_type:256;", "krb5_msg_type: value 256 out of range 0..255"),
    ("krb5.ticket_encryption:bogus;", "krb5.ticket_encryption: unknown encryption type 'bogus'"),
    ("krb5.ticket_encryption:weak,!weak;", "krb5.ticket_encryption: weak named twice"),
    ("ldap.request.operation:bogus;", "ldap.request.operation: unknown value 'bogus'"),
    ("ldap.responses.operation:search_result_done,x;",
     "ldap.responses.operation: index: expected a number, got 'x'"),
    ("ldap.responses.result_code:no_such_code;",
     "ldap.responses.result_code: unknown value 'no_such_code'"),
    # --- HTTP/2 frame keywords (opt_http2.c) -------------------------------------------------
    ("http2.frametype:FOO;", "http2.frametype: unknown name 'FOO'"),
    ("http2.errorcode:BAD_ERROR;", "http2.errorcode: unknown name 'BAD_ERROR'"),
    ("http2.settings:SETTINGS_BOGUS;", "http2.settings: unknown setting 'SETTINGS_BOGUS'"),
    ("http2.settings:SETTINGS_ENABLE_PUSH!=1;",
     "http2.settings: a comparison http2.settings does not take"),
    ("http2.priority:256;", "http2.priority: value 256 out of range 0..255"),
    # --- WebSocket integers (opt_websocket.c; the integer grammar of opt_int.c) ------------
    ("websocket.opcode:bogus;", "websocket.opcode: unknown opcode 'bogus' (continuation, text, "
     "binary, close, ping, pong, or a number)"),
    ("websocket.opcode:256;", "websocket.opcode: value 256 out of range 0..255"),
    ("websocket.flags:fin,bogus;", "websocket.flags: unknown flag 'bogus' (fin, comp)"),
    ("websocket.flags:fin,!fin;", "websocket.flags: flag 'fin' named twice"),
    ("websocket.flags:&0x80;", "websocket.flags: '&MASK=VALUE' wanted"),
    ("websocket.flags:&0x100=1;", "websocket.flags: mask 0x100 out of range 0..255"),
]


def run_case(tmp_path, case):
    rule = case if case.startswith(HEADER_WORDS) else WRAP.format(case)
    return reason(tmp_path, rule)


@pytest.mark.parametrize("case,expected", CASES, ids=[c[0][:60] for c in CASES])
def test_rejection_reason(tmp_path, case, expected):
    text = run_case(tmp_path, case)
    m = re.match(r"sid (\d+|\?): (.*?)( \((line \d+ )?col \d+\))?$", text)
    assert m, text
    assert m.group(2) == expected


def test_cases_are_distinct():
    assert len({c for c, _ in CASES}) == len(CASES)


def test_positions(tmp_path):
    """The column is where the problem is, in the physical line (continued lines too)."""
    assert run_case(tmp_path, 'content:"a|4|";') == \
        "sid 9: content: odd number of hex digits in |...| (col 50)"
    assert reason(tmp_path, "alert tcp any 99999 -> any any (sid:1;)") == \
        "sid 1: invalid port '99999' (ports are 0..65535) (col 15)"
    text = 'alert tcp any any -> any any (msg:"t"; \\\n   content:"x"; \\\n   bogus; sid:3;)'
    assert reason(tmp_path, text) == "sid 3: unknown option 'bogus' (line 3 col 4)"
    # a disabled rule's position counts the '#' it was written with
    _, lines, _ = check_text(tmp_path, '#  alert tcp any any -> any any (msg:"t"; sid:4; x;)\n')
    assert lines == ["t.rules:1: sid 4: disabled rule: unknown option 'x' (col 50)"]


def test_sid_unknown_when_it_cannot_be_read(tmp_path):
    assert reason(tmp_path, 'alert tcp any any -> any any (msg:"t"; sid:x;)') == \
        "sid ?: sid: sid: expected a number, got 'x' (col 44)"
    assert reason(tmp_path, 'alert tcp any any -> any any (msg:"t; sid:12;)') == \
        "sid 12: msg: missing closing quote (col 35)"


def test_too_many_options(tmp_path):
    rule = WRAP.format("nocase; " * 4100)
    assert run_case(tmp_path, rule).endswith("options: more than 4096 options in one rule (col 31)")
