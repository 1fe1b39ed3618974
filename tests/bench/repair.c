/* repair.c - the in-process repair of ffbuild --update against a full
 * search of the changed map (ff_search), on a SIZE x SIZE map of cost 1,
 * 8 moves, one goal in a corner, and square rooms of side 16 to 1024 whose
 * walls have one one-cell door each.  For each room: close its door
 * (every cell inside loses its way: raised to +inf), then open it again
 * (lowered back); each repair is checked bit for bit against a full
 * search of the changed map, and both are timed, the fastest of REPEAT
 * runs.  Prints one line per room and change.  Reading and writing a
 * stream are not part of either time.
 *
 *   repair SIZE REPEAT */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "repair.h"
#include "search.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A room of side s (inner cells) with its north-west inner corner at
 * (x0, y0): walls round it, the door in the middle of its west wall. */
static size_t room(ff_grid *g, int x0, int y0, int s)
{
    int k;

    for (k = -1; k <= s; k++) {
        g->cost[(size_t)(y0 - 1) * (size_t)g->w + (size_t)(x0 + k)] = INFINITY;
        g->cost[(size_t)(y0 + s) * (size_t)g->w + (size_t)(x0 + k)] = INFINITY;
        g->cost[(size_t)(y0 + k) * (size_t)g->w + (size_t)(x0 - 1)] = INFINITY;
        g->cost[(size_t)(y0 + k) * (size_t)g->w + (size_t)(x0 + s)] = INFINITY;
    }
    return (size_t)(y0 + s / 2) * (size_t)g->w + (size_t)(x0 - 1);
}

int main(int argc, char **argv)
{
    int size = argc > 1 ? atoi(argv[1]) : 4096, repeat = argc > 2 ? atoi(argv[2]) : 3;
    static const int sides[] = { 16, 64, 256, 1024 };
    size_t n = (size_t)size * (size_t)size, doors[4], k;
    ff_grid g;
    ff_error err;
    ff_repair r;
    double *dist, *want;
    int s, x0 = 64, rep, ch;

    ff_grid_init(&g);
    if (size < 1200 || ff_grid_alloc(&g, size, size, 0, NULL, &err) != FF_OK) {
        fprintf(stderr, "repair: want a size of at least 1200\n");
        return 2;
    }
    for (k = 0; k < n; k++)
        g.cost[k] = 1;
    for (s = 0; s < 4; s++) {
        doors[s] = room(&g, x0, size - sides[s] - 64, sides[s]);
        g.cost[doors[s]] = 1;
        x0 += sides[s] + 64;
    }
    if (ff_grid_add_goal(&g, 1, 1, NULL, 0, 0, &err) != FF_OK)
        return 2;
    dist = malloc(n * sizeof *dist);
    want = malloc(n * sizeof *want);
    if (!dist || !want || ff_search(&g, dist, &err) != FF_OK)
        return 3;
    ff_repair_init(&r);
    printf("%-6s %-6s %10s %10s %12s %12s %8s\n", "room", "door", "cells", "moved", "repair_s",
           "search_s", "ratio");
    for (s = 0; s < 4; s++)
        for (ch = 0; ch < 2; ch++) {
            ff_cell_change c = { (uint32_t)doors[s], ch == 0 ? INFINITY : 1.0f };
            ff_cell_change back = { (uint32_t)doors[s], ch == 0 ? 1.0f : INFINITY };
            double best_repair = INFINITY, best_search = INFINITY, t;
            ff_repair_stats st;
            for (rep = 0; rep < repeat; rep++) {
                if (rep > 0 &&  /* undo, untimed */
                    ff_repair_field(&r, &g, dist, &back, 1, NULL, &err) != FF_OK)
                    return 3;
                t = now();
                if (ff_repair_field(&r, &g, dist, &c, 1, &st, &err) != FF_OK)
                    return 3;
                t = now() - t;
                best_repair = t < best_repair ? t : best_repair;
                t = now();
                if (ff_search(&g, want, &err) != FF_OK)
                    return 3;
                t = now() - t;
                best_search = t < best_search ? t : best_search;
                if (memcmp(dist, want, n * sizeof *dist) != 0) {
                    fprintf(stderr, "repair: the repaired field differs from the search\n");
                    return 1;
                }
            }
            printf("%-6d %-6s %10d %10zu %12.6f %12.6f %8.0f%s\n", sides[s],
                   ch == 0 ? "close" : "open", sides[s] * sides[s], st.moved, best_repair,
                   best_search, best_search / best_repair, st.rebuilt ? " (searched whole)" : "");
        }
    ff_repair_free(&r);
    ff_grid_free(&g);
    free(dist);
    free(want);
    return 0;
}
