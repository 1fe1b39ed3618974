/* grow.h - room for one more: an array grown by doubling, the one helper
 * for the idiom every growing list of the library uses (goals, portals,
 * changes, agents, queue cells), with its size checked for overflow before
 * anything is allocated.
 */
#ifndef FF_GROW_H
#define FF_GROW_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Make array (capacity *cap elements of size bytes each; NULL with *cap 0
 * for none yet) hold at least need elements.  When *cap is enough, array
 * is returned as it is.  Otherwise the capacity doubles from
 * max(*cap, min_cap) until it reaches need, the array is reallocated, *cap
 * set and the new pointer returned.  NULL when need * size would overflow
 * or memory runs out: then array and *cap are untouched and still the
 * caller's to free.  The elements past the old capacity are uninitialised.
 */
void *ff_grow(void *array, size_t *cap, size_t need, size_t size,
              size_t min_cap);

#ifdef __cplusplus
}
#endif

#endif
