/* goalfield.h - the fields of agents' own goals ('agent ... goal GX,GY',
 * 'spawn ... scen FILE'): one per distinct goal cell and profile, shared
 * by every agent with that goal and radius, built lazily (the first time
 * an agent needs it) on its profile's grid, and again the first time it
 * is needed after the profile publishes a rebuild (a map event).
 * field_builds and field_bytes count them (man 1 ffsim, "OWN GOALS"):
 * a field searched by hop counts (breadth first when whole at once, else
 * an A* toward the first cell asked for: see ff_goalfield) holds a
 * direction code a cell (1 byte) and its hop counts, on grids of fewer
 * than 65,535 cells a plane of 16-bit counts (3 bytes a cell in all),
 * on larger ones in tiles of 16 x 16 cells made as its search reaches
 * them (hoptiles.h: 2 bytes a cell of the tiles made, 4 in a wide tile,
 * and an index of 8 bytes a tile), and queues about the size of its
 * search's front; one of the general search 9 bytes a cell (a double
 * and a code).  ff_goalfields_field_bytes bounds a field's bytes.  The
 * store owns every array it points to (the costs of hop counts too, one
 * table a step cost); ff_goalfields_free() releases them.
 */
#ifndef FF_GOALFIELD_H
#define FF_GOALFIELD_H

#include <stdint.h>

#include "costview.h"
#include "profiles.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FF_GOALFIELD_NONE UINT32_MAX

/* A queue of cells of a field's search (see ff_goalfield). */
typedef struct {
    uint32_t *cell;
    size_t head, tail, cap;
} ff_goalqueue;

typedef struct {
    int32_t profile;        /* index into the profiles */
    uint32_t goal;          /* the goal cell */
    uint64_t built_id;      /* the profile's field id it was built for */
    int built;              /* 1 once its cost and direction hold it */
    /* Its cost to the goal (+inf: no way), read through
     * ff_goalfields_cost: searched by hop counts (4 moves, one cost
     * everywhere), a hop count a cell, on grids of fewer than 65,535
     * cells a uint16_t a cell (hop; all ones: unreached), else in tiles
     * (tiles; allocated once, never moves, kept while the field is built
     * again), and hops, the store's costs of hop counts (costview.h);
     * else distance, a double a cell (hops NULL). */
    double *distance;
    uint16_t *hop;
    ff_hoptiles *tiles;
    ff_hopcost *hops;
    uint8_t *direction;     /* w*h direction codes (in block) */
    unsigned char *block;   /* the cost (but tiles), then the codes */
    size_t block_bytes;
    /* A field of hop counts grows from its goal, as far as its readers
     * ask (lazily), by a reverse resumable A* (Silver 2005): the
     * heuristic is the Manhattan distance to its aim, the first cell it
     * was asked for (aim, at aim_x, aim_y; FF_GOALFIELD_NONE while it has
     * not grown, or when grown whole at once: then it is breadth first),
     * and cells leave the open set in order of f = hops + heuristic, then
     * of hops, so that a cell's hop count is exact when it leaves it, and
     * so is that of every cell one hop nearer the goal.  A cell's cost
     * and code are final once it has a code (it has left the open set)
     * or the open set is empty (the field is whole).  A step changes the
     * heuristic by one either way, so f grows by 0 or 2 from a cell to
     * the next, and the open set is three queues of cells, each in order
     * of hops (read in hop, never in the queue): open[0], the cells of
     * the current f offered while the f before it was taken, open[1],
     * those offered while the current f is taken, and open[2], those of
     * the next f; a cell is taken from the first two, the fewer hops
     * first.  A cell offered fewer hops than it has is offered again
     * (the old entry, taken later, changes nothing).  Each queue is
     * cell[head..tail) of cap slots, its cells moved to its start when
     * the tail reaches its end, and twice as long when they fill half.
     * A whole field's queues are freed (searching 0).  pops counts the
     * cells taken, for tests. */
    ff_goalqueue open[3];
    int searching;
    uint32_t aim;
    int32_t aim_x, aim_y;
    uint64_t pops;
} ff_goalfield;

