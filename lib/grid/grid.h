/* grid.h - the graph a map makes: cells, terrain costs, one-way cells,
 * terrain classes, the move set and the corner rule (man 1 ffbuild, "The
 * graph").
 *
 * Cells are a flat array indexed y * w + x; (0,0) is the north-west cell and
 * north is -y.  A grid owns every array it points to; ff_grid_free() releases
 * them.
 */
#ifndef FF_GRID_H
#define FF_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "fferror.h"
#include "ranges.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Direction codes, in tie-break order; also the stored direction channel. */
enum {
    FF_DIR_N = 0, FF_DIR_E, FF_DIR_S, FF_DIR_W,
    FF_DIR_NE, FF_DIR_SE, FF_DIR_SW, FF_DIR_NW,
    FF_DIR_GOAL = 8,  /* this cell is a goal */
    FF_DIR_NONE = 9   /* wall or unreachable */
};

/* Step offsets of the eight directions, indexed by code. */
extern const int ff_dir_dx[8];
extern const int ff_dir_dy[8];
/* Names "N", "E", ... indexed by code. */
extern const char *const ff_dir_name[8];

typedef enum { FF_CORNERS_STRICT = 0, FF_CORNERS_CUT, FF_CORNERS_FREE } ff_corners;

/* Largest accepted W*H unless a caller asks for another limit
 * (32768 x 32768). */
#define FF_MAX_CELLS_DEFAULT ((uint64_t)1 << 30)

/* One-way mask meaning "may leave in every direction". */
#define FF_ONEWAY_ALL 0xFFu

/* 1 when cell_size and the origin are within their ranges (ranges.h:
 * FF_CELL_MIN to FF_CELL_MAX, |origin| at most FF_ORIGIN_MAX). */
int ff_grid_geometry_ok(double cell_size, double origin_x, double origin_y);

typedef struct ff_grid {
    int32_t w, h;           /* cells; both >= 1 once read */
    double cell_size;       /* world units per cell, > 0 (default 1) */
    double origin_x, origin_y; /* world position of the north-west corner */
    int moves;              /* 4 or 8 */
    ff_corners corners;     /* diagonal rule */
    double radius;          /* clearance radius in world units, >= 0 */
    float *cost;            /* w*h terrain costs >= 0; +inf = blocked */
    uint8_t *oneway;        /* NULL, or w*h masks: bit d = may leave toward d */
    uint8_t *terrain;       /* NULL, or w*h terrain classes (Moving AI) */
    uint32_t *goals;        /* goal cell indices, ascending, no repeats */
    size_t ngoals;
    uint32_t *spawns;       /* spawn cell indices (ffmap S tiles), ascending */
    size_t nspawns;
} ff_grid;

/* Zero a grid and set the defaults (cell 1, origin 0 0, 8 moves, strict). */
void ff_grid_init(ff_grid *g);

/* Release everything a grid owns and zero it. */
void ff_grid_free(ff_grid *g);

/* Allocate cost (all +inf) for w x h cells after checking that w*h is at
 * most max_cells (0 = FF_MAX_CELLS_DEFAULT). */
ff_status ff_grid_alloc(ff_grid *g, int64_t w, int64_t h, uint64_t max_cells,
                        const char *file, ff_error *err);

/* Check that w and h are positive and w*h <= max_cells before anything is
 * multiplied or allocated. */
ff_status ff_check_size(int64_t w, int64_t h, uint64_t max_cells,
                        const char *file, long line, ff_error *err);

/* Deep copy. */
ff_status ff_grid_copy(ff_grid *dst, const ff_grid *src, ff_error *err);

static inline int ff_grid_open(const ff_grid *g, size_t i)
{
    return g->cost[i] <= 3.4e38f; /* finite: not +inf, not NaN */
}

#define FF_SQRT2 1.41421356237309504880

/* Length of a step in direction d, in cells: 1 or sqrt(2). */
double ff_step_length(int d);

/* 1 when the forward step from cell (x,y) in direction d is a legal move:
 * d within the move set, both ends open and in the map, the one-way mask of
 * the start allows d, same terrain class, and for a diagonal the corner rule
 * holds for the two side cells. */
int ff_grid_step_ok(const ff_grid *g, int x, int y, int d);

/* Fill out[i] with the mask of legal forward steps from cell i (bit d).
 * out has w*h bytes. */
void ff_grid_step_masks(const ff_grid *g, uint8_t *out);

/* Cost of the forward step from cell i in direction d (assumed legal):
 * length * (cost(i) + cost(next)) / 2, in world units (times cell_size). */
double ff_grid_step_cost(const ff_grid *g, size_t i, int d);

