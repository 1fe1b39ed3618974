/* turnsearch - time the cell search or the state search alone on a map,
 * for bench_turn.sh.
 *
 *   turnsearch MAP GX GY C
 *
 * Reads MAP with ff_map_read (8 moves, strict corners), puts one goal at
 * GX,GY and times one call: ff_search() when C is "cell", else
 * ff_turn_search() with turn cost C.  Fresh arrays, as ffbuild allocates
 * them, so the first touch of their pages is counted.  Prints "seconds S
 * cpu C states N reached R sum D": N the states searched (cells, or 8 a
 * cell), R those of finite distance, D the sum of the cells' least
 * distances.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mapread.h"
#include "search.h"
#include "turn.h"

static double clock_seconds(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    ff_map_options opt;
    ff_grid g;
    ff_error err;
    FILE *f;
    double *dist, *hdist = NULL, t0, t, c0, c, sum = 0, turn_cost = 0;
    size_t n, i, reached = 0;
    int cell;
    ff_status st;

    if (argc != 5) {
        fprintf(stderr, "usage: turnsearch MAP GX GY cell|C\n");
        return 2;
    }
    cell = strcmp(argv[4], "cell") == 0;
    if (!cell)
        turn_cost = atof(argv[4]);
    if (!(f = fopen(argv[1], "rb"))) {
        perror(argv[1]);
        return 2;
    }
    ff_map_options_init(&opt);
    ff_error_clear(&err);
    if (ff_map_read(f, argv[1], &opt, &g, &err) != FF_OK) {
        ff_error_print(stderr, "turnsearch", &err);
        return 2;
    }
    fclose(f);
    g.moves = 8;
    g.corners = FF_CORNERS_STRICT;
    free(g.goals);
    g.goals = NULL;
    g.ngoals = 0;
    if (ff_grid_add_goal(&g, atoll(argv[2]), atoll(argv[3]), "-g", 0, 0, &err) != FF_OK) {
        ff_error_print(stderr, "turnsearch", &err);
        return 2;
    }
    n = (size_t)g.w * (size_t)g.h;
    dist = malloc(n * sizeof *dist);
    if (!cell)
        hdist = ff_turn_distances_alloc(n);
    if (!dist || (!cell && !hdist)) {
        fprintf(stderr, "turnsearch: out of memory\n");
        return 3;
    }
    c0 = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
    t0 = clock_seconds(CLOCK_MONOTONIC);
    st = cell ? ff_search(&g, dist, &err) : ff_turn_search(&g, turn_cost, hdist, dist, &err);
    t = clock_seconds(CLOCK_MONOTONIC) - t0;
    c = clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - c0;
    if (st != FF_OK) {
        ff_error_print(stderr, "turnsearch", &err);
        return 3;
    }
    for (i = 0; i < n; i++)
        if (isfinite(dist[i])) {
            reached++;
            sum += dist[i];
        }
    printf("seconds %.6f cpu %.6f states %zu reached %zu sum %.6f\n", t, c, cell ? n : 8 * n,
           cell ? reached : 8 * reached, sum);
    free(dist);
    free(hdist);
    ff_grid_free(&g);
    return 0;
}
