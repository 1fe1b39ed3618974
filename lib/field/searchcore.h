/* searchcore.h - what the cell search (search.c) and the state search
 * (turnsearch.c) share: the first pass over the map and the queues (the
 * ring of buckets here, the heap in minheap.h).
 * Internal to lib/field; not installed. */
#ifndef FF_SEARCHCORE_H
#define FF_SEARCHCORE_H

#include <stdint.h>
#include <stdlib.h>

#include "grid.h"
#include "minheap.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ALWAYS_INLINE: a function to be written out at each call, so that its
 * constant arguments fold (the search loops' variants). */
#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* PREFETCH(p): ask the memory for the line at p, which may lie outside
 * any array (a hint never faults).  The search loops prefetch what the
 * entry PREFETCH_AHEAD places on in the bucket being emptied will read. */
#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif
#define PREFETCH_AHEAD 8

/* What the first pass learns about the open cells' costs. */
typedef struct {
    float cmin, cmax;  /* least and largest cost of an open cell */
} cost_range;

/* One pass over the map: set dist[0..w*h) to +inf, find the open cells'
 * cost range, and fill entry[i] (w*h bytes) with the entry mask of cell i,
 * bit d set when the forward step into i in direction d (from the cell at
 * i - step(d)) is legal.  Runs in two threads on a large map.  Returns -1
 * when out of memory. */
int ff_search_first_pass(const ff_grid *g, double *dist, uint8_t *entry, cost_range *range);


/* Growable list of cell indices: one bucket. */
typedef struct {
    uint32_t *cell;
    size_t n, cap;
} bucket;

static inline int bucket_grow(bucket *b)
{
    size_t cap = b->cap ? 2 * b->cap : 256;
    uint32_t *p = realloc(b->cell, cap * sizeof *p);

    if (!p)
        return -1;
    b->cell = p;
    b->cap = cap;
    return 0;
}

static inline int bucket_push(bucket *b, size_t cell)
{
    if (b->n == b->cap && bucket_grow(b) < 0)
        return -1;
    b->cell[b->n++] = (uint32_t)cell;
    return 0;
}

/* A ring of buckets, each width wide in distance: bucket k holds the cells
 * whose distance lies in [k * width, (k + 1) * width).  nbuckets is a power
 * of two larger than the largest step spans, so no two live buckets share
 * a slot. */
typedef struct {
    bucket *slot;
    size_t mask;       /* nbuckets - 1 */
    size_t cur;        /* the bucket being emptied */
    double inv_width;
    int failed;        /* a push ran out of memory */
} ring;

static inline int ring_init(ring *r, size_t nbuckets, double width)
{
    r->slot = calloc(nbuckets, sizeof *r->slot);
    r->mask = nbuckets - 1;
    r->cur = 0;
    r->inv_width = 1.0 / width;
    r->failed = 0;
    return r->slot ? 0 : -1;
}

static inline void ring_free(ring *r)
{
    size_t k;

    if (r->slot)
        for (k = 0; k <= r->mask; k++)
            free(r->slot[k].cell);
    free(r->slot);
}

/* The bucket of a distance.  Rounding may put a step's end below the
 * bucket being emptied; it goes into that bucket then, and is final
 * anyway. */
static inline bucket *ring_bucket(const ring *r, double dist)
{
    size_t k = (size_t)(int64_t)(dist * r->inv_width);
    return &r->slot[(k < r->cur ? r->cur : k) & r->mask];
}

/* Push cell into bucket b of ring r; when out of memory, the cell is
 * dropped and r->failed set, which the search loops look at once a
 * bucket, so that the relaxations need not pass a status back. */
static inline void ring_push(ring *r, bucket *b, size_t cell)
{
    if (b->n == b->cap && bucket_grow(b) < 0) {
        r->failed = 1;
        return;
    }
    b->cell[b->n++] = (uint32_t)cell;
}

#ifdef __cplusplus
}
#endif

#endif
