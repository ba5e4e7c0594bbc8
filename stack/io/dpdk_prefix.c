/* dpdk_prefix.c — is a DPDK file prefix in use? Plain libmon (no DPDK needed), so the
 * preflight check can ask it too without starting the EAL.
 *
 * A primary DPDK process keeps a write lock (fcntl) on RUNTIME_DIR/dpdk/PREFIX/config for as
 * long as it runs; a second primary with the same prefix fails inside rte_eal_init with a
 * message that does not name the prefix, so osprey looks first.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mon_io.h"

const char *mon_dpdk_file_prefix(int argc, char *const *argv)
{
    const char *prefix = "rte"; /* the EAL's default */
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--file-prefix=", 14) == 0)
            prefix = argv[i] + 14;
        else if (strcmp(argv[i], "--file-prefix") == 0 && i + 1 < argc)
            prefix = argv[++i];
    }
    return prefix;
}

/* The EAL's runtime directory, as DPDK derives it: /var/run for root, else
 * $XDG_RUNTIME_DIR (or /tmp). */
static void config_path(const char *prefix, char *out, size_t len)
{
    const char *base = "/var/run";
    if (getuid() != 0) {
        const char *x = getenv("XDG_RUNTIME_DIR");
        base = x ? x : "/tmp";
    }
    snprintf(out, len, "%s/dpdk/%s/config", base, prefix);
}

int mon_dpdk_prefix_holder(const char *prefix)
{
    char path[512];
    config_path(prefix, path, sizeof path);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    int pid = 0;
    if (fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK)
        pid = fl.l_pid > 0 ? (int)fl.l_pid : 1;
    close(fd);
    return pid;
}
