/* fuzzmap.h - the check every map target makes: parse, check what a grid
 * promises, read the same bytes again through ff_map_read, then carry the
 * grid through an ff stream (binary and text) and back.
 */
#ifndef FF_FUZZMAP_H
#define FF_FUZZMAP_H

#include <math.h>

#include "mapread.h"
#include "pngmap.h"
#include "fuzz.h"

/* A refusal is one line, says something, and leaves the grid empty. */
static inline void check_refusal(ff_status st, const ff_error *err, const ff_grid *g)
{
    FUZZ_CHECK(st == FF_EINPUT);
    FUZZ_CHECK(err->msg[0] != '\0' && !strchr(err->msg, '\n'));
    FUZZ_CHECK(g->w == 0 && g->h == 0 && !g->cost && !g->oneway && !g->terrain &&
               !g->goals && !g->spawns);
}

/* What grid.h promises of a grid that was read. */
static inline void check_grid(const ff_grid *g)
{
    size_t n, k;

    FUZZ_CHECK(g->w >= 1 && g->h >= 1 && g->cost);
    n = (size_t)g->w * (size_t)g->h;
    FUZZ_CHECK(n <= FF_MAX_CELLS_DEFAULT);
    FUZZ_CHECK(g->cell_size > 0 && isfinite(g->cell_size));
    FUZZ_CHECK(isfinite(g->origin_x) && isfinite(g->origin_y));
    for (k = 0; k < n; k++)
        FUZZ_CHECK(g->cost[k] >= 0);  /* not NaN, not negative */
    for (k = 0; k < g->ngoals; k++) {
        FUZZ_CHECK(g->goals[k] < n && ff_grid_open(g, g->goals[k]));
        FUZZ_CHECK(k == 0 || g->goals[k - 1] < g->goals[k]);
    }
    for (k = 0; k < g->nspawns; k++)
        FUZZ_CHECK(g->spawns[k] < n);
}

static inline void fuzz_map_bytes(const uint8_t *data, size_t size, int png_only)
{
    ff_map_options opt;
    ff_grid g, again;
    ff_field field;
    ff_error err, err2;
    ff_status st, st2;
    FILE *f;

    ff_map_options_init(&opt);
    ff_error_clear(&err);
    if (png_only) {
        ff_grid_init(&g);
        st = ff_map_parse_png(data, size, "fuzz", &opt, &g, &err);
    } else {
        st = ff_map_parse(data, size, "fuzz", &opt, &g, &err);
    }
    if (st != FF_OK) {
        check_refusal(st, &err, &g);
        if (png_only)
            return;
    } else {
        check_grid(&g);
    }
    if (!png_only) {
        /* The FILE path must answer exactly as the memory path. */
        f = open_bytes(data, size);
        if (!f)
            abort();
        ff_grid_init(&again);
        ff_error_clear(&err2);
        st2 = ff_map_read(f, "fuzz", &opt, &again, &err2);
        fclose(f);
        FUZZ_CHECK(st2 == st);
        if (st != FF_OK) {
            FUZZ_CHECK(strcmp(err.msg, err2.msg) == 0 && err.line == err2.line &&
                       err.col == err2.col && err.byte == err2.byte);
            return;
        }
        check_same_grid(&g, &again);
        ff_grid_free(&again);
    }
    ff_field_init(&field);
    field.grid = g;
    ff_field_update_ids(&field);
    roundtrip_field(&field, 0);
    roundtrip_field(&field, 1);
    ff_field_free(&field);
}

#endif
