/* tcod - time libtcod's TCOD_dijkstra_compute on the benchmark map.
 *
 *   tcod MAP GX GY
 *
 * 8 moves, diagonal cost 1.41 (libtcod lets diagonals cut corners).  Only
 * TCOD_dijkstra_compute is timed.  Prints "seconds S reached N". */
#define _POSIX_C_SOURCE 200809L
#include <libtcod.h>

#include "benchmap.h"

int main(int argc, char **argv)
{
    int w, h, x, y, gx, gy;
    uint8_t *open;
    TCOD_Map *map;
    TCOD_dijkstra_t dij;
    size_t reached = 0;
    double t0, t;

    if (argc != 4) {
        fprintf(stderr, "usage: tcod MAP GX GY\n");
        return 2;
    }
    open = bench_read_map(argv[1], &w, &h);
    gx = atoi(argv[2]);
    gy = atoi(argv[3]);
    map = TCOD_map_new(w, h);
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            int o = open[(size_t)y * (size_t)w + (size_t)x];
            TCOD_map_set_properties(map, x, y, o, o);
        }
    dij = TCOD_dijkstra_new(map, 1.41f);
    t0 = bench_now();
    TCOD_dijkstra_compute(dij, gx, gy);
    t = bench_now() - t0;
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
            if (TCOD_dijkstra_get_distance(dij, x, y) >= 0)
                reached++;
    printf("seconds %.6f reached %zu\n", t, reached);
    TCOD_dijkstra_delete(dij);
    TCOD_map_delete(map);
    free(open);
    return 0;
}
