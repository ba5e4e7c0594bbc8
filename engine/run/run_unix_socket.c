/* run_unix_socket.c — `osprey --unix-socket[=PATH]` (run_unix_socket.h).
 *
 * One pipeline (rules compiled once, one worker) and the control socket; the loop takes the
 * jobs the pcap-file commands queue (service/pcap_jobs.h) one at a time: the outputs are moved
 * to the job's output directory, its files are read as -r reads them, its flows ended (their
 * records written there), then the file is deleted if asked. A continuous job watches its
 * directory for new files until pcap-interrupt. SIGTERM or the shutdown command ends the run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture_watch.h"
#include "daemon.h"
#include "log.h"
#include "osprey_log_file.h"
#include "pcap_jobs.h"
#include "pipeline.h"
#include "run_unix_socket.h"
#include "services.h"
#include "signals.h"

static int one_batch(void *arg, struct mon_packet *batch, int n)
{
    struct osprey_worker *w = arg;
    for (int k = 0; k < n; k++)
        osprey_worker_packet(w, &batch[k]);
    return 0;
}

static void run_job(struct osprey_pipeline *pl, const struct osprey_pcap_job *job)
{
    osprey_log(OSPREY_LOG_INFO, "pcap-file: %s -> %s", job->filename, job->output_dir);
    if (osprey_emit_redirect(pl->emit, pl->cfg, job->output_dir, stderr) < 0)
        osprey_log(OSPREY_LOG_ERROR, "pcap-file: cannot open the outputs in %s",
                   job->output_dir);
    struct osprey_capture_watch w = {0};
    uint64_t pkts = 0, bytes = 0;
    /* a watched directory is often empty: it is not reported */
    osprey_capture_read_new(pl, job->filename, job->continuous, job->delete_when_done, one_batch,
                            &pl->w[0], &w, &pkts, &bytes);
    /* continuous: look again every 200 ms until pcap-interrupt or the end of the run */
    bool stop = false;
    while (job->continuous && !osprey_pcap_jobs_interrupted(pl->jobs) &&
           !(stop = osprey_signal_take(OSPREY_SIG_STOP))) {
        usleep(200 * 1000);
        osprey_capture_read_new(pl, job->filename, true, job->delete_when_done, one_batch,
                                &pl->w[0], &w, &pkts, &bytes);
    }
    if (stop) /* the run loop ends on it */
        osprey_signal_raise(OSPREY_SIG_STOP);
    osprey_capture_watch_free(&w);
    osprey_worker_flush(&pl->w[0]); /* every flow of the job ends: its records go with it */
    osprey_log_sync_all();          /* all out when the job is reported done */
    osprey_log(OSPREY_LOG_INFO, "pcap-file: %s done, %llu packets", job->filename,
               (unsigned long long)pkts);
    osprey_pcap_jobs_done(pl->jobs, pkts ? pl->w[0].ew.clock_us / 1000 : 0);
}

int osprey_run_unix_socket(const struct osprey_options *opts, const struct osprey_config *cfg)
{
    struct osprey_pipeline pl = {0};
    struct osprey_pcap_jobs *q = osprey_pcap_jobs_create();
    int rc = OSPREY_EXIT_FAILURE;
    osprey_signals_install();
    if (!q || osprey_pipeline_open(&pl, opts, cfg, 1, &osprey_services) < 0)
        goto out;
    pl.jobs = q; /* before any client: the socket answers only once the daemon is ready */
    osprey_daemon_ready();
    printf("osprey: waiting for pcap-file jobs on the control socket\n");
    fflush(stdout);
    struct osprey_pcap_job job;
    while (!osprey_signal_take(OSPREY_SIG_STOP)) {
        if (osprey_signal_take(OSPREY_SIG_REOPEN))
            osprey_emit_reopen(pl.emit, stderr);
        if (osprey_pcap_jobs_next(q, 200, &job))
            run_job(&pl, &job);
    }
    rc = OSPREY_EXIT_OK;
out:
    if (osprey_pipeline_close(&pl) < 0)
        rc = OSPREY_EXIT_FAILURE;
    osprey_pcap_jobs_free(q);
    return rc;
}
