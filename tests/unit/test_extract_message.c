/* Messages of several tasks or results (extract/extract_message.h): what is packed comes back part
 * for part, each part 8-byte aligned, and a message whose sizes lie is refused. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "extract_message.h"
#include "tf.h"

TEST(extract_message_gives_back_its_parts) {
    char a[] = "first", b[13], c[1] = {0};
    for (int i = 0; i < 13; i++)
        b[i] = (char)(100 + i);
    char *part[] = {a, b, c, a};
    long size[] = {(long)sizeof a, 13, 0, 3};
    char *msg;
    long msg_size;
    cs_error err;
    cs_error_clear(&err);
    CHECK(extract_message_pack(part, size, 4, &msg, &msg_size, &err) == 0);
    int count;
    const char *got[EXTRACT_MESSAGE_MOST];
    long got_size[EXTRACT_MESSAGE_MOST];
    CHECK(extract_message_parts(msg, msg_size, &count, got, got_size, &err) == 0);
    CHECK_MSG(count == 4, "count %d", count);
    for (int i = 0; i < count && i < 4; i++) {
        CHECK_MSG(got_size[i] == size[i], "part %d: %ld bytes", i, got_size[i]);
        CHECK(!memcmp(got[i], part[i], (size_t)size[i]));
        CHECK_MSG((uintptr_t)(got[i] - msg) % 8 == 0, "part %d at %ld", i, (long)(got[i] - msg));
    }
    free(msg);
}

TEST(extract_message_refuses_a_message_that_lies) {
    char a[40] = "a task";
    char *part[] = {a, a};
    long size[] = {40, 21};
    char *msg;
    long msg_size;
    cs_error err;
    cs_error_clear(&err);
    CHECK(extract_message_pack(part, size, 2, &msg, &msg_size, &err) == 0);
    int count;
    const char *got[EXTRACT_MESSAGE_MOST];
    long got_size[EXTRACT_MESSAGE_MOST];
    /* cut short: the last part's bytes are missing */
    CHECK(extract_message_parts(msg, msg_size - 16, &count, got, got_size, &err) != 0);
    CHECK(count == 0);
    CHECK(strstr(err.message, "part 1") != NULL);
    /* a count past the most, and none */
    long bad = EXTRACT_MESSAGE_MOST + 1;
    memcpy(msg, &bad, sizeof bad);
    cs_error_clear(&err);
    CHECK(extract_message_parts(msg, msg_size, &count, got, got_size, &err) != 0);
    bad = 0;
    memcpy(msg, &bad, sizeof bad);
    CHECK(extract_message_parts(msg, msg_size, &count, got, got_size, &err) != 0);
    /* a part's size past the message */
    bad = 2;
    memcpy(msg, &bad, sizeof bad);
    long huge = msg_size;
    memcpy(msg + sizeof(long), &huge, sizeof huge);
    CHECK(extract_message_parts(msg, msg_size, &count, got, got_size, &err) != 0);
    CHECK(extract_message_parts(msg, 4, &count, got, got_size, &err) != 0);
    free(msg);
    CHECK(extract_message_pack(part, size, 0, &msg, &msg_size, &err) != 0);
    CHECK(extract_message_pack(part, size, EXTRACT_MESSAGE_MOST + 1, &msg, &msg_size, &err) != 0);
}
