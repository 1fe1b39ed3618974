/* congestion.h - congestion fields: beside each profile's static field,
 * one whose cell costs are raised by the crowd's density, so that agents
 * spread over the ways to their goals instead of all queueing at the
 * nearest one (man 1 ffsim, "CONGESTION").  The policy is explicit: the
 * static field is never touched, and what the congestion field holds is
 * a congestion cost to the goals, not a distance.
 *
 * The density is each present agent's unit mass split bilinearly over
 * the four cells whose centers surround it (as Treuille, Cooper and
 * Popovic splat it in Continuum Crowds, 2006), over the cell's area:
 * agents per square world unit.  A cell's congestion cost is its static
 * cost times 1 + w * density, w the scenario's congestion-weight (square
 * world units per agent), cut at FF_CONGESTION_COST_MAX so that a cell
 * never closes; the field is searched and its directions taken as the
 * static field's are, with the same goals.  Cells open on the map but
 * closed by the profile's clearance keep the static field's directions
 * (they lead back into the profile's room).
 *
 * A refresh (begin, add every present agent, finish) changes the cost
 * of the cells whose density changed since the last one, and repairs
 * every profile's congestion field for those changes (repair.h: the same
 * bits as a whole search); the first refresh, and the first after a map
 * event, search it whole.  A congestion field is in use
 * only while it was built on the map its profile's published field was
 * built on: after a map event agents follow the static field again until
 * the next refresh after the publication.  The congestion owns every
 * array it points to and borrows the profiles; ff_congestion_free()
 * releases it.
 */
#ifndef FF_CONGESTION_H
#define FF_CONGESTION_H

#include <stdint.h>

#include "grid.h"
#include "profiles.h"
#include "repair.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest congestion cost of a cell: finite, so the cell stays open. */
#define FF_CONGESTION_COST_MAX 1e30f

typedef struct {
    ff_grid grid;             /* the profile's grid, congestion costs */
    long long grid_map_tick;  /* the profiles' map_tick its copy is of;
                                 LLONG_MIN before the first copy */
    double *cost_to_goal;     /* w*h: congestion cost to the nearest goal,
                                 world units of raised cost; not a
                                 distance */
    uint8_t *direction;       /* w*h: its direction codes */
    int flat;                 /* its directions have a zero-cost tie (for
                                 ff_repair_directions) */
    uint32_t *lead_out;       /* the cells the profile's clearance closes
                                 that have a static direction ... */
    size_t nlead_out;         /* ... and how many */
    long long built_map_tick; /* the map it was built on */
    int built;                /* 1 once a refresh built it */
} ff_congestion_field;

typedef struct {
    ff_profiles *profiles;    /* borrowed: the static fields */
    double weight;            /* w: square world units per agent, > 0 */
    double threshold;         /* rho0: the density that costs nothing,
                                 agents per square world unit, >= 0 */
    long long period;         /* ticks between refreshes, >= 1 */
    double *density;          /* w*h: agents per square world unit, as
                                 of the last refresh (0 off the list) */
    uint8_t *listed;          /* w*h: 1 on the cells of the list */
    uint32_t *cells;          /* the list: every cell whose density is not
                                 0, or was not at the refresh before */
    size_t ncells, cap_cells;
    ff_cell_change *change;   /* scratch: a field's changed cells */
    int failed;               /* an add ran out of memory */
    ff_repair repair;         /* the repairs' scratch, shared */
    ff_congestion_field *field; /* one per profile */
    size_t nfields;
    unsigned long long refreshes; /* refreshes run */
    unsigned long long searches;  /* congestion fields searched whole */
    double seconds;           /* processor seconds spent refreshing */
} ff_congestion;

/* Set up congestion fields beside every profile of p, with weight w and
 * a refresh every period ticks; none is built until the first refresh.
 * FF_ENOMEM on failure (then g is left empty). */
ff_status ff_congestion_init(ff_congestion *g, ff_profiles *p, double weight, double threshold,
                             long long period, ff_error *err);
void ff_congestion_free(ff_congestion *g);

/* 1 when a refresh is due at tick t (t = 1, 1 + period, ...). */
static inline int ff_congestion_due(const ff_congestion *g, long long t)
{
    return t >= 1 && (t - 1) % g->period == 0;
}

/* A refresh: begin (the density to zero), add each present agent at its
 * world position (x, y) in a fixed order, finish (the fields repaired or
 * searched).  The sums are taken in the order added, so the same order
 * gives the same fields.  FF_ENOMEM on failure (an add's too). */
void ff_congestion_begin(ff_congestion *g);
void ff_congestion_add(ff_congestion *g, double x, double y);
ff_status ff_congestion_finish(ff_congestion *g, ff_error *err);

/* The congestion directions of profile k, or NULL when its congestion
 * field is not in use (never built, or built on another map than its
 * published field's); the caller then follows the static field. */
static inline const uint8_t *ff_congestion_direction(const ff_congestion *g, size_t k)
{
    const ff_congestion_field *f = &g->field[k];
    return f->built && f->built_map_tick == g->profiles->map_tick ? f->direction : NULL;
}

#ifdef __cplusplus
}
#endif

#endif
