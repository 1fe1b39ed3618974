/* testutil.h - small helpers shared by the Criterion suites. */
#ifndef FF_TESTUTIL_H
#define FF_TESTUTIL_H

#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid.h"

/* Open a string as a read-only FILE (fmemopen), for feeding readers. */
static inline FILE *tu_string_file(const char *s)
{
    return fmemopen((void *)s, strlen(s), "rb");
}

/* Path of a file under testdata/, whichever folder the test runs from. */
static inline const char *tu_testdata(const char *rel, char *buf, size_t cap)
{
    snprintf(buf, cap, "testdata/%s", rel);
    return buf;
}

/* splitmix64: a small seeded generator for reproducible random maps. */
static inline unsigned long long tu_next(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A w x h map from rows: '#' wall, '.' open (cost 1, class 0), 'w' open
 * of terrain class 1 (the terrain channel only when one is there), '~'
 * open of cost 2; the given corner rule. */
static inline void tu_make_grid(ff_grid *g, int w, int h, const char *rows, ff_corners corners)
{
    ff_error err;
    int i;

    ff_grid_init(g);
    cr_assert_eq(ff_grid_alloc(g, w, h, 0, "t", &err), FF_OK);
    g->corners = corners;
    for (i = 0; i < w * h; i++) {
        g->cost[i] = rows[i] == '#' ? INFINITY : rows[i] == '~' ? 2.0f : 1.0f;
        if (rows[i] == 'w') {
            if (!g->terrain) {
                g->terrain = calloc((size_t)(w * h), 1);
                cr_assert_not_null(g->terrain);
            }
            g->terrain[i] = 1;
        }
    }
}

/* Brute force, independent of walls.c: the distance from (x, y) to the
 * nearest blocked cell or the outside of the map, over every cell. */
static inline double tu_wall_distance(const ff_grid *g, double x, double y)
{
    double best = INFINITY;
    int i, j;
    for (j = -1; j <= g->h; j++)
        for (i = -1; i <= g->w; i++) {
            double qx, qy, d;
            if (i >= 0 && j >= 0 && i < g->w && j < g->h && isfinite(g->cost[j * g->w + i]))
                continue;
            qx = x < i ? i : x > i + 1 ? i + 1 : x;
            qy = y < j ? j : y > j + 1 ? j + 1 : y;
            d = hypot(x - qx, y - qy);
            if (d < best)
                best = d;
        }
    return best;
}

/* The cells a sight line from cell (ax, ay) may cross, by definition (the
 * line-of-sight references): open, of the same cost and the same class. */
typedef struct {
    const ff_grid *g;
    float cost;
    uint8_t cls;
} tu_sight_cells;

static inline tu_sight_cells tu_sight_from(const ff_grid *g, long long ax, long long ay)
{
    tu_sight_cells r;
    r.g = g;
    r.cost = g->cost[ay * g->w + ax];
    r.cls = g->terrain ? g->terrain[ay * g->w + ax] : 0;
    return r;
}

static inline int tu_sight_open(const tu_sight_cells *r, long long i, long long j)
{
    size_t k;

    if (i < 0 || j < 0 || i >= r->g->w || j >= r->g->h)
        return 0;
    k = (size_t)j * (size_t)r->g->w + (size_t)i;
    return isfinite(r->g->cost[k]) && r->g->cost[k] == r->cost &&
           (!r->g->terrain || r->g->terrain[k] == r->cls);
}

#endif
