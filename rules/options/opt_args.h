/* opt_args.h — the parsed argument of each option (struct osprey_rule_option.arg).
 *
 * One struct per argument grammar; the keyword says which. Strings are NUL-terminated arena
 * copies; byte patterns carry their length. A name that refers to a byte_extract/byte_math
 * variable is kept in the *_var field instead of the number.
 */
#ifndef RULES_OPT_ARGS_H
#define RULES_OPT_ARGS_H

#include <stdbool.h>
#include <stdint.h>

/* content, uricontent (and their modifiers, folded in). */
enum {
    CONTENT_DEPTH = 1,
    CONTENT_OFFSET = 2,
    CONTENT_DISTANCE = 4,
    CONTENT_WITHIN = 8,
};
struct opt_content {
    const uint8_t *pattern;
    uint32_t len;
    bool negated, nocase, rawbytes, startswith, endswith;
    bool fast_pattern, fp_only, fp_slice; /* fast_pattern, :only, :offset,length */
    uint32_t fp_offset, fp_length;
    uint8_t has;                          /* CONTENT_* set */
    int32_t depth, offset, distance, within;
    const char *depth_var, *offset_var, *distance_var, *within_var;
    const uint8_t *replace;               /* replace:"…" (IPS) */
    uint32_t replace_len;
    bool has_replace;
    uint16_t buffer;                      /* where it looks (after http_* modifiers) */
    bool buffer_from_modifier;            /* set by a classic http_* modifier */
};

/* pcre (and Snort 3 regex). */
struct opt_pcre {
    const char *regex;   /* the pattern between the delimiters, as written */
    uint32_t len;
    char flags[40];      /* the modifier letters as written */
    bool negated, relative;
    uint32_t pcre2_options;
    int buffer_flag;     /* HTTP buffer selected by a U/I/P/Q/H/D/M/C/K/S/Y/V/W/Z flag, or -1 */
    const char *capture; /* Suricata ", flow:name" / ", pkt:name" capture list, or NULL */
};

/* Numeric comparisons: dsize, urilen, bsize, itype, ttl … */
enum cmp_op {
    CMP_EQ,
    CMP_NE,
    CMP_LT,
    CMP_GT,
    CMP_LE,
    CMP_GE,
    CMP_RANGE,      /* lo < x < hi   (a<>b) */
    CMP_RANGE_INCL, /* lo <= x <= hi (Snort 3 a<=>b, a-b of ttl, urilen …) */
    CMP_OUTSIDE,    /* x <= lo or x >= hi (Suricata's !a-b: not in the range a<>b) */
    CMP_MASK,       /* (x & hi) == lo: flag words (mqtt.flags: the bits named in hi, those
                       wanted set in lo) */
    CMP_ANY_BIT,    /* (x & lo) != 0: any of the bits named set (dnp3_ind) */
};
struct opt_cmp {
    uint8_t op;
    int64_t lo, hi; /* hi only for ranges */
    const char *var; /* a byte variable instead of a number (bsize, some Snort 3 options) */
    uint32_t flags;  /* keyword specific: urilen norm/raw, bufferlen relative, … */
};
/* opt_cmp.flags of an integer keyword on a parsers' field: the value was a name, compared
 * on the field "<keyword>.name" whose values are names (nfs_procedure:getattr) */
#define OPT_CMP_BY_NAME 0x80000000u

/* dce_iface / dcerpc.iface, dce_opnum / dcerpc.opnum (opt_dce.c) */
#define OPT_DCE_RANGES 32
struct opt_dce {
    bool iface;                 /* dce_iface (else dce_opnum) */
    uint8_t uuid[16];           /* the interface, in the text's byte order */
    char ver_op;                /* '<', '>', '=', '!' or 0: any version */
    uint16_t ver;
    bool any_frag;              /* also a request that did not start with its first fragment */
    uint32_t n;                 /* opnum ranges */
    uint16_t lo[OPT_DCE_RANGES], hi[OPT_DCE_RANGES];
};

/* flow */
enum {
    FLOW_TO_SERVER = 1 << 0,
    FLOW_TO_CLIENT = 1 << 1,
    FLOW_ESTABLISHED = 1 << 2,
    FLOW_NOT_ESTABLISHED = 1 << 3,
    FLOW_STATELESS = 1 << 4,
    FLOW_ONLY_STREAM = 1 << 5,
    FLOW_NO_STREAM = 1 << 6,
    FLOW_ONLY_FRAG = 1 << 7,
    FLOW_NO_FRAG = 1 << 8,
};
struct opt_flow {
    uint32_t flags;
};

