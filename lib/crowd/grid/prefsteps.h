/* prefsteps.h - preferred next cells: for some agents on some cells, the
 * cell to try first, before the field's best (a plan's scatter, man 1
 * ffsim, "PLANS").  The grid moves (gridmove.c) read it into each
 * request's preferred cell; whoever gives it to a crowd made it from
 * paths (crowdplan.c, from plan/scatter.c's).  For lib/crowd's own use.
 */
#ifndef FF_PREFSTEPS_H
#define FF_PREFSTEPS_H

#include "crowdint.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A cell and the next cell preferred from it. */
typedef struct {
    uint32_t cell, next;
} ff_prefstep;

/* Per agent, its cells that have a preferred next cell, ascending, with
 * that cell: agent i's are step[first[i] .. first[i + 1]). */
struct ff_prefsteps {
    size_t n;                  /* agents */
    size_t *first;             /* n + 1 */
    ff_prefstep *step;
};

/* Give crowd c (before its tick 0) the preferred steps of paths: agent
 * i (of n, c's index) on path[i][t] tries path[i][t + 1] first (len[i]
 * cells, no cell twice; 0: none).  The crowd keeps them until freed
 * (ff_prefsteps_free, which ff_gridmove_free calls).  FF_ENOMEM (the
 * crowd then has none). */
ff_status ff_prefsteps_set(ff_crowd *c, size_t n, uint32_t *const *path, const size_t *len, ff_error *err);

void ff_prefsteps_free(ff_crowd *c);

/* Agent i's preferred next cell from cell, or none_of_its when it has
 * none there.  The grid moves' requests and the complement's moves take
 * it first, before the field's best: as LaCAM3's PIBT takes its scatter's
 * (Okumura, AAMAS 2024). */
uint32_t ff_prefsteps_next(const struct ff_prefsteps *P, size_t i, uint32_t cell, uint32_t none_of_its);

#ifdef __cplusplus
}
#endif

#endif
