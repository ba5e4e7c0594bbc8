/* build_info.c — `osprey --build-info` in Suricata's layout.
 *
 * suricata-update reads the lines "Features: …" and "--prefix / --sysconfdir / --localstatedir
 * / --datarootdir PATH" (its data directory is LOCALSTATEDIR/lib/suricata, its dist rules
 * SYSCONFDIR/suricata/rules); people read the rest. The first line names Osprey, not Suricata:
 * suricata-update then knows no Suricata version and assumes a current one.
 */
#include "build_info.h"
#ifdef OSPREY_JEMALLOC
#include <jemalloc/jemalloc.h>
#endif

#include "options.h"

#ifndef OSPREY_VERSION
#define OSPREY_VERSION "unknown"
#endif
#ifndef OSPREY_PREFIX
#define OSPREY_PREFIX "/usr/local"
#define OSPREY_SYSCONFDIR "/usr/local/etc"
#define OSPREY_LOCALSTATEDIR "/usr/local/var"
#define OSPREY_DATAROOTDIR "/usr/local/share"
#define OSPREY_C_FLAGS ""
#define OSPREY_BUILD_TYPE ""
#endif

static const char *yes(int on)
{
    return on ? "yes" : "no";
}

int osprey_build_info(FILE *out)
{
#ifdef OSPREY_HAVE_DPDK
    const int dpdk = 1;
#else
    const int dpdk = 0;
#endif
#ifdef __SANITIZE_ADDRESS__
    const int asan = 1;
#else
    const int asan = 0;
#endif
    fprintf(out, "This is Osprey version %s RELEASE\n", OSPREY_VERSION);
    /* the line Suricata's tools read (suricata-update: the engine's version, e.g. to decide
     * whether SMB rules can run once app-layer.protocols.smb.enabled is set): the Suricata
     * behaviour Osprey follows */
    fprintf(out, "This is Suricata version 8.0.0 compatible (Osprey %s)\n", OSPREY_VERSION);
    /* Suricata's feature words where Osprey has the feature (HAVE_JA3: the ja3/ja4 keywords) */
    fprintf(out, "Features: PCAP_SET_BUFF AF_PACKET HAVE_PACKET_FANOUT%s PCRE_JIT HAVE_JA3 "
                 "HAVE_JA4 HAVE_LIBJANSSON HYPERSCAN UNIX_SOCKET GEOIP2 \n",
            dpdk ? " DPDK" : "");
    fprintf(out, "SIMD support:");
#ifdef __AVX2__
    fprintf(out, " AVX2");
#endif
#ifdef __SSE4_2__
    fprintf(out, " SSE_4_2");
#endif
#ifdef __SSE4_1__
    fprintf(out, " SSE_4_1");
#endif
#ifdef __SSE3__
    fprintf(out, " SSE_3");
#endif
#ifdef __SSE2__
    fprintf(out, " SSE_2");
#endif
#ifdef __ARM_NEON
    fprintf(out, " NEON");
#endif
    fprintf(out, " \n");
    fprintf(out, "%d-bits, %s-endian architecture\n", (int)(sizeof(void *) * 8),
            __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? "Little" : "Big");
#if defined(__clang__)
    fprintf(out, "Clang version %s, C version %ld\n", __clang_version__, (long)__STDC_VERSION__);
#elif defined(__GNUC__)
    fprintf(out, "GCC version %s, C version %ld\n", __VERSION__, (long)__STDC_VERSION__);
#endif
    fprintf(out, "thread local storage method: _Thread_local\n\n");

    fprintf(out, "Osprey Configuration:\n");
    fprintf(out, "  %-40s %s\n", "AF_PACKET support:", "yes");
    fprintf(out, "  %-40s %s\n", "DPDK support:", yes(dpdk));
    fprintf(out, "  %-40s %s\n", "libpcap support:", "yes");
    fprintf(out, "\n  %-40s %s\n", "Unix socket enabled:", "yes");
    fprintf(out, "  %-40s %s\n\n", "Detection enabled:", "yes");
    fprintf(out, "  %-40s %s\n", "libjansson support:", "yes");
    fprintf(out, "  %-40s %s\n", "PCRE jit:", "yes");
    fprintf(out, "  %-40s %s\n", "GeoIP2 support:", "yes");
    fprintf(out, "  %-40s %s\n", "JA3 support:", "yes");
    fprintf(out, "  %-40s %s\n", "JA4 support:", "yes");
    fprintf(out, "  %-40s %s\n", "Hyperscan support:", "yes");
#ifdef OSPREY_JEMALLOC
    /* jemalloc's own version. (This call also keeps jemalloc linked in an LTO build: its
     * linker's first pass sees the IR's names, where malloc is not one, and DPDK's
     * --as-needed would drop a library none of them names.) */
    const char *jv = "yes";
    size_t jvlen = sizeof jv;
    if (mallctl("version", &jv, &jvlen, NULL, 0) != 0)
        jv = "yes";
    fprintf(out, "  %-40s %s\n\n", "jemalloc:", jv);
#else
    fprintf(out, "  %-40s %s\n\n", "jemalloc:", "no");
#endif
    fprintf(out, "Development settings:\n");
    fprintf(out, "  %-40s %s\n", "Sanitizers (ASan/UBSan):", yes(asan));
#ifdef OSPREY_LTO
    fprintf(out, "  %-40s %s\n\n", "Link-time optimisation:", "yes");
#else
    fprintf(out, "  %-40s %s\n\n", "Link-time optimisation:", "no");
#endif
    fprintf(out, "Generic build parameters:\n");
    fprintf(out, "  %-40s %s\n", "Installation prefix:", OSPREY_PREFIX);
    fprintf(out, "  %-40s %s/osprey/\n", "Configuration directory:", OSPREY_SYSCONFDIR);
    fprintf(out, "  %-40s %s/log/osprey/\n\n", "Log directory:", OSPREY_LOCALSTATEDIR);
    fprintf(out, "  %-40s %s\n", "--prefix", OSPREY_PREFIX);
    fprintf(out, "  %-40s %s\n", "--sysconfdir", OSPREY_SYSCONFDIR);
    fprintf(out, "  %-40s %s\n", "--localstatedir", OSPREY_LOCALSTATEDIR);
    fprintf(out, "  %-40s %s\n\n", "--datarootdir", OSPREY_DATAROOTDIR);
    fprintf(out, "  %-40s %s\n", "Build type:", OSPREY_BUILD_TYPE);
    fprintf(out, "  %-40s %s\n", "CFLAGS", OSPREY_C_FLAGS);
    return ferror(out) || fflush(out) ? OSPREY_EXIT_FAILURE : OSPREY_EXIT_OK;
}
