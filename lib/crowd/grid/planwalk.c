/* planwalk.c - the walk of a MAPF plan; see planwalk.h and man 1 ffsim
 * ("PLANS"). */
#include <stdlib.h>

#include "planwalk.h"

void ff_planwalk_free(ff_crowd *c)
{
    struct ff_planwalk *P = c->planwalk;
    size_t k;

    if (!P)
        return;
    if (P->path)
        for (k = 0; k < P->n; k++)
            free(P->path[k]);
    free(P->path);
    free(P->len);
    free(P->agent);
    free(P->goal);
    free(P);
    c->planwalk = NULL;
}

ff_status ff_planwalk_set(ff_crowd *c, size_t n, uint32_t *agent, uint32_t **path, size_t *len,
                          ff_error *err)
{
    struct ff_planwalk *P;
    size_t k;

    ff_planwalk_free(c);
    if (!(P = c->planwalk = calloc(1, sizeof *P))) {
        for (k = 0; k < n; k++)
            free(path[k]);
        free(path);
        free(len);
        free(agent);
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the plan");
    }
    P->n = n;
    P->agent = agent;
    P->path = path;
    P->len = len;
    P->map_tick = c->profiles->map_tick;
    if (!(P->goal = malloc((n ? n : 1) * sizeof *P->goal))) {
        ff_planwalk_free(c);
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the plan");
    }
    for (k = 0; k < n; k++)
        P->goal[k] = c->agent_goal[agent[k]];
    return FF_OK;
}

/* Agent k of plan P's cell at tick t. */
static inline uint32_t cell_at(const struct ff_planwalk *P, size_t k, long long t)
{
    return P->path[k][(unsigned long long)t < P->len[k] ? (size_t)t : P->len[k] - 1];
}

int ff_planwalk_tick(ff_crowd *c, ff_requests *rq, size_t n)
{
    struct ff_planwalk *P = c->planwalk;
    long long t = c->tick;
    size_t k;

    if (!P || t < 1)
        return 0;  /* (tick 0: the spawns' marks alone) */
    if (n != P->n || P->map_tick != c->profiles->map_tick)
        goto stale;
    for (k = 0; k < n; k++) {
        uint32_t i = rq->agent[k];
        if (i != P->agent[k] || c->agent_goal[i] != P->goal[k] || rq->req[k].cell != cell_at(P, k, t - 1) ||
            rq->req[k].half != 0)
            goto stale;
    }
    for (k = 0; k < n; k++)
        rq->req[k].next = cell_at(P, k, t);
    c->stats.plan_ticks++;
    return 1;
stale:
    ff_planwalk_free(c);
    return 0;
}
