/* fuzz_stream.c - libFuzzer target: the ff stream reader, binary and text,
 * single and multi-field.  Every field read must cross the writer (binary
 * and text) and the reader again unchanged, ids included. */
#define _POSIX_C_SOURCE 200809L
#include "fuzzmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = open_bytes(data, size);
    ff_reader r;
    ff_field field;
    ff_error err;
    ff_status st;
    size_t n, k;

    if (!f)
        abort();
    ff_reader_init(&r, f, "fuzz");
    ff_error_clear(&err);
    while ((st = ff_field_read(&r, &field, &err)) == FF_OK) {
        check_grid(&field.grid);
        n = (size_t)field.grid.w * (size_t)field.grid.h;
        for (k = 0; field.distance && k < n; k++)
            FUZZ_CHECK(field.distance[k] >= 0);
        for (k = 0; field.direction && k < n; k++)
            FUZZ_CHECK(field.direction[k] <= FF_DIR_NONE);
        roundtrip_field(&field, 0);
        roundtrip_field(&field, 1);
        ff_field_free(&field);
    }
    if (st != FF_ENOTFOUND) {
        FUZZ_CHECK(st == FF_EINPUT);
        FUZZ_CHECK(err.msg[0] != '\0' && !strchr(err.msg, '\n'));
        /* A failed read leaves nothing to free. */
        FUZZ_CHECK(!field.grid.cost && !field.distance && !field.direction && !field.extra);
    }
    fclose(f);
    return 0;
}
