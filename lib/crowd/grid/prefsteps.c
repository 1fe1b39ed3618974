/* prefsteps.c - preferred next cells; see prefsteps.h and man 1 ffsim
 * ("PLANS").  An agent's cells are sorted once, and found by bisection:
 * a request reads one a tick. */
#include <stdlib.h>

#include "prefsteps.h"

void ff_prefsteps_free(ff_crowd *c)
{
    struct ff_prefsteps *P = c->prefsteps;

    if (!P)
        return;
    free(P->first);
    free(P->step);
    free(P);
    c->prefsteps = NULL;
}

static int cmp_cell(const void *pa, const void *pb)
{
    uint32_t a = ((const ff_prefstep *)pa)->cell, b = ((const ff_prefstep *)pb)->cell;
    return a < b ? -1 : a > b;
}

ff_status ff_prefsteps_set(ff_crowd *c, size_t n, uint32_t *const *path, const size_t *len, ff_error *err)
{
    struct ff_prefsteps *P;
    size_t i, t, total = 0;

    ff_prefsteps_free(c);
    for (i = 0; i < n; i++)
        total += len[i] > 1 ? len[i] - 1 : 0;
    if (!(P = c->prefsteps = calloc(1, sizeof *P)))
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the plan");
    P->n = n;
    P->first = malloc((n + 1) * sizeof *P->first);
    P->step = malloc((total ? total : 1) * sizeof *P->step);
    if (!P->first || !P->step) {
        ff_prefsteps_free(c);
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the plan");
    }
    for (i = 0, total = 0; i < n; i++) {
        P->first[i] = total;
        for (t = 0; t + 1 < len[i]; t++, total++) {
            P->step[total].cell = path[i][t];
            P->step[total].next = path[i][t + 1];
        }
        /* (a path holds no cell twice: a total order) */
        qsort(P->step + P->first[i], total - P->first[i], sizeof *P->step, cmp_cell);
    }
    P->first[n] = total;
    return FF_OK;
}

uint32_t ff_prefsteps_next(const struct ff_prefsteps *P, size_t i, uint32_t cell, uint32_t none_of_its)
{
    size_t lo, hi;

    if (i >= P->n)
        return none_of_its;
    lo = P->first[i];
    hi = P->first[i + 1];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (P->step[mid].cell < cell)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < P->first[i + 1] && P->step[lo].cell == cell ? P->step[lo].next : none_of_its;
}