/* Refuse (FF_EINPUT, naming file, line and col) a goal cell (x,y) outside
 * the map or on a blocked cell. */
ff_status ff_grid_check_goal(const ff_grid *g, int64_t x, int64_t y, const char *file,
                             long line, long col, ff_error *err);

/* Sort n cell indices ascending and drop repeats in place; returns how
 * many remain. */
size_t ff_cells_sort(uint32_t *cells, size_t n);

/* Sort g->goals and drop repeats (after appending goals in any order). */
void ff_grid_sort_goals(ff_grid *g);

/* Free the terrain channel when every open cell is of class 0: a map of
 * one class has no class channel. */
void ff_grid_drop_one_class(ff_grid *g);

/* Parse a comma-separated list of direction names ("E", "N,NE,NW"; no
 * blanks, none empty) into a one-way mask, bit d for direction d.
 * Returns 0, or -1 for an unknown or empty name. */
int ff_dirs_parse(const char *list, uint8_t *mask);

/* Add goal cell (x,y); refuses a cell outside the map or on a wall.
 * Keeps the list sorted and without repeats (cheap in ascending order;
 * for many goals in another order, append checked cells and call
 * ff_grid_sort_goals once). */
/* 1 when cell i is a goal of g; g->goals must be ascending
 * (ff_grid_sort_goals).  A binary search. */
int ff_grid_is_goal(const ff_grid *g, size_t i);

/* The first index from lo on of g's sorted goals whose cell is not below
 * cell i (g->ngoals when there is none): a binary search. */
size_t ff_grid_goal_lower_bound(const ff_grid *g, size_t lo, size_t i);

ff_status ff_grid_add_goal(ff_grid *g, int64_t x, int64_t y, const char *file,
                           long line, long col, ff_error *err);

/* Append goal cell (x,y) to g->goals, whose capacity is *cap elements
 * (g->ngoals for a list not grown by this function before), after the
 * checks of ff_grid_check_goal; the list is left in the order given, with
 * repeats, until ff_grid_sort_goals: n goals in any order cost n log n.
 * FF_ENOMEM when memory runs out (the list as it was). */
ff_status ff_grid_append_goal(ff_grid *g, size_t *cap, int64_t x, int64_t y, const char *file,
                              long line, long col, ff_error *err);

/* Close every open cell whose center is nearer than radius (world units) to
 * a blocked cell or to the map edge, using an exact Euclidean distance
 * transform.  Sets g->radius.  Goals and spawns are not touched. */
ff_status ff_grid_apply_clearance(ff_grid *g, double radius, ff_error *err);

/* Local clearance, for repairs (repair.h): what ff_grid_apply_clearance()
 * decides for one cell, found from the cells within the radius alone. */

/* 1 when a clearance of radius (world units) closes cell (x,y) of map, the
 * map before any clearance: the cell is blocked, or its center is nearer
 * than radius to a blocked cell, the map edge or a border of classes. */
int ff_grid_cleared_at(const ff_grid *map, double radius, int x, int y);

/* 1 when the center of cell (x,y) is nearer than radius to the cells of
 * the rectangle x0..x1, y0..y1 (inclusive): closing them closes (x,y) too
 * under that clearance. */
int ff_grid_near_cells(const ff_grid *g, double radius, int x, int y, int x0, int y0, int x1,
                       int y1);

/* A key of the cells a clearance of radius closes: two radii with the
 * same key close the same cells of every map of g's size and cell size
 * (whatever its walls).  The clearance compares squared distances in half
 * cells, sums of two squares, with (2 radius / cell size)^2: the key is
 * the largest such sum below it (-1 for radius 0, which closes nothing;
 * +inf for a radius that closes every cell of a map of that size). */
double ff_clearance_key(const ff_grid *g, double radius);

/* How many cells from a changed cell a clearance of radius can change:
 * ceil(radius / cell_size). */
int ff_clearance_reach(const ff_grid *g, double radius);

/* The cells x0..x1, y0..y1 grown by reach cells on every side and clipped
 * to g: *bx0..*bx1, *by0..*by1 (empty, *bx0 > *bx1, when nothing is left).
 * Every walk over a radius-derived box goes through it, so that a radius
 * far larger than the map costs no more than the map. */
void ff_grid_clip_box(const ff_grid *g, int64_t x0, int64_t y0, int64_t x1, int64_t y1,
                      int64_t reach, int *bx0, int *by0, int *bx1, int *by1);

const char *ff_corners_name(ff_corners c);
/* Parse "strict", "cut" or "free"; -1 if none. */
int ff_corners_parse(const char *s);

#ifdef __cplusplus
}
#endif

#endif
