/* bfs - a plain breadth-first search over the benchmark map, the floor
 * that the searches are measured against.
 *
 *   bfs MAP GX GY
 *
 * 4 neighbours, unit steps, a FIFO of cell indices and an int32 distance
 * array; only the search is timed.  Prints "seconds S reached N". */
#define _POSIX_C_SOURCE 200809L
#include "benchmap.h"

int main(int argc, char **argv)
{
    int w, h;
    uint8_t *open;
    int32_t *dist;
    uint32_t *queue;
    size_t n, i, head = 0, tail = 0, reached = 0;
    double t0, t;

    if (argc != 4) {
        fprintf(stderr, "usage: bfs MAP GX GY\n");
        return 2;
    }
    open = bench_read_map(argv[1], &w, &h);
    n = (size_t)w * (size_t)h;
    dist = malloc(n * sizeof *dist);
    queue = malloc(n * sizeof *queue);
    if (!dist || !queue) {
        fprintf(stderr, "bfs: out of memory\n");
        return 3;
    }
    t0 = bench_now();
    for (i = 0; i < n; i++)
        dist[i] = -1;
    i = (size_t)atoi(argv[3]) * (size_t)w + (size_t)atoi(argv[2]);
    dist[i] = 0;
    queue[tail++] = (uint32_t)i;
    while (head < tail) {
        uint32_t v = queue[head++];
        uint32_t x = v % (uint32_t)w, y = v / (uint32_t)w;
        int32_t dv = dist[v] + 1;
        uint32_t nb[4];
        int k, m = 0;
        if (y > 0)
            nb[m++] = v - (uint32_t)w;
        if (x + 1 < (uint32_t)w)
            nb[m++] = v + 1;
        if (y + 1 < (uint32_t)h)
            nb[m++] = v + (uint32_t)w;
        if (x > 0)
            nb[m++] = v - 1;
        for (k = 0; k < m; k++)
            if (open[nb[k]] && dist[nb[k]] < 0) {
                dist[nb[k]] = dv;
                queue[tail++] = nb[k];
            }
    }
    t = bench_now() - t0;
    for (i = 0; i < n; i++)
        reached += dist[i] >= 0;
    printf("seconds %.6f reached %zu\n", t, reached);
    free(open);
    free(dist);
    free(queue);
    return 0;
}
