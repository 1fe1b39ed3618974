/* fuzz.h - what the libFuzzer targets share: comparing two fields bit for
 * bit, and round-tripping a field through the stream writer and reader.
 *
 * A target that finds a difference calls abort(), which libFuzzer reports
 * as a crash with the input that caused it.
 */
#ifndef FF_FUZZ_H
#define FF_FUZZ_H


#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mapread.h"
#include "stream.h"

#define FUZZ_CHECK(cond)                                                        \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, "%s:%d: round trip differs: %s\n", __FILE__,        \
                    __LINE__, #cond);                                           \
            abort();                                                            \
        }                                                                       \
    } while (0)

/* Same bytes, or both absent. */
static inline int same_array(const void *a, const void *b, size_t bytes)
{
    if (!a || !b)
        return a == b;
    return memcmp(a, b, bytes) == 0;
}

static inline int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static inline void check_same_grid(const ff_grid *a, const ff_grid *b)
{
    size_t n;

    FUZZ_CHECK(a->w == b->w && a->h == b->h);
    n = (size_t)a->w * (size_t)a->h;
    FUZZ_CHECK(same_bits(a->cell_size, b->cell_size));
    FUZZ_CHECK(same_bits(a->origin_x, b->origin_x));
    FUZZ_CHECK(same_bits(a->origin_y, b->origin_y));
    FUZZ_CHECK(a->moves == b->moves && a->corners == b->corners);
    FUZZ_CHECK(same_bits(a->radius, b->radius));
    FUZZ_CHECK(same_array(a->cost, b->cost, n * sizeof *a->cost));
    FUZZ_CHECK(same_array(a->oneway, b->oneway, n));
    FUZZ_CHECK(same_array(a->terrain, b->terrain, n));
    FUZZ_CHECK(a->ngoals == b->ngoals);
    FUZZ_CHECK(a->ngoals == 0 || memcmp(a->goals, b->goals, a->ngoals * sizeof *a->goals) == 0);
    FUZZ_CHECK(a->nspawns == b->nspawns);
    FUZZ_CHECK(a->nspawns == 0 ||
               memcmp(a->spawns, b->spawns, a->nspawns * sizeof *a->spawns) == 0);
}

static inline void check_same_field(const ff_field *a, const ff_field *b)
{
    size_t n = (size_t)a->grid.w * (size_t)a->grid.h, k;

    check_same_grid(&a->grid, &b->grid);
    FUZZ_CHECK(same_array(a->distance, b->distance, n * sizeof *a->distance));
    FUZZ_CHECK(same_array(a->direction, b->direction, n));
    FUZZ_CHECK(a->map_id == b->map_id);
    FUZZ_CHECK(!a->distance || a->distance_id == b->distance_id);
    FUZZ_CHECK(!a->direction || a->direction_id == b->direction_id);
    FUZZ_CHECK(a->turn == b->turn && same_bits(a->turn_cost, b->turn_cost));
    FUZZ_CHECK(same_array(a->heading_distance, b->heading_distance,
                          8 * n * sizeof *a->heading_distance));
    FUZZ_CHECK(same_array(a->heading_direction, b->heading_direction, 8 * n));
    FUZZ_CHECK(!a->heading_direction || a->heading_direction_id == b->heading_direction_id);
    FUZZ_CHECK(strcmp(a->name, b->name) == 0);
    FUZZ_CHECK(a->nextra == b->nextra);
    for (k = 0; k < a->nextra; k++) {
        FUZZ_CHECK(strcmp(a->extra[k].name, b->extra[k].name) == 0);
        FUZZ_CHECK(a->extra[k].type == b->extra[k].type);
        FUZZ_CHECK(a->extra[k].lanes == b->extra[k].lanes);
        FUZZ_CHECK(a->extra[k].has_id == b->extra[k].has_id);
        FUZZ_CHECK(!a->extra[k].has_id || a->extra[k].id == b->extra[k].id);
        FUZZ_CHECK(memcmp(a->extra[k].data, b->extra[k].data,
                          n * (a->extra[k].lanes == 8 ? 8 : 1) *
                              ff_type_size(a->extra[k].type)) == 0);
    }
}

/* Write f in the given encoding, read it back, and check that the field
 * read is f, bit for bit.  A stream that the writer makes must always be
 * read back: anything else is a bug. */
static inline void roundtrip_field(const ff_field *f, int text)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&buf, &size);
    FILE *in;
    ff_reader r;
    ff_field back;
    ff_error err;
    ff_status st;

    if (!out)
        abort();
    st = ff_field_write(out, f, text, &err);
    FUZZ_CHECK(st == FF_OK);
    if (fclose(out) != 0)
        abort();
    in = fmemopen(buf, size, "rb");
    if (!in)
        abort();
    ff_reader_init(&r, in, "roundtrip");
    st = ff_field_read(&r, &back, &err);
    if (st != FF_OK)
        fprintf(stderr, "reading back (%s): %s:%ld:%ld: %s\n", text ? "text" : "binary",
                err.file, err.line, err.col, err.msg);
    FUZZ_CHECK(st == FF_OK);
    check_same_field(f, &back);
    ff_field_free(&back);
    /* Nothing may follow the one field written. */
    st = ff_field_read(&r, &back, &err);
    FUZZ_CHECK(st == FF_ENOTFOUND);
    fclose(in);
    free(buf);
}

/* A FILE over the fuzzer's bytes (glibc's fmemopen takes size 0 too). */
static inline FILE *open_bytes(const uint8_t *data, size_t size)
{
    static char empty[1];

    return fmemopen(size ? (void *)data : empty, size, "rb");
}

/* Parse a fixed map of the target's own (ffmap text, NUL-terminated) into
 * g, or abort: the targets that read a scenario need one. */
static inline void fuzz_fixed_map(const char *text, ff_grid *g)
{
    ff_map_options opt;
    ff_error err;

    ff_map_options_init(&opt);
    if (ff_map_parse((const unsigned char *)text, strlen(text), "map", &opt, g, &err) != FF_OK)
        abort();
}

#endif
