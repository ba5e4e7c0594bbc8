/* test_io_dpdk_prefix.c — mon_dpdk_file_prefix and mon_dpdk_prefix_holder (io/dpdk_prefix.c):
 * the prefix named in EAL arguments, and the pid of a process holding the EAL's lock on the
 * prefix's runtime config file (a child process takes the lock as a DPDK primary would). */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mon_io.h"
#include "unit.h"

static void test_prefix_from_args(void)
{
    char *none[] = {"osprey", "--no-huge", "-l", "0"};
    char *eq[] = {"osprey", "--file-prefix=abc", "-m", "256"};
    char *sep[] = {"osprey", "--file-prefix", "xyz"};
    char *last[] = {"osprey", "--file-prefix=one", "--file-prefix=two"};
    CHECK(strcmp(mon_dpdk_file_prefix(4, none), "rte") == 0);
    CHECK(strcmp(mon_dpdk_file_prefix(4, eq), "abc") == 0);
    CHECK(strcmp(mon_dpdk_file_prefix(3, sep), "xyz") == 0);
    CHECK(strcmp(mon_dpdk_file_prefix(3, last), "two") == 0);
}

static void test_holder(void)
{
    char prefix[64], dir[512], path[600];
    snprintf(prefix, sizeof prefix, "osprey-unit-%d", (int)getpid());
    const char *base = getuid() == 0 ? "/var/run" : getenv("XDG_RUNTIME_DIR");
    if (!base)
        base = "/tmp";
    snprintf(dir, sizeof dir, "%s/dpdk", base);
    mkdir(dir, 0700);
    snprintf(dir, sizeof dir, "%s/dpdk/%s", base, prefix);
    CHECK(mkdir(dir, 0700) == 0);
    snprintf(path, sizeof path, "%s/config", dir);

    CHECK_EQ_U(mon_dpdk_prefix_holder(prefix), 0); /* no config file yet */
    int fd = open(path, O_RDWR | O_CREAT, 0600);
    CHECK(fd >= 0);
    CHECK_EQ_U(mon_dpdk_prefix_holder(prefix), 0); /* a file nobody locks */

    int ready[2];
    CHECK(pipe(ready) == 0);
    pid_t child = fork();
    if (child == 0) {
        struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
        int ok = fcntl(fd, F_SETLK, &fl) == 0;
        (void)!write(ready[1], &ok, sizeof ok);
        pause();
        _exit(0);
    }
    int ok = 0;
    CHECK(read(ready[0], &ok, sizeof ok) == (ssize_t)sizeof ok && ok);
    CHECK_EQ_U(mon_dpdk_prefix_holder(prefix), child);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    CHECK_EQ_U(mon_dpdk_prefix_holder(prefix), 0); /* the lock went with its process */

    close(fd);
    close(ready[0]);
    close(ready[1]);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    test_prefix_from_args();
    test_holder();
    return unit_report("test_io_dpdk_prefix");
}
