/* benchmap.h - the reference drivers' own reader for the benchmark's
 * Moving AI map (only '.' and '@', as genmap writes it) and a clock.
 * Kept apart from libff on purpose: the references must not share its
 * code. */
#ifndef BENCHMAP_H
#define BENCHMAP_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double bench_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Read the map: open[y * w + x] = 1 for '.', 0 otherwise.  Exits with a
 * message on any trouble. */
static uint8_t *bench_read_map(const char *path, int *w, int *h)
{
    FILE *f = fopen(path, "rb");
    char line[64];
    uint8_t *open;
    char *row;
    int x, y;

    *w = *h = -1;
    if (!f) {
        perror(path);
        exit(2);
    }
    while (fgets(line, sizeof line, f) && strcmp(line, "map\n") != 0) {
        sscanf(line, "height %d", h);
        sscanf(line, "width %d", w);
    }
    if (*w < 1 || *h < 1) {
        fprintf(stderr, "%s: not a genmap Moving AI map\n", path);
        exit(2);
    }
    open = malloc((size_t)*w * (size_t)*h);
    row = malloc((size_t)*w + 2);
    if (!open || !row) {
        fprintf(stderr, "out of memory\n");
        exit(3);
    }
    for (y = 0; y < *h; y++) {
        if (fread(row, 1, (size_t)*w + 1, f) != (size_t)*w + 1) {
            fprintf(stderr, "%s: short map\n", path);
            exit(2);
        }
        for (x = 0; x < *w; x++)
            open[(size_t)y * (size_t)*w + (size_t)x] = row[x] == '.';
    }
    free(row);
    fclose(f);
    return open;
}

#endif
