/* Messages of several tasks or results (extract/extract_message.h): what is packed comes back part
 * for part, each part 8-byte aligned, and a message whose sizes lie is refused. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "extract_message.h"
#include "tf.h"

/* A message packed and the room to read it back. */
typedef struct {
    char *msg;
    long size;
    cs_error err;
    int count;
    const char *got[EXTRACT_MESSAGE_MOST];
    long got_size[EXTRACT_MESSAGE_MOST];
} packed;

static int pack(packed *p, char *const *part, const long *size, int n) {
    cs_error_clear(&p->err);
    return extract_message_pack(part, size, n, &p->msg, &p->size, &p->err);
}

static int unpack(packed *p, long size) {
    return extract_message_parts(p->msg, size, &p->count, p->got, p->got_size, &p->err);
}

TEST(extract_message_gives_back_its_parts) {
    char a[] = "first", b[13], c[1] = {0};
    for (int i = 0; i < 13; i++)
        b[i] = (char)(100 + i);
    char *part[] = {a, b, c, a};
    long size[] = {(long)sizeof a, 13, 0, 3};
    packed p;
    CHECK(pack(&p, part, size, 4) == 0);
    CHECK(unpack(&p, p.size) == 0);
    CHECK_MSG(p.count == 4, "count %d", p.count);
    for (int i = 0; i < p.count && i < 4; i++) {
        CHECK_MSG(p.got_size[i] == size[i], "part %d: %ld bytes", i, p.got_size[i]);
        CHECK(!memcmp(p.got[i], part[i], (size_t)size[i]));
        CHECK_MSG((uintptr_t)(p.got[i] - p.msg) % 8 == 0, "part %d at %ld", i,
                  (long)(p.got[i] - p.msg));
    }
    free(p.msg);
}

TEST(extract_message_refuses_a_message_that_lies) {
    char a[40] = "a task";
    char *part[] = {a, a};
    long size[] = {40, 21};
    packed p;
    CHECK(pack(&p, part, size, 2) == 0);
    /* cut short: the last part's bytes are missing */
    CHECK(unpack(&p, p.size - 16) != 0);
    CHECK(p.count == 0);
    CHECK(strstr(p.err.message, "part 1") != NULL);
    /* a count past the most, and none */
    long bad = EXTRACT_MESSAGE_MOST + 1;
    memcpy(p.msg, &bad, sizeof bad);
    CHECK(unpack(&p, p.size) != 0);
    bad = 0;
    memcpy(p.msg, &bad, sizeof bad);
    CHECK(unpack(&p, p.size) != 0);
    /* a part's size past the message */
    bad = 2;
    memcpy(p.msg, &bad, sizeof bad);
    long huge = p.size;
    memcpy(p.msg + sizeof(long), &huge, sizeof huge);
    CHECK(unpack(&p, p.size) != 0);
    CHECK(unpack(&p, 4) != 0);
    free(p.msg);
    CHECK(pack(&p, part, size, 0) != 0);
    CHECK(pack(&p, part, size, EXTRACT_MESSAGE_MOST + 1) != 0);
}
