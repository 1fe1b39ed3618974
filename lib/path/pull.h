/* pull.h - paths in world units (reading, writing) and string pulling
 * (man 1 ffpull).
 *
 * String pulling keeps a subsequence of a path's points: from each kept
 * point it jumps to the farthest later point in line of sight (los.h).
 */
#ifndef FF_PULL_H
#define FF_PULL_H

#include <stdio.h>

#include "grid.h"
#include "records.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A path: n points, each with the input line it came from.  Owns its
 * arrays; ff_path_free() releases them. */
typedef struct {
    double *xy;   /* 2n values: x0 y0 x1 y1 ..., world units */
    long *line;   /* n input line numbers, 0 for points made in memory */
    size_t n, cap;
} ff_path;

void ff_path_init(ff_path *p);
void ff_path_free(ff_path *p);

/* Append a point.  FF_ENOMEM (with err filled) when memory runs out. */
ff_status ff_path_push(ff_path *p, double x, double y, long line, ff_error *err);

/* Append every `x y` record that r yields until the end of input.
 * Malformed lines and non-finite numbers are refused with their line and
 * column (records.h). */
ff_status ff_path_read(ff_path *p, ff_records *r, ff_error *err);

/* Write x and y as one line `x y`, each number in the shortest form that
 * reads back to the same double (%.15g, %.16g or %.17g). */
void ff_point_write(FILE *out, double x, double y);

/* Length of the polyline through n points xy (2n values). */
double ff_polyline_length(const double *xy, size_t n);

/* String-pull path on grid g.  Every point must lie in an open cell of g
 * (else FF_EINPUT naming its line in file); at least two points are needed.
 * keep (n entries, the caller's) receives the indices of the kept points,
 * ascending, first and last included; *nkeep their count.
 *
 * The pull of the seed article: from the anchor (the first point, then
 * each kept point i) the next kept point is the farthest point of the
 * path in sight of i, found by testing the points from the last one
 * backwards; i+1 is kept when nothing farther is in sight (it is never
 * checked, so a path step that crosses terrain of another cost survives
 * as it is).  A straight run costs one sight test a jump; at worst, when
 * every later point is out of sight, O(n) tests a jump (man 1 ffpull,
 * "The jump"). */
ff_status ff_pull(const ff_grid *g, const ff_path *path, const char *file,
                  size_t *keep, size_t *nkeep, ff_error *err);

#ifdef __cplusplus
}
#endif

#endif
