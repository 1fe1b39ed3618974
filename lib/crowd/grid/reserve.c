/* reserve.c - wait-for cycles among cell-to-cell requests; see
 * reserve.h. */
#include "reserve.h"

#include <string.h>

/* (the crowd's requests are aligned to 64: one line each on LP64) */
_Static_assert(sizeof(void *) != 8 || sizeof(long) != 8 || sizeof(ff_reserve_request) == 64,
               "ff_reserve_request is one 64-byte line");

size_t ff_reserve_cycles(const uint32_t *waits_on, size_t n, int32_t *cycle, uint8_t *scratch)
{
    size_t k, ncycles = 0;

    /* scratch: 0 unseen, 1 on the walk being followed, 2 done. */
    memset(scratch, 0, n);
    for (k = 0; k < n; k++)
        cycle[k] = -1;
    for (k = 0; k < n; k++) {
        size_t v = k;
        if (scratch[k])
            continue;
        while (v < n && scratch[v] == 0) {
            scratch[v] = 1;
            v = waits_on[v] == FF_RESERVE_NONE ? n : waits_on[v];
        }
        if (v < n && scratch[v] == 1 && waits_on[v] != v) {  /* (no node waits on itself) */
            size_t u = v;
            do {
                cycle[u] = (int32_t)ncycles;
                u = waits_on[u];
            } while (u != v);
            ncycles++;
        }
        for (v = k; v < n && scratch[v] == 1; v = waits_on[v] == FF_RESERVE_NONE ? n : waits_on[v])
            scratch[v] = 2;
    }
    return ncycles;
}
