/* Several messages (tasks, or their results) carried as one between rank 0 and a worker. Most of
 * a site's ruptures have fewer variations than a GPU's batch (USC on erf/demo: 7,936 of its
 * 13,228 ruptures have 18), and the device takes about as long for a batch of 18 as for one of
 * 128, so rank 0 hands a GPU rank several small ruptures at once and their variations share
 * batches (docs/extract.md, "Small ruptures together").
 *
 * Layout: the count (a long), each part's size (count longs), then the parts in order, each
 * from an offset that is a multiple of 8 (a result is read as doubles in place). */
#ifndef EXTRACT_MESSAGE_H
#define EXTRACT_MESSAGE_H

#include "cs_error.h"

/* Parts a message holds at most. */
enum { EXTRACT_MESSAGE_MOST = 256 };

/* The count parts part[i] of size[i] bytes as one message (*msg malloc'ed, *msg_size bytes). */
int extract_message_pack(char *const *part, const long *size, int count, char **msg, long *msg_size,
                         cs_error *err);
/* The parts of a message of msg_size bytes: *count of them, part[i] (into msg) of size[i] bytes,
 * i < *count <= EXTRACT_MESSAGE_MOST. An error (CS_ERR_INTERNAL, naming the rule) when the message
 * does not hold what its sizes say. */
int extract_message_parts(const char *msg, long msg_size, int *count, const char **part, long *size,
                          cs_error *err);

#endif
