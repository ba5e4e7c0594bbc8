/* report_html.c — the HTML report of an offline run (report_html.h). The page is built by a
 * Python script rather than here: it is presentation, changed more often than the engine, and
 * the same script serves logs already written (`osprey-report eve.json -o FILE.html`). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "osprey_config.h"
#include "report_html.h"

int osprey_report_html(const char *eve, const char *html)
{
    char prog[PATH_MAX];
    struct stat st;
    if (!osprey_config_companion("osprey-report", prog, sizeof prog)) {
        fprintf(stderr, "osprey: --report: osprey-report is not installed beside osprey\n");
        return -1;
    }
    if (!eve || stat(eve, &st) != 0 || !S_ISREG(st.st_mode)) {
        fprintf(stderr, "osprey: --report needs the eve-log output written to a file "
                        "(filetype: regular)\n");
        return -1;
    }
    fflush(stdout); /* the summary comes before what the child prints */
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "osprey: --report: fork: %s\n", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        char *argv[] = {prog, (char *)eve, "-o", (char *)html, NULL};
        execv(prog, argv);
        fprintf(stderr, "osprey: --report: %s: %s\n", prog, strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "osprey: --report: osprey-report failed\n");
        return -1;
    }
    printf("osprey: report in %s\n", html);
    return 0;
}
