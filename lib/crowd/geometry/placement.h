/* placement.h - where a scenario's spawn rules may put their agents: the
 * disks placed so far, found through a hash of square buckets (so that
 * placing n agents costs O(n) tests, man 5 ffsim), the open area a rule
 * draws in (for the limit on how many it may place), whether a place is
 * clear of the walls, and the draws themselves (splitmix64).
 */
#ifndef FF_PLACEMENT_H
#define FF_PLACEMENT_H

#include <stddef.h>
#include <stdint.h>

#include "fferror.h"
#include "grid.h"
#include "walls.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double x, y, radius;  /* world units */
    long long tick;       /* spawn tick: only disks of one tick clash */
} ff_placed;

typedef struct {
    double bucket;            /* bucket side, world units, > 0 */
    double origin_x, origin_y;
    uint32_t mask;            /* slots - 1: a power of two, >= 2 * n */
    int32_t *head;            /* per slot: the last disk chained, or -1 */
    int32_t *next;            /* per disk: the one chained before it */
    ff_placed *disk;          /* the disks, in the order added; owned */
    size_t n, cap;
} ff_placement;

void ff_placement_init(ff_placement *p);
void ff_placement_free(ff_placement *p);

/* Begin with buckets of bucket world units (twice the largest radius
 * suits) from the origin given.  FF_ENOMEM on failure. */
ff_status ff_placement_start(ff_placement *p, double bucket, double origin_x, double origin_y);

/* Add a disk (the table grows to keep two slots a disk). */
ff_status ff_placement_add(ff_placement *p, double x, double y, double radius, long long tick);

/* 1 when a disk at (x, y) of radius would overlap a disk of the same tick
 * added so far; max_radius bounds every added disk's radius. */
int ff_placement_overlaps(const ff_placement *p, double x, double y, double radius,
                          long long tick, double max_radius);

/* The open area (world units squared) a spawn rule draws in: the spawn
 * cells' area, or with rect (x0, y0, x1, y1) the parts of the open cells
 * inside it. */
double ff_placement_area(const ff_grid *g, const double *rect);

/* splitmix64 (Steele, Lea and Flood 2014): advances *state by
 * 0x9e3779b97f4a7c15 and returns the mixed value.  The spawn rules' only
 * source of randomness. */
uint64_t ff_splitmix64(uint64_t *state);

/* 0 when (x, y) is a clear place for a disk of radius rad among the
 * walls w (of w's grid), else why not: 1 outside the map, 2 on a wall,
 * 3 too near a wall. */
int ff_placement_problem(const ff_walls *w, double x, double y, double rad);

/* Up to tries draws of a place (*fx, *fy) for a disk of radius rad
 * entering at tick, in rect (x0, y0, x1, y1, world units; NULL: in w's
 * grid's spawn cells), from the stream of *seed: 2 and the first clear of
 * the walls and of p's disks (max_radius bounds theirs); 1 and the first
 * clear of the walls when every one overlaps a disk; 0 when none is
 * clear of the walls. */
int ff_placement_draw(const ff_placement *p, const ff_walls *w, const double *rect, uint64_t *seed,
                      int tries, double rad, long long tick, double max_radius, double *fx, double *fy);

#ifdef __cplusplus
}
#endif

#endif