/* flowbits, xbits */
enum bits_op {
    BITS_SET,
    BITS_SETX,
    BITS_UNSET,
    BITS_TOGGLE,
    BITS_ISSET,
    BITS_ISNOTSET,
    BITS_NOALERT,
    BITS_RESET,
};
/* TRACK_IP_BOTH: hostbits' "both", the source and the destination host each */
enum bits_track { TRACK_NONE, TRACK_IP_SRC, TRACK_IP_DST, TRACK_IP_PAIR, TRACK_TX, TRACK_IP_BOTH };
struct opt_bits {
    uint8_t op;
    char join;          /* '|' (any), '&' (all) or 0 for one name */
    uint32_t n;
    const char **names;
    const char *group;  /* Snort 2 flowbits group */
    uint8_t track;      /* xbits, hostbits */
    int64_t expire;     /* xbits, hostbits: seconds; 0 = the default (30) */
};

/* dataset, datarep (opt_dataset.c): a named set of values the sticky buffer is looked up in */
enum dataset_cmd { DS_SET, DS_ISSET, DS_ISNOTSET, DS_UNSET, DS_REP /* datarep */ };
enum dataset_type { DST_NONE, DST_STRING, DST_MD5, DST_SHA256, DST_IPV4, DST_IPV6 /* ip */ };
enum dataset_rep_op { DSR_GT, DSR_LT, DSR_GE, DSR_LE, DSR_EQ };
enum dataset_format { DSF_CSV, DSF_JSON, DSF_NDJSON }; /* of the load file */
struct opt_dataset {
    uint8_t cmd, type;   /* type DST_NONE: the set's declaration (datasets: section) gives it */
    uint8_t rep_op;      /* datarep */
    uint8_t format;      /* enum dataset_format */
    bool remove_key;     /* json: the value's key left out of the context (read, kept) */
    uint16_t rep_value;  /* datarep: reputations are 0..65535 */
    const char *name;
    const char *load, *save, *state; /* as written; NULL when absent */
    const char *context_key, *value_key, *array_key; /* json / ndjson (dotted paths) */
    uint64_t memcap;     /* bytes; 0: the default */
    uint32_t hashsize;   /* 0: the default */
};

/* tag (opt_misc.c): log the packets after the match, of the flow or of a host */
enum tag_kind { TAG_SESSION, TAG_HOST };
enum tag_metric { TAG_PACKETS, TAG_SECONDS, TAG_BYTES };
/* rpc:PROGRAM[,VERSION|*[,PROCEDURE|*]] (opt_misc.c): the packet is an ONC-RPC CALL of it */
struct opt_rpc {
    uint32_t prog, vers, proc;
    bool any_vers, any_proc;    /* "*" or left out */
};

struct opt_tag {
    uint8_t kind, metric;
    uint8_t dir;        /* TAG_HOST: 0 the source, 1 the destination */
    uint32_t count;     /* session without a count: 256 packets, as Suricata */
};

/* flowint */
struct opt_flowint {
    const char *name;
    char op[4];         /* + - = == != < > <= >= or "isset"/"notset" → "is"/"no" */
    bool has_value;
    int64_t value;
    const char *value_var;
};

/* byte_test, byte_jump, byte_extract, byte_math */
enum {
    BYTE_RELATIVE = 1 << 0,
    BYTE_BIG = 1 << 1,
    BYTE_LITTLE = 1 << 2,
    BYTE_STRING = 1 << 3,
    BYTE_DCE = 1 << 4,
    BYTE_ALIGN = 1 << 5,
    BYTE_FROM_BEGINNING = 1 << 6,
    BYTE_FROM_END = 1 << 7,
    BYTE_NEGATED = 1 << 8,
};
struct opt_byte {
    uint32_t bytes;
    uint32_t flags;
    uint8_t base;              /* 10, 16, 8 for string */
    char op[4];                /* byte_test: < > = <= >= & ^ != ; byte_math: + - * / << >> */
    int64_t value, offset;     /* byte_test value; all: offset */
    const char *value_var, *offset_var;
    const char *bytes_var;     /* byte_test/_jump/_math: the number of bytes from a variable */
    uint32_t multiplier;       /* 0 = none */
    int64_t post_offset;
    uint32_t align;            /* byte_extract align 2/4 */
    uint64_t bitmask;          /* 0 = none */
    const char *name;          /* byte_extract variable / byte_math result */
    const char *rvalue_var;    /* byte_math rvalue variable */
    int64_t rvalue;
};

/* isdataat */
struct opt_isdataat {
    bool negated, relative, rawbytes;
    int64_t n;
    const char *var;
};

