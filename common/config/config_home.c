/* config_home.c — where this osprey's shipped configuration lives, so it runs without -c and
 * from any directory the way an installed Suricata does.
 *
 * Three cases, decided from the running binary (/proc/self/exe):
 *  - a build tree's program (its directory is the build's bin/): the source tree's etc/, so
 *    developers and the tests run build/bin/osprey from anywhere with the shipped tables;
 *  - an installed program: BINDIR/../…/SYSCONFDIR/osprey, the path from the compiled-in
 *    CMAKE_INSTALL_FULL_BINDIR to CMAKE_INSTALL_FULL_SYSCONFDIR/osprey taken from the binary's
 *    own directory, so a tree installed with `cmake --install --prefix OTHER` (a staging or
 *    test prefix) finds its own etc/osprey/ rather than the configured prefix's;
 *  - /proc unreadable: the compiled-in SYSCONFDIR/osprey.
 * Companion programs (osprey_config_companion) are found beside the running binary: installed
 * in the same BINDIR, or copied into the build's bin/ by CMake.
 */
#include "osprey_config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef OSPREY_BUILD_BINDIR
#define OSPREY_BUILD_BINDIR ""
#endif
#ifndef OSPREY_SOURCE_ETC
#define OSPREY_SOURCE_ETC "etc"
#endif
#ifndef OSPREY_CONFDIR
#define OSPREY_CONFDIR "/etc/osprey"
#endif
#ifndef OSPREY_BIN_TO_CONFDIR
#define OSPREY_BIN_TO_CONFDIR "../etc/osprey"
#endif

static const char *put(char *buf, size_t len, const char *a, const char *b)
{
    if ((size_t)snprintf(buf, len, "%s%s%s", a, b ? "/" : "", b ? b : "") >= len)
        return NULL;
    return buf;
}

const char *osprey_config_home(char *buf, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return put(buf, len, OSPREY_CONFDIR, NULL);
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = '\0';
    char build[PATH_MAX];
    if (OSPREY_BUILD_BINDIR[0] && realpath(OSPREY_BUILD_BINDIR, build) && !strcmp(build, exe))
        return put(buf, len, OSPREY_SOURCE_ETC, NULL);
    /* an absolute path from BINDIR to the confdir (a SYSCONFDIR on another root) stays as is */
    if (OSPREY_BIN_TO_CONFDIR[0] == '/')
        return put(buf, len, OSPREY_BIN_TO_CONFDIR, NULL);
    return put(buf, len, exe, OSPREY_BIN_TO_CONFDIR);
}

const char *osprey_config_default_file(char *buf, size_t len)
{
    char home[PATH_MAX], build[PATH_MAX];
    if (!osprey_config_home(home, sizeof home))
        return NULL;
    /* the build tree keeps the built-in defaults: its etc/osprey.yaml is the one to install */
    if (realpath(OSPREY_SOURCE_ETC, build) && !strcmp(build, home))
        return NULL;
    struct stat st;
    if (!put(buf, len, home, "osprey.yaml") || stat(buf, &st) != 0)
        return NULL;
    return buf;
}

const char *osprey_config_companion(const char *name, char *buf, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return NULL;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = '\0';
    if (!put(buf, len, exe, name) || access(buf, X_OK) != 0)
        return NULL;
    return buf;
}
