/* test_repair.c - repaired fields against full rebuilds of the changed
 * map: distances and directions bit for bit, on random small maps of every
 * rule (mixed and zero costs, one-way cells, terrain classes, the three
 * corner rules, 4 and 8 moves, radius 0 and a clearance radius, one or
 * several goals) and random change lists, applied one by one and all at
 * once.  The full rebuild (ff_search, ff_direction_field) is itself
 * checked against a brute force in test_search.c. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <math.h>

#include "direction.h"
#include "repair.h"
#include "search.h"

/* Over all trials: repairs, those that searched the whole map instead,
 * and cells raised, so that the tests know the repair itself ran. */
static long repairs, rebuilds, raised;

static const float COSTS[] = { 0, 0.5f, 1, 1, 1, 2, 3.75f, 4 };

/* A random map before clearance: walls, mixed and zero costs, maybe
 * one-way cells and classes; moves, corners and cell size at random. */
static void random_map(unsigned long long *rng, ff_grid *g, int big)
{
    int w = 3 + (int)(tu_next(rng) % (big ? 30 : 10)), h = 3 + (int)(tu_next(rng) % (big ? 30 : 10));
    int n = w * h, k, classes = tu_next(rng) % 4 == 0, oneway = tu_next(rng) % 3 == 0;
    int zero = tu_next(rng) % 3 == 0, uniform = tu_next(rng) % 4 == 0;

    ff_grid_init(g);
    cr_assert_eq(ff_grid_alloc(g, w, h, 0, NULL, NULL), FF_OK);
    g->moves = tu_next(rng) % 2 ? 8 : 4;
    g->corners = (ff_corners)(tu_next(rng) % 3);
    g->cell_size = tu_next(rng) % 3 == 0 ? 0.5 : 1.0;
    if (oneway)
        g->oneway = malloc((size_t)n);
    if (classes)
        g->terrain = malloc((size_t)n);
    for (k = 0; k < n; k++) {
        int wall = tu_next(rng) % 5 == 0;
        float c = uniform ? 1.0f : COSTS[tu_next(rng) % 8];
        if (!zero && c == 0)
            c = 1;
        g->cost[k] = wall ? INFINITY : c;
        if (oneway)
            g->oneway[k] = tu_next(rng) % 5 == 0 ? (uint8_t)(tu_next(rng) % 256) : 0xFF;
        if (classes)
            g->terrain[k] = (uint8_t)(tu_next(rng) % 6 == 0);
    }
}

/* The goals: 1 to 3 cells open in the cleared grid c; 0 if none is. */
static int pick_goals(unsigned long long *rng, ff_grid *c)
{
    size_t n = (size_t)c->w * (size_t)c->h, k, tries;
    int want = 1 + (int)(tu_next(rng) % 3);

    for (tries = 0; tries < 50 && (int)c->ngoals < want; tries++) {
        k = tu_next(rng) % n;
        if (ff_grid_open(c, k))
            cr_assert_eq(ff_grid_add_goal(c, (int64_t)(k % (size_t)c->w),
                                          (int64_t)(k / (size_t)c->w), NULL, 0, 0, NULL), FF_OK);
    }
    return c->ngoals > 0;
}

/* A random change of map m: close, open or new cost, of one cell or a
 * small rectangle; never of a goal cell of c. */
static size_t random_change(unsigned long long *rng, const ff_grid *m, const ff_grid *c,
                            uint32_t *cells, float *costs)
{
    int x0 = (int)(tu_next(rng) % (unsigned)m->w), y0 = (int)(tu_next(rng) % (unsigned)m->h);
    int x1 = x0 + (int)(tu_next(rng) % 3 == 0 ? tu_next(rng) % 3 : 0);
    int y1 = y0 + (int)(tu_next(rng) % 3 == 0 ? tu_next(rng) % 3 : 0);
    int kind = (int)(tu_next(rng) % 3), x, y;
    float cost = kind == 0 ? INFINITY : COSTS[tu_next(rng) % 8];
    size_t n = 0, k;

    for (y = y0; y <= y1 && y < m->h; y++)
        for (x = x0; x <= x1 && x < m->w; x++) {
            uint32_t i = (uint32_t)(y * m->w + x);
            for (k = 0; k < c->ngoals; k++)
                if (c->goals[k] == i)
                    break;
            if (k < c->ngoals)
                continue;
            cells[n] = i;
            costs[n++] = cost;
        }
    return n;
}

/* Distances bit for bit: the same doubles (+inf included). */
static void same_distances(const double *a, const double *b, size_t n, const char *what)
{
    size_t k;

    for (k = 0; k < n; k++)
        if (memcmp(&a[k], &b[k], sizeof a[k]) != 0)
            cr_assert_fail("%s: cell %zu: repaired %.17g, rebuilt %.17g", what, k, a[k], b[k]);
}

/* One trial: a random map, its field, then changes applied one by one
 * (each repaired and checked against a rebuild) on one copy, and all at
 * once on another.  Returns 1 when the map had a field at all. */
