/* ffsearch - time the cell search or the state search alone on a map, for
 * the benchmarks (bench_ffbuild.sh, bench_turn.sh).
 *
 *   ffsearch [-t C | -a] MAP GX GY [CORNERS [DUMP]]
 *
 * Reads MAP with ff_map_read, takes 8 moves and the corner rule CORNERS
 * (strict, cut or free; default strict), puts one goal at GX,GY and times
 * one call: ff_search(), with -t ff_turn_search() with turn cost C, or
 * with -a ff_anyangle_search().
 * Fresh arrays, allocated as ffbuild allocates them, so the first touch of
 * their pages is counted as it is in ffbuild.  Prints "seconds S cpu C
 * states N reached R sum D": C the processor time of the call, all threads
 * together (the searches take a second thread for their first pass on a
 * large map), N the states searched (cells, or 8 a cell), R those of
 * finite distance, D the sum of the cells' (least) distances.  With DUMP,
 * also writes the cells' distances there as raw doubles, row-major, in the
 * machine's byte order, for comparing with another search.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "anyangle.h"
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
    double *dist, *hdist = NULL, t0, t, c0, c, sum = 0, turn_cost = -1;
    size_t n, i, reached = 0;
    int corners, any_angle = 0;
    ff_status st;

    if (argc > 2 && strcmp(argv[1], "-t") == 0) {
        turn_cost = atof(argv[2]);
        argv += 2;
        argc -= 2;
    } else if (argc > 1 && strcmp(argv[1], "-a") == 0) {
        any_angle = 1;
        argv++;
        argc--;
    }
    corners = argc > 4 ? ff_corners_parse(argv[4]) : FF_CORNERS_STRICT;
    if (argc < 4 || argc > 6 || corners < 0) {
        fprintf(stderr, "usage: ffsearch [-t C | -a] MAP GX GY [strict|cut|free [DUMP]]\n");
        return 2;
    }
    if (!(f = fopen(argv[1], "rb"))) {
        perror(argv[1]);
        return 2;
    }
    ff_map_options_init(&opt);
    ff_error_clear(&err);
    if (ff_map_read(f, argv[1], &opt, &g, &err) != FF_OK) {
        ff_error_print(stderr, "ffsearch", &err);
        return 2;
    }
    fclose(f);
    g.moves = 8;
    g.corners = (ff_corners)corners;
    free(g.goals);
    g.goals = NULL;
    g.ngoals = 0;
    if (ff_grid_add_goal(&g, atoll(argv[2]), atoll(argv[3]), "-g", 0, 0, &err) != FF_OK) {
        ff_error_print(stderr, "ffsearch", &err);
        return 2;
    }
    n = (size_t)g.w * (size_t)g.h;
    dist = malloc(n * sizeof *dist);
    if (turn_cost >= 0)
        hdist = ff_turn_distances_alloc(n);
    if (!dist || (turn_cost >= 0 && !hdist)) {
        fprintf(stderr, "ffsearch: out of memory\n");
        return 3;
    }
    c0 = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
    t0 = clock_seconds(CLOCK_MONOTONIC);
    st = hdist       ? ff_turn_search(&g, turn_cost, hdist, dist, &err)
         : any_angle ? ff_anyangle_search(&g, dist, NULL, &err)
                     : ff_search(&g, dist, &err);
    t = clock_seconds(CLOCK_MONOTONIC) - t0;
    c = clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - c0;
    if (st != FF_OK) {
        ff_error_print(stderr, "ffsearch", &err);
        return 3;
    }
    for (i = 0; i < n; i++)
        if (isfinite(dist[i])) {
            reached++;
            sum += dist[i];
        }
    printf("seconds %.6f cpu %.6f states %zu reached %zu sum %.17g\n", t, c, hdist ? 8 * n : n,
           hdist ? 8 * reached : reached, sum);
    if (argc > 5) {
        FILE *out = fopen(argv[5], "wb");
        if (!out || fwrite(dist, sizeof *dist, n, out) != n || fclose(out) != 0) {
            perror(argv[5]);
            return 3;
        }
    }
    free(dist);
    free(hdist);
    ff_grid_free(&g);
    return 0;
}
