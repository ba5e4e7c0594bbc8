/* services.c — reloads and the control socket as one struct osprey_pipeline_services
 * (services.h): started in that order once the workers are set up, stopped in the reverse. */
#include "control.h"
#include "reload.h"
#include "services.h"

static int start(struct osprey_pipeline *pl)
{
    return osprey_reload_start(pl) < 0 || osprey_control_start(pl) < 0 ? -1 : 0;
}

static void stop(struct osprey_pipeline *pl)
{
    osprey_control_stop(pl); /* a control request may be waiting on a reload */
    osprey_reload_stop(pl);
}

static void lock(struct osprey_pipeline *pl)
{
    osprey_reload_lock(pl->reload);
}

static void unlock(struct osprey_pipeline *pl)
{
    osprey_reload_unlock(pl->reload);
}

const struct osprey_pipeline_services osprey_services = {
    .start = start,
    .stop = stop,
    .worker_switch = osprey_reload_switch,
    .lock = lock,
    .unlock = unlock,
};