static int trial(unsigned long long *rng, int big, double radius)
{
    ff_grid map, cleared, once, full;
    ff_repair r, r_once;
    ff_error err;
    size_t n, k, nch_all = 0, cap = 0, nch = 0, cap_all = 0;
    uint32_t cells[16], *all_cells = NULL;
    float costs[16];
    ff_cell_change *ch = NULL, *all_ch = NULL;
    double *dist, *dist_once, *want;
    float *before;
    uint8_t *dir, *want_dir;
    int flat, nchanges = 1 + (int)(tu_next(rng) % 6), c, ok = 0;

    random_map(rng, &map, big);
    n = (size_t)map.w * (size_t)map.h;
    cr_assert_eq(ff_grid_copy(&cleared, &map, NULL), FF_OK);
    cr_assert_eq(ff_grid_apply_clearance(&cleared, radius, NULL), FF_OK);
    if (!pick_goals(rng, &cleared)) {
        ff_grid_free(&map);
        ff_grid_free(&cleared);
        return 0;
    }
    ok = 1;
    cr_assert_eq(ff_grid_copy(&once, &cleared, NULL), FF_OK);
    dist = malloc(n * sizeof *dist);
    dist_once = malloc(n * sizeof *dist);
    want = malloc(n * sizeof *want);
    before = malloc(n * sizeof *before);
    dir = malloc(n);
    want_dir = malloc(n);
    all_cells = malloc(16 * (size_t)nchanges * sizeof *all_cells);
    cr_assert(dist && dist_once && want && dir && want_dir && all_cells);
    cr_assert_eq(ff_search(&cleared, dist, &err), FF_OK);
    memcpy(dist_once, dist, n * sizeof *dist);
    cr_assert_eq(ff_direction_field_flat(&cleared, dist, dir, &flat, &err), FF_OK);
    ff_repair_init(&r);
    ff_repair_init(&r_once);
    for (c = 0; c < nchanges; c++) {
        size_t m = random_change(rng, &map, &cleared, cells, costs), j;
        ff_repair_stats st;
        ff_status s;
        for (j = 0; j < m; j++) {
            map.cost[cells[j]] = costs[j];
            all_cells[nch_all++] = cells[j];
        }
        cr_assert_eq(ff_repair_cleared_changes(&r, &map, radius, &cleared, cells, m, &ch, &nch,
                                               &cap, &err), FF_OK);
        memcpy(before, cleared.cost, n * sizeof *before);
        s = ff_repair_field(&r, &cleared, dist, ch, nch, &st, &err);
        if (s == FF_EINPUT) {
            /* The clearance closes a goal: refused, nothing changed. */
            cr_assert(strstr(err.msg, "goal"), "%s", err.msg);
            cr_assert_eq(memcmp(before, cleared.cost, n * sizeof *before), 0);
            break;
        }
        cr_assert_eq(s, FF_OK, "%s", err.msg);
        repairs++;
        rebuilds += st.rebuilt;
        raised += (long)st.raised;
        cr_assert_eq(ff_grid_copy(&full, &map, NULL), FF_OK);
        cr_assert_eq(ff_grid_apply_clearance(&full, radius, NULL), FF_OK);
        cr_assert_eq(memcmp(full.cost, cleared.cost, n * sizeof *full.cost), 0,
                     "the cleared grid differs from a new clearance");
        free(full.goals);
        full.goals = malloc(cleared.ngoals * sizeof *full.goals);
        memcpy(full.goals, cleared.goals, cleared.ngoals * sizeof *full.goals);
        full.ngoals = cleared.ngoals;
        cr_assert_eq(ff_search(&full, want, &err), FF_OK);
        same_distances(dist, want, n, "one by one");
        cr_assert_eq(ff_repair_directions(&r, &cleared, dist, dir, &flat, &err), FF_OK);
        cr_assert_eq(ff_direction_field(&full, want, want_dir, &err), FF_OK);
        for (k = 0; k < n; k++)
            cr_assert_eq(dir[k], want_dir[k], "direction of cell %zu: %d, rebuilt %d", k,
                         dir[k], want_dir[k]);
        ff_grid_free(&full);
    }
    if (c == nchanges) {
        /* All at once, on the first field. */
        cr_assert_eq(ff_repair_cleared_changes(&r_once, &map, radius, &once, all_cells, nch_all,
                                               &all_ch, &nch, &cap_all, &err), FF_OK);
        cr_assert_eq(ff_repair_field(&r_once, &once, dist_once, all_ch, nch, NULL, &err), FF_OK,
                     "%s", err.msg);
        same_distances(dist_once, want, n, "all at once");
        cr_assert_eq(memcmp(once.cost, cleared.cost, n * sizeof *once.cost), 0);
    }
    ff_repair_free(&r);
    ff_repair_free(&r_once);
    free(ch);
    free(all_ch);
    free(all_cells);
    free(dist);
    free(dist_once);
    free(want);
    free(before);
    free(dir);
    free(want_dir);
    ff_grid_free(&map);
    ff_grid_free(&cleared);
    ff_grid_free(&once);
    return ok;
}

Test(repair, equals_rebuild_on_random_maps_radius_0)
{
    unsigned long long rng = 1;
    int k, fields = 0;

    for (k = 0; k < 3000; k++)
        fields += trial(&rng, k % 4 == 0, 0);
    cr_assert_gt(fields, 2500);
    cr_assert_gt(repairs, 8000);
    cr_assert_lt(rebuilds, repairs / 20, "%ld of %ld repairs searched the whole map", rebuilds,
                 repairs);
    cr_assert_gt(raised, 10000);
}

Test(repair, equals_rebuild_on_random_maps_with_clearance)
{
    unsigned long long rng = 2;
    static const double radii[] = { 0.3, 0.5, 0.75, 1.0, 1.6 };
    int k, fields = 0;

    for (k = 0; k < 2000; k++)
        fields += trial(&rng, k % 3 == 0, radii[k % 5]);
    cr_assert_gt(fields, 800);
    cr_assert_gt(repairs, 2000);
    cr_assert_lt(rebuilds, repairs / 20, "%ld of %ld repairs searched the whole map", rebuilds,
                 repairs);
}
