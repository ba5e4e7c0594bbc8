/* opt_eval.h — the compile checks and evaluate functions that live beside each option's
 * parser (opt_content.c, opt_flow.c, opt_compare.c). rules/compile/ calls these; it never
 * looks inside an option's argument itself except to intern it.
 *
 * A compile check returns NULL when the engine can honour the argument completely, else a
 * short reason (the rule is then not compiled: never loaded with a part ignored).
 */
#ifndef RULES_OPT_EVAL_H
#define RULES_OPT_EVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opt_args.h"

/* --- content (opt_content.c) --- */
const char *content_compile_check(const void *arg); /* struct opt_content */
/* Relative to the previous payload match (distance/within): joins the previous unit. */
bool content_is_relative(const struct opt_content *ct);
/* The bytes a fast-pattern matcher looks for (the fast_pattern slice, else all of it). */
void content_fast_bytes(const struct opt_content *ct, const uint8_t **p, uint32_t *len);
/* The window [*start, *end) of buf[0..len) the content must lie in, given where the previous
 * payload match ended; false when it cannot hold the pattern. */
bool content_window(const struct opt_content *ct, int64_t prev_end, int64_t len,
                    int64_t *start, int64_t *end);
/* First occurrence starting in [from, last_start], or -1. */
int64_t content_find(const struct opt_content *ct, const uint8_t *buf, int64_t from,
                     int64_t last_start);
/* First occurrence of pat[0..m) in hay[0..n) (ASCII letters folded when nocase), or -1
 * (content_search.c). */
int64_t content_search(const uint8_t *hay, size_t n, const uint8_t *pat, size_t m, bool nocase);

/* --- byte variables ---------------------------------------------------------------------
 * byte_extract and byte_math define a rule's variables; later payload options of the same
 * rule name them in place of a number. The compiler numbers the variables of a rule (at most
 * BYTE_MAX_VARS) and keeps the whole rule's payload options in one run, so a run evaluates
 * definitions before uses and backtracking re-evaluates them. Each option says which of its
 * fields name a variable (the *_var_names functions, NULL where a number was written) and
 * makes a bound copy given their values (the *_bind functions: false when a value cannot be
 * a position, so the option does not match). */
#define BYTE_MAX_VARS 8
#define BYTE_VAR_FIELDS 4
void content_var_names(const struct opt_content *ct, const char *names[BYTE_VAR_FIELDS]);
bool content_bind(const struct opt_content *ct, const int64_t vals[BYTE_VAR_FIELDS],
                  struct opt_content *out);
void byte_var_names(const struct opt_byte *b, const char *names[BYTE_VAR_FIELDS]);
bool byte_bind(const struct opt_byte *b, const int64_t vals[BYTE_VAR_FIELDS],
               struct opt_byte *out);
void isdataat_var_names(const struct opt_isdataat *d, const char *names[BYTE_VAR_FIELDS]);
bool isdataat_bind(const struct opt_isdataat *d, const int64_t vals[BYTE_VAR_FIELDS],
                   struct opt_isdataat *out);

/* --- pcre (opt_pcre.c) --- */
const char *pcre_compile_check(const void *arg); /* struct opt_pcre */
/* Compile with PCRE2; its first pcre_search JIT-compiles it (the JIT is optional: without it
 * pcre2_match interprets). NULL when out of memory. */
void *pcre_compile_code(const struct opt_pcre *pc);
void pcre_free_code(void *code);
/* The pcre2_code of a compiled regex (for pcre2_pattern_info). */
const void *pcre_code_pcre2(const void *code);
/* Suricata's pcre.match-limit and pcre.match-limit-recursion (3500 and 1500 by default): a
 * search that needs more backtracking steps or nesting gives up as no match, so one crafted
 * body cannot stall a worker. Set once before any search; 0 keeps PCRE2's own limit. */
void pcre_set_limits(uint32_t match_limit, uint32_t depth_limit);
/* Searches given up at those limits so far (all workers). */
uint64_t pcre_limit_hits(void);
/* Per-worker match data for pcre_search (an ovector of 64 pairs). */
void *pcre_match_data_new(void);
void pcre_match_data_free(void *md);
/* Search buf[from..len); on a match, *mstart and *mend are its bounds. md: pcre2_match_data. */
bool pcre_search(const void *code, void *md, const uint8_t *buf, uint32_t len, uint32_t from,
                 uint32_t *mstart, uint32_t *mend);
