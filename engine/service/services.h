/* services.h — the services of a running pipeline as the pipeline's ops
 * (struct osprey_pipeline_services, pipeline.h): rule reloads (reload.c) and the Unix control
 * socket (control.c). Run modes pass &osprey_services to osprey_pipeline_open; the pipeline
 * calls back through it, so pipeline.c never includes service/.
 */
#ifndef OSPREY_SERVICES_H
#define OSPREY_SERVICES_H

#include "pipeline.h"

extern const struct osprey_pipeline_services osprey_services;

#endif