/* ber_data:TYPE / ber_skip:TYPE[,optional] (Snort 3): the BER element at the cursor */
struct opt_ber {
    uint8_t type;            /* its identifier octet */
    bool skip;               /* ber_skip: past the element; ber_data: into its contents */
    bool optional;           /* ber_skip: another type (or none) leaves the cursor, holds */
};

/* asn1: which checks a decoded BER node trips, and where decoding starts */
struct opt_asn1 {
    bool bitstring_overflow, double_overflow, has_oversize;
    bool has_absolute, has_relative; /* neither: at the buffer's start */
    uint32_t oversize_length;        /* with has_oversize: a length above it trips */
    int32_t offset;                  /* absolute_offset 0..65535 or relative_offset ±65535 */
};

/* threshold, detection_filter */
enum thr_type { THR_LIMIT, THR_THRESHOLD, THR_BOTH, THR_BACKOFF, THR_DETECTION_FILTER };
enum thr_track { THR_BY_SRC, THR_BY_DST, THR_BY_RULE, THR_BY_BOTH, THR_BY_FLOW };
struct opt_threshold {
    uint8_t type, track;
    uint32_t count, seconds, multiplier;
};

/* metadata */
struct opt_metadata_entry {
    const char *key, *value; /* value may be "" */
};
struct opt_metadata {
    uint32_t n;
    const struct opt_metadata_entry *e;
};

/* reference */
struct opt_reference {
    const char *system; /* as configured (case of reference.config) */
    const char *id;
    const char *url;    /* the system's URL prefix */
};

/* A list of words, each possibly negated: service, ssl_state, ssl_version, sip_method … */
struct opt_words {
    uint32_t n;
    const char **words;
    const bool *negated;
};

/* A quoted string option (filemagic, filename, tls.fingerprint …). */
struct opt_str {
    const uint8_t *bytes;
    uint32_t len;
    bool negated;
};

/* The TLS options that are not buffers (opt_tls.c), compiled as units by
 * rules/compile/tls_units.c: the row's parser says which test the keyword is, so the compiler
 * keeps no list of TLS keywords. From OPT_TLS_CHAIN_LEN on: tests of the server's
 * certificate. */
enum opt_tls_test { OPT_TLS_STATE, OPT_TLS_SSL_VERSION, OPT_TLS_VERSION, OPT_TLS_CHAIN_LEN,
                    OPT_TLS_NOTBEFORE, OPT_TLS_NOTAFTER, OPT_TLS_EXPIRED, OPT_TLS_VALID,
                    OPT_TLS_STRING };
struct opt_tls {
    uint8_t test;               /* enum opt_tls_test */
    bool two_sided;             /* reads the side inspected: the client's version in one
                                   chain, the server's in the other (ssl_version, tls.version) */
    bool hex;                   /* OPT_TLS_STRING: hex, compared in any case (fingerprint) */
    const char *buffer;         /* OPT_TLS_STRING: the parsers' buffer searched (the server's
                                   certificate's subject, issuer, fingerprint) */
    struct opt_words words;     /* OPT_TLS_STATE, OPT_TLS_SSL_VERSION */
    struct opt_cmp cmp;         /* OPT_TLS_VERSION (EQ), _CHAIN_LEN, _NOTBEFORE, _NOTAFTER */
    struct opt_str str;         /* OPT_TLS_STRING */
};

/* decode-event, stream-event, app-layer-event: one event Osprey raises (event_names.c). */
enum { EV_DECODE, EV_STREAM, EV_APP };
struct opt_event {
    uint8_t kind;      /* EV_* */
    uint8_t ipver;     /* EV_DECODE: 4 or 6 when the anomaly counts only on that IP version */
    uint16_t code;     /* EV_DECODE: enum mon_decode_event, or mon_decode_note when note;
                          EV_STREAM: enum mon_tcp_event */
    bool note;         /* EV_DECODE: a decoder note (mon_packet.decode_notes), not an anomaly */
    bool negated;      /* app-layer-event:!NAME */
    const char *name;  /* as written (without '!') */
    const char *not_raised; /* NULL when Osprey raises it, else the reason the rule is not
                               loaded ("event 'NAME' is not raised by Osprey") */
};

/* app-layer-state:[<|>]STATE: a transaction's progress state of the header's protocol, by
 * its Suricata 8 hook name. mode 0: the rule runs at that state (the header hook's form);
 * '<' / '>': before / past it. */
struct opt_app_state {
    char mode;         /* 0, '<' or '>' */
    const char *state;
};

/* from_base64 transform, base64_decode: decode `bytes` bytes (0: to the end) from `offset`. */
struct opt_base64 {
    uint32_t bytes, offset;
    uint8_t mode;        /* enum b64_mode (rules/compile/base64.h): rfc4648, rfc2045, strict */
    bool relative;       /* base64_decode: from the previous match's end */
};