/* The groups of the last match in md (pairs of offsets, PCRE2_UNSET for a group that took
 * no part), at most max: their count. */
uint32_t pcre_groups(void *md, size_t *ov, uint32_t max);

/* --- byte_test, byte_jump, byte_extract, byte_math (opt_byte.c) --- */
const char *byte_compile_check(const void *arg); /* struct opt_byte */
/* The byte order a `dce` field is read in: the data representation of the DCERPC PDU whose
 * stub is being inspected (true: little endian). Set per worker thread by the payload unit
 * (rules/compile/unit_payload.c) before it runs items that read it. */
extern _Thread_local bool byte_dce_little;
bool byte_test_eval(const struct opt_byte *b, const uint8_t *buf, uint32_t len,
                    int64_t prev_end);
bool byte_jump_eval(const struct opt_byte *b, const uint8_t *buf, uint32_t len,
                    int64_t prev_end, int64_t *new_end);
/* byte_extract, byte_math (opt_byte.c): the variable's value, and the position past the
 * bytes read (both move the cursor there, as in Snort and Suricata). */
bool byte_extract_eval(const struct opt_byte *b, const uint8_t *buf, uint32_t len,
                       int64_t prev_end, int64_t *val, int64_t *new_end);
bool byte_math_eval(const struct opt_byte *b, const uint8_t *buf, uint32_t len,
                    int64_t prev_end, int64_t *val, int64_t *new_end);

/* --- isdataat (opt_compare.c) --- */
const char *isdataat_compile_check(const void *arg); /* struct opt_isdataat */
bool isdataat_match(const struct opt_isdataat *d, uint32_t len, int64_t prev_end);

/* --- flow (opt_flow.c) --- */
struct flow_view {
    bool has_flow;     /* a tracked flow (false: stateless packet) */
    bool to_server;    /* the inspected data goes client -> server */
    bool established;  /* TCP: both ends established; UDP/ICMP: both directions seen */
    bool stream;       /* inspecting the reassembled stream (not a packet) */
    bool reassembled;  /* the packet came out of IP defragmentation */
};
const char *flow_compile_check(const void *arg); /* struct opt_flow */
bool flow_match(const struct opt_flow *f, const struct flow_view *v);

/* --- stream_size (opt_compare.c): the bytes each end sent, as sequence numbers count them
 * (the SYN and FIN included), compared; cm->flags says whose --- */
enum { STREAM_SIZE_SERVER = 1, STREAM_SIZE_CLIENT, STREAM_SIZE_BOTH, STREAM_SIZE_EITHER,
       STREAM_SIZE_TO_SERVER, STREAM_SIZE_TO_CLIENT, STREAM_SIZE_TO_BOTH, STREAM_SIZE_TO_EITHER };
const char *stream_size_compile_check(const void *arg); /* struct opt_cmp */
bool stream_size_match(const struct opt_cmp *cm, uint64_t client, uint64_t server);

/* --- numeric comparisons (opt_compare.c) --- */
/* opt_file.c: does the test hold for this file (its negation included)? */
struct osprey_file_info;
bool file_match(const struct opt_file *fa, const struct osprey_file_info *fi);

const char *cmp_compile_check(const void *arg); /* struct opt_cmp */
/* urilen: as cmp_compile_check, its norm/raw modifier honoured */
const char *urilen_compile_check(const void *arg); /* struct opt_cmp */
/* bufferlen: as cmp_compile_check, its relative modifier honoured for the comparisons
 * compile/plan_payload.c turns into isdataat (all but != and outside a range) */
const char *bufferlen_compile_check(const void *arg); /* struct opt_cmp */
bool cmp_match(const struct opt_cmp *cm, int64_t x);

/* --- header fields: itype icode ttl tos id icmp_id icmp_seq seq ack window (opt_compare.c) */
enum { HF_ITYPE, HF_ICODE, HF_TTL, HF_TOS, HF_ID, HF_ICMP_ID, HF_ICMP_SEQ, HF_SEQ, HF_ACK,
       HF_WINDOW, HF_FRAGOFF };
