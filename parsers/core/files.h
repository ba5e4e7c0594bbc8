/* files.h — the file layer's producer API: what a protocol calls when what it parses carries
 * a file (an HTTP body, an ftp-data transfer, an SMTP attachment …): open, data, close. The
 * core keeps each file per flow (its transaction, direction, name, size, state), hashes it
 * incrementally (libcrypto EVP), asks libmagic about its first bytes, keeps its bytes for
 * filestore within the worker's memcap, and serves it to rules and records
 * (osprey_parsers_file_at). Internal to parsers/; the recipe is parsers/README.md
 * "Producing files". */
#ifndef OSPREY_PARSERS_FILES_H
#define OSPREY_PARSERS_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parsers_int.h"

/* Open a file of transaction tx_id in direction dir (0: the client sends it) named
 * name[0..nlen) (may be empty). Returns its id (> 0), or 0 when out of memory (data and
 * close on 0 do nothing). */
uint32_t pfile_open(struct pflow *pf, int dir, uint32_t tx_id, const void *name, size_t nlen);
/* n more bytes of file id, in order. */
void pfile_data(struct pflow *pf, uint32_t id, const void *d, size_t n);
/* The file is complete (truncated false: its hashes are final) or cut short (true). A file
 * already closed stays as it is. */
void pfile_close(struct pflow *pf, uint32_t id, bool truncated);
/* File id belongs to transaction tx_id after all: a producer whose transactions are numbered
 * when they are reported (HTTP/2's streams, which end in any order) opens its files under a
 * provisional id and gives them the real one before their events and their record. */
void pfile_set_tx(struct pflow *pf, uint32_t id, uint32_t tx_id);
/* Every file the flow still has open is cut short (the flow ends, a direction is lost):
 * dir -1 for both. */
void pfile_close_all(struct pflow *pf, int dir);
/* The files of transaction tx_id are reported: forget them (their kept bytes go back to the
 * memcap). */
void pfile_release_tx(struct pflow *pf, uint32_t tx_id);
/* The i-th file of the current transaction in direction dir (-1: both): what
 * osprey_parsers_file_at serves. */
bool pfile_at(struct pflow *pf, int dir, uint32_t i, struct osprey_file_info *out);
/* The flow goes: free its files. */
void pfile_free_all(struct pflow *pf);
/* The worker goes: its libmagic handle. */
void pfile_worker_free(struct osprey_parsers_worker *w);

/* The file rows a producing protocol adds to its buffers: file.name and file.magic (multi:
 * one element per file of the current transaction in that direction), each current under
 * the event that runs once the direction's message (its files) is complete. */
const uint8_t *pfile_buffer(struct pflow *pf, unsigned key, uint32_t i, struct osprey_scratch *s,
                            uint32_t *len);
enum { PFILE_KEY_NAME, PFILE_KEY_MAGIC }; /* + 2 * dir */
#define PFILE_ROW(name_, dir_, ev_, key_)                                                        \
    {.name = name_, .dir = dir_, .event = ev_, .multi = true, .late = false, .record = false,  \
     .key = (key_) + 2 * (dir_), .get = pfile_buffer}
#define PFILE_BUFFERS(ev_to_server, ev_to_client)                                              \
    PFILE_ROW("file.name", 0, ev_to_server, PFILE_KEY_NAME),                                   \
    PFILE_ROW("file.name", 1, ev_to_client, PFILE_KEY_NAME),                                   \
    PFILE_ROW("file.magic", 0, ev_to_server, PFILE_KEY_MAGIC),                                 \
    PFILE_ROW("file.magic", 1, ev_to_client, PFILE_KEY_MAGIC)

/* The file layer's counters (after every protocol's in the stats; registry.c). */
enum { PFILE_C_FILES, PFILE_C_BYTES_SHED, PFILE_C_TRUNCATED, PFILE_C__COUNT };
extern const char *const pfile_counter_names[PFILE_C__COUNT];

#endif
