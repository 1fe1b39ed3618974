/* test_astar.c - an agent's own A* path against brute force: on random
 * maps with random costs, 4 and 8 moves, with the legal steps asked of
 * ff_grid_step_ok or read from step masks, the path is made of legal steps,
 * ends at a goal (or the one cell asked for), avoids what it is told to
 * (and the steps a caller's filter refuses), and costs what a
 * Bellman-Ford relaxation over every cell says is least. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <math.h>

#include "astar.h"

/* A caller's refusal of some steps, fixed and one way (from -> to may be
 * refused while to -> from is not): a hash of the two cells. */
static int refused(uint32_t from, uint32_t to)
{
    return (from * 2654435761u ^ to * 40503u) % 5 == 0;
}

static int step_allowed(void *ctx, uint32_t from, uint32_t to)
{
    (*(unsigned *)ctx)++;
    return !refused(from, to);
}

/* Least cost from every cell to a goal (with target FF_ASTAR_GOALS) or
 * to cell target, by relaxing every step until nothing changes: cells in
 * avoid are left out (the start excepted), and with refuse the steps it
 * refuses. */
static void brute_force(const ff_grid *g, const uint8_t *avoid, uint32_t start, uint32_t target, int refuse,
                        double *dist)
{
    int w = g->w, h = g->h, changed = 1, x, y, d;
    size_t k;
    for (k = 0; k < (size_t)w * (size_t)h; k++)
        dist[k] = INFINITY;
    if (target != FF_ASTAR_GOALS)
        dist[target] = 0;
    else
        for (k = 0; k < g->ngoals; k++)
            if (!avoid || !avoid[g->goals[k]] || g->goals[k] == start)
                dist[g->goals[k]] = 0;
    while (changed) {
        changed = 0;
        for (y = 0; y < h; y++)
            for (x = 0; x < w; x++)
                for (d = 0; d < 8; d++) {
                    size_t i = (size_t)(y * w + x), j;
                    double c;
                    if (!ff_grid_step_ok(g, x, y, d))
                        continue;
                    j = (size_t)((y + ff_dir_dy[d]) * w + x + ff_dir_dx[d]);
                    if ((avoid && avoid[j]) || (refuse && refused((uint32_t)i, (uint32_t)j)))
                        continue;
                    c = ff_grid_step_cost(g, i, d) + dist[j];
                    if (c < dist[i] - 1e-12) {
                        dist[i] = c;
                        changed = 1;
                    }
                }
    }
}

static void random_grid(ff_grid *g, unsigned long long *seed, int moves)
{
    int w = 12, h = 9, k;
    ff_error err;
    ff_grid_init(g);
    cr_assert_eq(ff_grid_alloc(g, w, h, 0, "t", &err), FF_OK);
    g->moves = moves;
    for (k = 0; k < w * h; k++) {
        unsigned long long r = tu_next(seed) % 100;
        g->cost[k] = r < 25 ? INFINITY : (float)(1 + r % 4);
    }
    for (k = 0; k < 2; k++) {
        int i = (int)(tu_next(seed) % (unsigned long long)(w * h));
        g->cost[i] = 1;
        cr_assert_eq(ff_grid_add_goal(g, i % w, i / w, "t", 0, 0, &err), FF_OK);
    }
}

/* Path (len cells, freed here) from start s of map m, as the search
 * found it (found) against the least costs dist: found exactly when
 * dist says there is a way, made of legal steps, off avoid, none that
 * refuse refuses, ending at a goal (target FF_ASTAR_GOALS) or target,
 * and costing the least. */
static void check_path(const ff_grid *g, int m, uint32_t s, int found, uint32_t *path, uint32_t len,
                       const uint8_t *avoid, int refuse, uint32_t target, const double *dist)
{
    uint32_t k, at = s;
    double cost = 0;
    cr_assert_eq(found, isfinite(dist[s]) ? 1 : 0, "map %d start %u", m, s);
    if (!found)
        return;
    for (k = 0; k < len; k++) {
        int d, step = -1;
        for (d = 0; d < 8; d++)
            if (ff_grid_step_ok(g, (int)(at % 12), (int)(at / 12), d) &&
                (uint32_t)(((int)(at / 12) + ff_dir_dy[d]) * 12 + (int)(at % 12) + ff_dir_dx[d]) == path[k])
                step = d;
        cr_assert(step >= 0, "map %d: step %u -> %u is not legal", m, at, path[k]);
        cr_assert(!avoid || !avoid[path[k]], "map %d: walks on an avoided cell", m);
        cr_assert(!refuse || !refused(at, path[k]), "map %d: step %u -> %u was refused", m, at, path[k]);
        cost += ff_grid_step_cost(g, at, step);
        at = path[k];
    }
    if (target == FF_ASTAR_GOALS) {
        for (k = 0; k < g->ngoals && g->goals[k] != at; k++)
            ;
        cr_assert(k < g->ngoals, "map %d: the path does not end at a goal", m);
    } else {
        cr_assert_eq(at, target, "map %d: the path ends at %u, not %u", m, at, target);
    }
    cr_assert(fabs(cost - dist[s]) <= 1e-9 * (1 + dist[s]), "map %d start %u: %g, least %g", m, s, cost, dist[s]);
    free(path);
}