/* lua / luajit: the script (loaded, its init() run: rules/lua/rlua.h; owned by the ruleset),
 * negated with `!` (the rule needs the script not to match). luaxform: the script and its
 * arguments as written after the name. */
struct rlua_script;
struct opt_lua {
    struct rlua_script *script;
    bool negated;
    const char *name;          /* as written */
    const char *const *args;   /* luaxform's arguments */
    uint32_t nargs;
};

/* entropy: the comparison (CMP_* of struct opt_cmp: GT GE LT LE EQ NE, RANGE exclusive) of
 * the Shannon entropy of `bytes` bytes (0: all) from offset. */
struct opt_entropy {
    uint32_t bytes, offset;
    uint8_t op;
    bool negated;        /* !A-B */
    double lo, hi;
};

/* ldap.responses.operation / .result_code "value[,index]" and ldap.responses.count: a
 * comparison on a parsers' list field (one element per response so far; negative elements
 * are responses without that value) by position (opt_ldap.c, compile/unit_fields.c) */
enum { FIDX_ANY, FIDX_ALL, FIDX_AT, FIDX_COUNT };
struct opt_field_index {
    struct opt_cmp cm;
    int field;            /* the parsers' field (osprey_field_find) */
    uint8_t mode;         /* FIDX_*: any element, all of them, the one at index, the count */
    int32_t index;        /* FIDX_AT: from the first (0 …) or from the last (-1 …) */
};

/* krb5.ticket_encryption: [!]weak, or a list of encryption types (names or numbers) */
#define OPT_KRB5_ETYPES 16
/* A parsers' field whose value is in one of a few ranges (or, negated, in none):
 * sip_method:invite,options (the field's named values), sip_stat_code:4,180 (a class 1-9 is
 * its hundred) */
#define OPT_FIELD_SET_MAX 16
struct opt_field_set {
    int field;               /* the parsers' field (osprey_field_find), -1: none */
    bool neg;
    uint32_t n;
    struct { int64_t lo, hi; } r[OPT_FIELD_SET_MAX];
};

/* modbus:, cip_service, dnp3_obj …: comparisons on several of the parsers' fields that
 * must all hold (each on any element of its field), one det_unit_field each */
#define OPT_FIELDS_MAX 4
struct opt_fields {
    uint8_t n;
    struct {
        int field;           /* the parsers' field (osprey_field_find), -1: none */
        struct opt_cmp cm;
    } f[OPT_FIELDS_MAX];
};

/* ike.chosen_sa_attribute:<name>=<value>: the parsers' field of that attribute
 * (ike.chosen_sa_attribute.<name>), equal to value */
struct opt_ike_attr {
    struct opt_cmp cmp;
    int field;
};

struct opt_krb5_enc {
    int field, weak_field;  /* the parsers' fields krb5.ticket_encryption / _weak_encryption */
    int8_t weak;            /* -1: not asked, 0: !weak, 1: weak */
    uint32_t n;
    int32_t etype[OPT_KRB5_ETYPES];
};

/* zlib_deflate / gunzip transforms: the most bytes the inflated buffer may hold. */
struct opt_inflate {
    uint32_t max_size;
};

/* filename, fileext, filemagic, filesize, filemd5 / filesha1 / filesha256 (opt_file.c): a test
 * on each file of the transaction in the rule's direction (any file holding it matches). */
enum { FILE_T_NAME, FILE_T_EXT, FILE_T_MAGIC, FILE_T_SIZE, FILE_T_MD5, FILE_T_SHA1,
       FILE_T_SHA256 };
struct opt_file {
    uint8_t type;           /* FILE_T_* */
    bool negated;           /* !"…" / !LIST: the files the test does not hold for */
    const uint8_t *str;     /* NAME, MAGIC: found anywhere, any case; EXT: ".ext" at the end */
    uint32_t len;
    struct opt_cmp cmp;     /* SIZE */
    const uint8_t *hashes;  /* MD5/SHA1/SHA256: the list file's digests, sorted, hlen each */
    uint32_t nhashes;
    uint8_t hlen;
};

/* filestore[:DIRECTION[,SCOPE]] (opt_file.c): store the files of the rule's match. */
enum { FILESTORE_DIR_RULE, FILESTORE_DIR_TO_SERVER, FILESTORE_DIR_TO_CLIENT,
       FILESTORE_DIR_BOTH };
struct opt_filestore {
    uint8_t dir;            /* FILESTORE_DIR_* (request = to_server, response = to_client) */
    bool flow;              /* scope ssn / flow: every file of the flow from now on */
};

#endif
