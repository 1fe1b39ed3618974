/* placement.h - where a scenario's spawn rules may put their agents: the
 * disks placed so far, found through a hash of square buckets (so that
 * placing n agents costs O(n) tests, man 5 ffsim), and the open area a
 * rule draws in (for the limit on how many it may place).
 */
#ifndef FF_PLACEMENT_H
#define FF_PLACEMENT_H

#include <stddef.h>
#include <stdint.h>

#include "fferror.h"
#include "grid.h"

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

#ifdef __cplusplus
}
#endif

#endif
