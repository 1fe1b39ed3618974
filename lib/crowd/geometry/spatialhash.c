/* spatialhash.c - the uniform spatial hash; see spatialhash.h. */
#include "spatialhash.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hugepage.h"

#define PLACE_AHEAD 16
#if defined(__GNUC__)
#define PREFETCH_W(p) __builtin_prefetch((p), 1)
#else
#define PREFETCH_W(p) ((void)(p))
#endif

void ff_shash_init(ff_shash *h)
{
    memset(h, 0, sizeof *h);
    h->bucket_size = 1;
    h->inv_bucket = 1;
}

void ff_shash_free(ff_shash *h)
{
    free(h->start);
    free(h->entry);
    free(h->slot_of);
    ff_shash_init(h);
}

ff_status ff_shash_build(ff_shash *h, double bucket_size, const ff_shash_entry *points,
                         size_t n, ff_error *err)
{
    size_t slots = 2, k;
    int ascending = 1;

    if (n > ((size_t)1 << 30) || n > SIZE_MAX / (3 * sizeof *h->slot_of))
        return ff_error_set(err, FF_EINPUT, NULL, 0, 0, "too many points for the spatial hash (%zu)", n);
    while (slots < 2 * n)
        slots *= 2;
    if (slots > h->cap_slots) {
        uint32_t *s = realloc(h->start, (slots + 2) * sizeof *s);
        if (!s)
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the spatial hash");
        h->start = s;
        h->cap_slots = slots;
        ff_want_huge_pages(s, (slots + 2) * sizeof *s);
    }
    if (n > h->cap_entries) {
        ff_shash_entry *e = realloc(h->entry, n * sizeof *e);
        if (!e)
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the spatial hash");
        uint32_t *so;
        h->entry = e;
        ff_want_huge_pages(e, n * sizeof *e);
        so = realloc(h->slot_of, 3 * n * sizeof *so);
        if (!so)
            return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the spatial hash");
        h->slot_of = so;
        ff_want_huge_pages(so, 3 * n * sizeof *so);
        h->cap_entries = n;
    }
    h->bucket_size = bucket_size;
    h->inv_bucket = 1.0 / bucket_size;
    h->mask = (uint32_t)(slots - 1);
    h->cols_log2 = 0;
    while (((size_t)1 << (2 * (h->cols_log2 + 1))) <= slots)
        h->cols_log2++;
    h->col_mask = ((uint32_t)1 << h->cols_log2) - 1;
    h->n = n;
    /* Counting sort by slot: count each slot's points into start[s + 2],
     * so that the prefix sums leave start[s + 1] at slot s's first place;
     * placing in input order advances it to slot s + 1's first place,
     * where it belongs, and each slot lists its points in the order
     * given. */
    memset(h->start, 0, (slots + 2) * sizeof *h->start);
    for (k = 0; k < n; k++) {
        int32_t bx = ff_shash_bucket(h, points[k].x), by = ff_shash_bucket(h, points[k].y);
        uint32_t sl = ff_shash_slot(h, bx, by);
        h->slot_of[3 * k] = sl;
        h->slot_of[3 * k + 1] = (uint32_t)bx;
        h->slot_of[3 * k + 2] = (uint32_t)by;
        h->start[sl + 2]++;
        ascending &= k == 0 || points[k].item > points[k - 1].item;
    }
    for (k = 2; k <= slots; k++)
        h->start[k] += h->start[k - 1];
    for (k = 0; k < n; k++) {
        ff_shash_entry *e;
        /* The places are scattered: ask for the line of one further on
         * early, for writing (changes nothing but speed). */
        if (k + PLACE_AHEAD < n)
            PREFETCH_W(&h->entry[h->start[h->slot_of[3 * (k + PLACE_AHEAD)] + 1]]);
        e = &h->entry[h->start[h->slot_of[3 * k] + 1]++];
        *e = points[k];
        e->bx = (int32_t)h->slot_of[3 * k + 1];
        e->by = (int32_t)h->slot_of[3 * k + 2];
    }
    if (!ascending) {
        /* Points given out of item order: sort each slot's run by item, by
         * insertion (runs are short, and nearly sorted when the points
         * come in the order of an earlier build). */
        for (k = 1; k < n; k++) {
            ff_shash_entry e = h->entry[k];
            const ff_shash_entry *prev = &h->entry[k - 1];
            uint32_t sl = ff_shash_slot(h, e.bx, e.by);
            size_t j = k;
            /* (Both tests, then one branch: a misplaced entry is rare.) */
            if (!((prev->item > e.item) & (ff_shash_slot(h, prev->bx, prev->by) == sl)))
                continue;
            while (j > 0 && h->entry[j - 1].item > e.item &&
                   ff_shash_slot(h, h->entry[j - 1].bx, h->entry[j - 1].by) == sl) {
                h->entry[j] = h->entry[j - 1];
                j--;
            }
            h->entry[j] = e;
        }
    }
    return FF_OK;
}
