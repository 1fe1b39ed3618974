/* spatialhash.h - a uniform spatial hash of points, rebuilt whole each
 * tick, for neighbour search without an O(n^2) pass (man 1 ffsim).
 *
 * Space is cut into square buckets of a given size; bucket (bx, by) lives
 * in slot (by * C + bx mod C) mod S of a table of S slots, S the next power
 * of two at or above twice the number of points and C about its square
 * root: the plane wrapped onto a small torus, so that a rebuild costs O(n)
 * whatever the size of the map and neighbouring buckets stay close in
 * memory.  The build is a counting sort: within
 * a slot, entries are in ascending item order whatever the order the
 * points came in (items are distinct), which makes every walk over the
 * hash deterministic.  Different buckets may share a
 * slot; each entry records its bucket so a query can skip strangers.
 */
#ifndef FF_SPATIALHASH_H
#define FF_SPATIALHASH_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "fferror.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double x, y;     /* position, world units */
    int32_t bx, by;  /* its bucket */
    uint32_t item;   /* the caller's index (an agent) */
    uint32_t tag;    /* the caller's, kept as given (ffsim: the agent's
                        class, so that a walk over the hash need not read
                        the agents) */
} ff_shash_entry;

typedef struct {
    double bucket_size;     /* world units, > 0 */
    double inv_bucket;      /* 1 / bucket_size */
    uint32_t mask;          /* table slots - 1 */
    unsigned cols_log2;     /* the table as a grid: 2^cols_log2 columns */
    uint32_t col_mask;      /* 2^cols_log2 - 1 */
    uint32_t *start;        /* mask + 3 offsets into entry; owned */
    ff_shash_entry *entry;  /* the points, grouped by slot; owned */
    size_t n;               /* points held */
    uint32_t *slot_of;      /* scratch: each point's slot, bx and by;
                               owned */
    size_t cap_entries, cap_slots;
} ff_shash;

void ff_shash_init(ff_shash *h);
void ff_shash_free(ff_shash *h);

/* The bucket coordinate of a world coordinate (floor, clamped to
 * +-2^30). */
static inline int32_t ff_shash_bucket(const ff_shash *h, double v)
{
    double f = v * h->inv_bucket;
    int32_t i;
    if (!(f > -1073741824.0))
        return -1073741824;
    if (f > 1073741824.0)
        return 1073741824;
    i = (int32_t)f;  /* truncation, then down for negative fractions */
    return i - ((double)i > f);
}

/* Buckets map onto the table as a grid wrapped on itself (2^cols_log2
 * columns), so that neighbouring buckets sit in neighbouring slots. */
static inline uint32_t ff_shash_slot(const ff_shash *h, int32_t bx, int32_t by)
{
    return (((uint32_t)by << h->cols_log2) | ((uint32_t)bx & h->col_mask)) & h->mask;
}

/* Replace the contents with the n points given (x, y, item; bx and by are
 * filled in), n <= 2^30, items distinct.  Points in item order, or in the
 * order of an earlier build's entries, are placed fastest.  points is the
 * caller's and is not kept.  Allocates only when n outgrows every earlier
 * build.  FF_ENOMEM on failure. */
ff_status ff_shash_build(ff_shash *h, double bucket_size, const ff_shash_entry *points,
                         size_t n, ff_error *err);

/* The entries of the slot holding bucket (bx, by): [*first, *end).  They
 * may include other buckets' points: compare bx and by. */
static inline void ff_shash_slot_range(const ff_shash *h, int32_t bx, int32_t by,
                                       const ff_shash_entry **first,
                                       const ff_shash_entry **end)
{
    uint32_t s = ff_shash_slot(h, bx, by);
    *first = h->entry + h->start[s];
    *end = h->entry + h->start[s + 1];
}

/* The entries of the buckets bx .. *last of row by that sit in
 * consecutive slots: [*first, *end), in the order of the buckets, then of
 * the slots' entries, so that a walk over it meets the same entries in the
 * same order as walks over the buckets one by one.  *last is the largest
 * bucket up to bx_hi before the row wraps round the table.  Entries of
 * other buckets may be among them: keep only by and bx .. *last. */
static inline void ff_shash_row_run(const ff_shash *h, int32_t bx, int32_t bx_hi, int32_t by,
                                    int32_t *last, const ff_shash_entry **first,
                                    const ff_shash_entry **end)
{
    uint32_t s = ff_shash_slot(h, bx, by);
    uint32_t room = h->col_mask - ((uint32_t)bx & h->col_mask);
    uint32_t span = (uint32_t)(bx_hi - bx);
    if (span > room)
        span = room;
    *last = bx + (int32_t)span;
    *first = h->entry + h->start[s];
    *end = h->entry + h->start[s + span + 1];
}

#ifdef __cplusplus
}
#endif

#endif