/* On random maps of moves moves: paths to the goals, avoiding nothing or
 * random cells (every other map reading the legal steps from
 * ff_grid_step_masks); or with to_cell, paths to one random open cell by
 * the steps a filter allows (and a closed target: no way). */
static void check_paths(int moves, int to_cell)
{
    unsigned long long seed = (to_cell ? 7 : 42) + (unsigned long long)moves;
    int m;
    for (m = 0; m < (to_cell ? 20 : 40); m++) {
        ff_grid g;
        ff_astar a;
        ff_error err;
        double dist[12 * 9];
        uint8_t avoid[12 * 9], mask[12 * 9];
        uint32_t s, target = FF_ASTAR_GOALS, *path, len;
        unsigned asked = 0;
        ff_astar_filter filter = { step_allowed, &asked };
        int use_avoid;
        random_grid(&g, &seed, moves);
        cr_assert_eq(ff_astar_init(&a, &g, &err), FF_OK);
        ff_grid_step_masks(&g, mask);
        if (m % 2 && !to_cell)
            a.step_mask = mask;
        if (to_cell) {
            do
                target = (uint32_t)(tu_next(&seed) % (12 * 9));
            while (!ff_grid_open(&g, target));
            brute_force(&g, NULL, target, target, 1, dist);
        }
        for (use_avoid = 0; use_avoid < (to_cell ? 1 : 2); use_avoid++) {
            const uint8_t *av = use_avoid ? avoid : NULL;
            size_t k;
            for (k = 0; k < sizeof avoid; k++)
                avoid[k] = use_avoid && tu_next(&seed) % 10 == 0;
            for (s = 0; s < 12 * 9; s++) {
                int found;
                if (!ff_grid_open(&g, s))
                    continue;
                if (to_cell) {
                    found = ff_astar_path_to(&a, s, target, NULL, &filter, &path, &len);
                } else {
                    brute_force(&g, av, s, FF_ASTAR_GOALS, 0, dist);
                    found = ff_astar_path(&a, s, av, &path, &len);
                }
                check_path(&g, m, s, found, path, len, av, to_cell, target, dist);
            }
        }
        if (to_cell) {
            cr_assert(asked > 0, "map %d: the filter was never asked", m);
            for (s = 0; s < 12 * 9 && ff_grid_open(&g, s); s++)
                ;
            if (s < 12 * 9)
                cr_assert_eq(ff_astar_path_to(&a, target, s, NULL, NULL, &path, &len), 0);
        }
        ff_astar_free(&a);
        ff_grid_free(&g);
    }
}

Test(astar, shortest_legal_paths_8_moves) { check_paths(8, 0); }
Test(astar, shortest_legal_paths_4_moves) { check_paths(4, 0); }
Test(astar, to_one_cell_by_allowed_steps_8_moves) { check_paths(8, 1); }
Test(astar, to_one_cell_by_allowed_steps_4_moves) { check_paths(4, 1); }

Test(astar, start_on_a_goal_is_an_empty_path)
{
    ff_grid g;
    ff_astar a;
    ff_error err;
    uint32_t *path = (uint32_t *)&g, len = 7;
    ff_grid_init(&g);
    cr_assert_eq(ff_grid_alloc(&g, 3, 3, 0, "t", &err), FF_OK);
    for (int k = 0; k < 9; k++)
        g.cost[k] = 1;
    cr_assert_eq(ff_grid_add_goal(&g, 1, 1, "t", 0, 0, &err), FF_OK);
    cr_assert_eq(ff_astar_init(&a, &g, &err), FF_OK);
    cr_expect_eq(ff_astar_path(&a, 4, NULL, &path, &len), 1);
    cr_expect_null(path);
    cr_expect_eq(len, 0);
    ff_astar_free(&a);
    ff_grid_free(&g);
}