struct hdr_view {          /* what the packet says, filled by the caller */
    uint8_t ipver, ttl, tos, icmp_type, icmp_code, tcp_flags;
    bool is_icmp, icmp_echo, is_tcp;
    uint16_t ip_id, icmp_id, icmp_seq, tcp_win;
    uint16_t frag_off;     /* IPv4: the 13-bit fragment offset field (8-byte units) */
    uint32_t tcp_seq, tcp_ack;
};
int hdr_field_of(const char *keyword); /* HF_*, or -1 */

bool hdr_field(int field, const struct hdr_view *h, int64_t *v);

/* --- flags (opt_ipflags.c) --- */
struct tcpflags {
    uint8_t bits, ignore; /* flags named; flags the mask says to ignore */
    char mod;             /* 0 exact, '+' these and maybe others, '*' any of these, '!' none */
};
/* From the option's text as written (the parser validated it). */
void tcpflags_compile(const char *value, struct tcpflags *out);
bool tcpflags_match(const struct tcpflags *t, uint8_t flags);

/* --- fragbits (opt_ipflags.c): the same modifiers as flags, on the IPv4 flag bits --- */
enum { FRAGBIT_R = 0x80, FRAGBIT_D = 0x40, FRAGBIT_M = 0x20 }; /* as in byte 6 of the header */
void fragbits_compile(const char *value, struct tcpflags *out);
/* ipflags: byte 6 of an IPv4 header (only its top three bits count). */
bool fragbits_match(const struct tcpflags *t, uint8_t ipflags);

/* --- ipopts (opt_ipflags.c) --- */
#define IPOPT_ANY 0xffff /* ipopts:any: the header carries at least one option */
/* The option type ipopts:WORD looks for (IPOPT_ANY for "any"). */
uint16_t ipopts_compile(const char *value);
/* opts[0..len): the IPv4 options area (header bytes 20 .. IHL*4). */
bool ipopts_match(uint16_t want, const uint8_t *opts, uint32_t len);

/* --- ip_proto (opt_ipflags.c) --- */
struct ipproto {
    char op;       /* 0 (=), '!', '<', '>' */
    uint8_t proto;
};
void ipproto_compile(const char *value, struct ipproto *out);
bool ipproto_match(const struct ipproto *t, uint8_t proto);

/* --- threshold, detection_filter (opt_threshold.c) --- */
struct thr_state {
    uint64_t start_us; /* the current window's first event */
    uint32_t count;    /* events in the window */
    uint64_t since_us; /* rate_filter: when the new action took over (0 = it has not) */
    uint64_t next;     /* threshold type backoff: the event that alerts next after `count` */
};
const char *threshold_compile_check(const void *arg); /* struct opt_threshold */
/* One more match of the rule for this tracked key at now_us: may it alert? */
bool threshold_event(const struct opt_threshold *t, struct thr_state *st, uint64_t now_us);

/* --- flowbits (opt_flowbits.c) --- */
const char *flowbits_compile_check(const void *arg); /* struct opt_bits */
/* ids[i]: the bit of names[i]; bits: the flow's bitmap. */
bool flowbits_test(const struct opt_bits *b, const uint32_t *ids, const uint64_t *bits);
void flowbits_apply(const struct opt_bits *b, const uint32_t *ids, uint64_t *bits);
/* service (opt_app.c): NULL when every service listed is one the parsers detect. */
const char *service_compile_check(const void *arg); /* struct opt_words */
/* xbits: NULL, or why detection cannot run this form (track tx). */
const char *xbits_compile_check(const void *arg); /* struct opt_bits */

/* --- decode-event, stream-event, app-layer-event (opt_events.c): NULL when Osprey raises the
 * event named, else why the rule is not loaded --- */
const char *event_compile_check(const void *arg); /* struct opt_event */

/* --- transforms (opt_transforms.c) --- */
#define XFORM_DIGEST_MAX 32
/* Apply the transform named (to_lowercase, to_uppercase, strip_whitespace,
 * compress_whitespace, dotprefix, url_decode, header_lowercase, to_md5, to_sha1, to_sha256:
 * the digests are raw bytes, as Suricata's) to in[0..n) into out (room for
 * max(n, XFORM_DIGEST_MAX) + 1 bytes: dotprefix adds one); returns the output length. */
uint32_t xform_apply(const char *name, const uint8_t *in, uint32_t n, uint8_t *out);

#endif
