/* grow.c - an array grown by doubling; see grow.h. */
#include "grow.h"

#include <stdint.h>
#include <stdlib.h>

void *ff_grow(void *array, size_t *cap, size_t need, size_t size,
              size_t min_cap)
{
    size_t c = *cap;
    void *grown;

    if (need <= c)
        return array;
    if (size == 0 || need > SIZE_MAX / size)
        return NULL;
    if (c < min_cap)
        c = min_cap;
    if (c == 0)
        c = 1;
    while (c < need)
        c = c > SIZE_MAX / 2 ? need : 2 * c;
    if (c > SIZE_MAX / size)
        c = need;
    if (!(grown = realloc(array, c * size)))
        return NULL;
    *cap = c;
    return grown;
}
