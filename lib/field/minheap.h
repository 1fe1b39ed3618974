/* minheap.h - a binary min-heap of (distance, cell), for the library's own
 * searches (search.c, repair.c); not installed.
 *
 * Equal keys leave in no promised order; the searches using it do not
 * depend on one.  The items are the heap's own; heap_free() releases
 * them.
 */
#ifndef FF_MINHEAP_H
#define FF_MINHEAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double key;
    uint32_t cell;
} heap_item;

typedef struct {
    heap_item *item;
    size_t n, cap;
} heap;

/* Add (key, cell); -1 when out of memory (the heap is unchanged). */
static inline int heap_push(heap *h, double key, uint32_t cell)
{
    size_t i;

    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 1024;
        heap_item *p = realloc(h->item, cap * sizeof *p);
        if (!p)
            return -1;
        h->item = p;
        h->cap = cap;
    }
    i = h->n++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (h->item[parent].key <= key)
            break;
        h->item[i] = h->item[parent];
        i = parent;
    }
    h->item[i].key = key;
    h->item[i].cell = cell;
    return 0;
}

/* Remove and return an item of least key; h must not be empty. */
static inline heap_item heap_pop(heap *h)
{
    heap_item top = h->item[0], last = h->item[--h->n];
    size_t i = 0;

    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->item[c + 1].key < h->item[c].key)
            c++;
        if (last.key <= h->item[c].key)
            break;
        h->item[i] = h->item[c];
        i = c;
    }
    if (h->n > 0)
        h->item[i] = last;
    return top;
}

static inline void heap_free(heap *h)
{
    free(h->item);
    h->item = NULL;
    h->n = h->cap = 0;
}

#ifdef __cplusplus
}
#endif

#endif