typedef struct {
    ff_goalfield *field;
    size_t nfields, cap;
    ff_hopcost **hopcost;   /* the costs of hop counts, one a step cost */
    size_t nhopcost;
    uint64_t *key;          /* open addressing: (profile, goal) + 1 ... */
    uint32_t *slot_field;   /* ... -> index into field */
    size_t nslots;          /* a power of two, or 0 */
    unsigned long long builds;      /* fields built */
    unsigned long long build_bytes; /* their bytes: as built, and the
                                       tiles their searches make */
    /* The uniform cost of the profile grid last built on (cost_profile,
     * cost_id; -1: none yet), so that a crowd of own goals on one profile
     * scans its grid's costs once, not once a goal. */
    int32_t cost_profile;
    uint64_t cost_id;
    float cost_uniform;
    /* 1: fields of hop counts are searched only as far as their readers
     * ask (ff_goalfields_settle), for crowds whose every reader asks
     * first (cell-to-cell moves with reservations); 0: whole at once. */
    int lazy;
    /* 1 once a search could not grow its queues (out of memory): the
     * field stopped short; ff_goalfields_status reports it. */
    int nomem;
    /* Per profile (nsteps of them, grown as needed): its 4 moves' steps
     * out of each cell (low 4 bits, its step mask's) and into it (high 4:
     * bit 4 + d when the cell one step back in direction d steps d into
     * it), made for the profile's field id steps_id, for the
     * search of hop counts. */
    uint8_t **steps;
    uint64_t *steps_id;
    size_t nsteps;
} ff_goalfields;

void ff_goalfields_init(ff_goalfields *s);
void ff_goalfields_free(ff_goalfields *s);

/* The index of the field of goal cell goal on profile, added (unbuilt)
 * when new.  FF_ENOMEM. */
ff_status ff_goalfields_find(ff_goalfields *s, int32_t profile, uint32_t goal, uint32_t *index,
                             ff_error *err);

/* Build field index when it is not built for its profile's published
 * field (nothing while the profile is stale).  FF_ENOMEM. */
ff_status ff_goalfields_ensure(ff_goalfields *s, ff_profiles *p, uint32_t index, ff_error *err);

/* The most bytes an own goal's field on grid g takes (without its
 * queues): searched by hop counts (4 moves, every open cell of one
 * cost), 3 a cell on grids of fewer than 65,535 cells, else a code a
 * cell and ff_hoptiles_bound (every tile made); else 9 a cell (a double
 * and a code). */
uint64_t ff_goalfields_field_bytes(const ff_grid *g);

/* Profile profile's field of id from has id to (built late: see
 * ff_profile.built): the fields, steps and costs made for from are for
 * to. */
void ff_goalfields_rename(ff_goalfields *s, int32_t profile, uint64_t from, uint64_t to);

/* Take field index's search on until cell is final (see ff_goalfield),
 * or to its end when cell is FF_GOALFIELD_NONE; nothing for a cell its
 * profile closes (never reached: +inf is final). */
void ff_goalfields_grow(ff_goalfields *s, const ff_profiles *p, uint32_t index, uint32_t cell);

/* 1 while field index may still grow. */
static inline int ff_goalfields_lazy(const ff_goalfields *s, uint32_t index)
{
    return s->field[index].searching;
}

/* Make cell of built field index final: what every reader of a lazy
 * field does first. */
static inline void ff_goalfields_settle(ff_goalfields *s, const ff_profiles *p, uint32_t index,
                                        uint32_t cell)
{
    const ff_goalfield *f = &s->field[index];
    if (f->searching && f->direction[cell] == FF_DIR_NONE)
        ff_goalfields_grow(s, p, index, cell);
}

/* Settle cell, and make final the costs of the cells one legal step from
 * it: its profile's steps, or from a cell the profile closes (a lead-out
 * cell) those of grid g, the map (what a cell-to-cell request and its
 * grant read: the code of cell, the costs round it).  Those cells are
 * settled too, but for the ones that step into cell: their cost is final
 * once cell is (see goalfield.c), their code only once they are settled
 * themselves. */
void ff_goalfields_settle_steps(ff_goalfields *s, const ff_profiles *p, uint32_t index,
                                const ff_grid *g, uint32_t cell);

/* FF_ENOMEM when a search stopped short for want of memory (the run
 * must end), else FF_OK. */
ff_status ff_goalfields_status(const ff_goalfields *s, ff_error *err);

/* The cost to goal of built field index. */
static inline ff_cost_view ff_goalfields_cost(const ff_goalfields *s, uint32_t index)
{
    const ff_goalfield *f = &s->field[index];
    ff_cost_view v;
    v.cells = !f->hops ? (const void *)f->distance : f->hops->tiled ? (const void *)f->tiles : (const void *)f->hop;
    v.hops = f->hops;
    return v;
}

/* The directions of field index, or NULL while its profile is stale or
 * the field is not built for the published one. */
static inline const uint8_t *ff_goalfields_direction(const ff_goalfields *s, const ff_profiles *p,
                                                     uint32_t index)
{
    const ff_goalfield *f = &s->field[index];
    const ff_profile *pf = &p->profile[f->profile];
    return !pf->stale && f->built && f->built_id == pf->id ? f->direction : NULL;
}

#ifdef __cplusplus
}
#endif

#endif
