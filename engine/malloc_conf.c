/* malloc_conf.c — jemalloc's options for the osprey program (top CMakeLists.txt: why jemalloc).
 * jemalloc reads this symbol at its start; MALLOC_CONF in the environment still overrides it.
 *
 *   thp:always           the arenas on transparent huge pages: a run touches some 200 MB of
 *                        flows, streams and transactions, and 4 KiB pages cost a page fault
 *                        each and many TLB misses (about 6 % of `osprey -r` on the benchmark);
 *   dirty_decay_ms, muzzy_decay_ms: 30000
 *                        freed pages go back to the kernel over 30 s instead of 10 s: a
 *                        packet-rate churn of flows reuses them instead of faulting them in
 *                        again, and returning them no longer splits the huge pages. Memory a
 *                        burst took is still given back once the load falls.
 * Measured on the benchmark (bench/README.md, session 11): processing 4.7 → 4.1 s, startup
 * 0.95 → 0.8 s, peak resident memory 203 → 256 MB. */
#ifdef OSPREY_JEMALLOC
extern const char *malloc_conf;
const char *malloc_conf = "thp:always,dirty_decay_ms:30000,muzzy_decay_ms:30000";
#endif
