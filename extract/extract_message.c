#include "extract_message.h"

#include <stdlib.h>
#include <string.h>

static long padded(long n) {
    return (n + 7) / 8 * 8;
}

int extract_message_pack(char *const *part, const long *size, int count, char **msg, long *msg_size,
                         cs_error *err) {
    *msg = NULL;
    *msg_size = 0;
    if (count < 1 || count > EXTRACT_MESSAGE_MOST)
        return cs_error_set(err, CS_ERR_INTERNAL, "a message of %d parts (1 to %d)", count,
                            EXTRACT_MESSAGE_MOST);
    long at = (long)sizeof(long) * (1 + count);
    for (int i = 0; i < count; i++) {
        if (size[i] < 0)
            return cs_error_set(err, CS_ERR_INTERNAL, "part %d of %ld bytes", i, size[i]);
        at += padded(size[i]);
    }
    char *m = calloc(1, (size_t)at);
    if (!m)
        return cs_error_set(err, CS_ERR_RESOURCE, "out of memory for a message of %ld bytes", at);
    long head[1 + EXTRACT_MESSAGE_MOST];
    head[0] = count;
    memcpy(head + 1, size, sizeof(long) * (size_t)count);
    memcpy(m, head, sizeof(long) * (size_t)(1 + count));
    long off = (long)sizeof(long) * (1 + count);
    for (int i = 0; i < count; i++) {
        if (size[i]) memcpy(m + off, part[i], (size_t)size[i]);
        off += padded(size[i]);
    }
    *msg = m;
    *msg_size = at;
    return 0;
}

int extract_message_parts(const char *msg, long msg_size, int *count, const char **part, long *size,
                          cs_error *err) {
    *count = 0;
    long n;
    if (!msg || msg_size < (long)sizeof n)
        return cs_error_set(err, CS_ERR_INTERNAL, "a message of %ld bytes holds no count",
                            msg_size);
    memcpy(&n, msg, sizeof n);
    if (n < 1 || n > EXTRACT_MESSAGE_MOST || msg_size < (long)sizeof n * (1 + n))
        return cs_error_set(err, CS_ERR_INTERNAL,
                            "a message of %ld bytes says it holds %ld parts (1 to %d)", msg_size, n,
                            EXTRACT_MESSAGE_MOST);
    memcpy(size, msg + sizeof n, sizeof(long) * (size_t)n);
    long off = (long)sizeof n * (1 + n);
    for (long i = 0; i < n; i++) {
        if (size[i] < 0 || size[i] > msg_size - off)
            return cs_error_set(err, CS_ERR_INTERNAL,
                                "part %ld of a message of %ld bytes: %ld bytes from byte %ld", i,
                                msg_size, size[i], off);
        part[i] = msg + off;
        off += padded(size[i]);
    }
    *count = (int)n;
    return 0;
}
