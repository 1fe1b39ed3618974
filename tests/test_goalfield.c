/* test_goalfield.c - own goals' fields searched by hop counts, their
 * counts in a plane or, on maps of 65,535 cells or more, in tiles made as
 * reached (goalfield.h, hoptiles.h), against a
 * plain breadth-first search from the goal written here from the
 * definition: a cell's cost is its fewest 4-move steps to the goal (one
 * step cost each: 1 here, so the count itself), +inf where there is no
 * way; its code the first of N, E, S, W that steps to a cell of one step
 * fewer, FF_DIR_GOAL on the goal, FF_DIR_NONE on walls and cut-off
 * cells.  Fields grown lazily are asked for random cells in a random
 * order, every cell they hold final checked after each ask. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "direction.h"
#include "goalfield.h"
#include "profiles.h"

static uint64_t rng_state;
static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)((rng_state >> 33) % n);
}

/* Every cell's steps to goal on open (-1: none), breadth first. */
static void bfs_steps(const unsigned char *open, int w, int h, int goal, long *steps)
{
    static const int dx[4] = { 0, 1, 0, -1 }, dy[4] = { -1, 0, 1, 0 };
    size_t n = (size_t)w * (size_t)h, head = 0, tail = 0, k;
    int *queue = malloc(n * sizeof *queue);
    cr_assert(queue);
    for (k = 0; k < n; k++)
        steps[k] = -1;
    steps[goal] = 0;
    queue[tail++] = goal;
    while (head < tail) {
        int v = queue[head++], d;
        for (d = 0; d < 4; d++) {
            int x = v % w + dx[d], y = v / w + dy[d];
            if (x >= 0 && y >= 0 && x < w && y < h && open[y * w + x] && steps[y * w + x] < 0) {
                steps[y * w + x] = steps[v] + 1;
                queue[tail++] = y * w + x;
            }
        }
    }
    free(queue);
}

/* The code of cell v by the definition above. */
static uint8_t code_of(const long *steps, int w, int h, int v)
{
    static const int dx[4] = { 0, 1, 0, -1 }, dy[4] = { -1, 0, 1, 0 };
    int d;
    if (steps[v] < 0)
        return FF_DIR_NONE;
    if (steps[v] == 0)
        return FF_DIR_GOAL;
    for (d = 0; d < 4; d++) {
        int x = v % w + dx[d], y = v / w + dy[d];
        if (x >= 0 && y >= 0 && x < w && y < h && steps[y * w + x] == steps[v] - 1)
            return (uint8_t)d;
    }
    cr_assert_fail("cell %d: no step lower", v);
    return FF_DIR_NONE;
}

/* Cell v of field index against the search: its cost and code. */
static void expect_cell(const ff_goalfields *gf, uint32_t index, const long *steps, int w, int h, int v,
                        const char *what)
{
    double c = ff_cost_at(ff_goalfields_cost(gf, index), (size_t)v);
    double want = steps[v] < 0 ? INFINITY : (double)steps[v];
    cr_assert(c == want, "%s: cell %d: cost %g, not %g", what, v, c, want);
    cr_assert_eq(gf->field[index].direction[v], code_of(steps, w, h, v), "%s: cell %d", what, v);
}

/* A w x h map of open cells (open[i] nonzero) and its goal, its profile
 * for an agent of radius 0.3 (the map's own cells), and a store of own
 * goals' fields, lazy or not, with the field of the goal built. */
typedef struct {
    ff_grid g;
    ff_scenario s;
    ff_profiles p;
    ff_goalfields gf;
    uint32_t index;
} world;

static void world_open(world *o, int w, int h, const unsigned char *open, int goal, int lazy)
{
    static const char text[] = "ffsim 1\nticks 1\nmove grid\nclass a\n radius 0.3\n speed 1\n follow\nend\n";
    size_t n = (size_t)w * (size_t)h, i;
    ff_error err;

    ff_grid_init(&o->g);
    o->g.moves = 4;
    cr_assert_eq(ff_grid_alloc(&o->g, w, h, 0, "t", &err), FF_OK);
    for (i = 0; i < n; i++)
        o->g.cost[i] = open[i] ? 1.0f : INFINITY;
    cr_assert_eq(ff_grid_add_goal(&o->g, goal % w, goal / w, "t", 0, 0, &err), FF_OK);
    cr_assert_eq(ff_scenario_parse(text, "t.scenario", &o->g, &o->s, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_profiles_init(&o->p, &o->s, &o->g, "t", &err), FF_OK, "%s", err.msg);
    ff_goalfields_init(&o->gf);
    o->gf.lazy = lazy;
    cr_assert_eq(ff_goalfields_find(&o->gf, 0, (uint32_t)goal, &o->index, &err), FF_OK);
    cr_assert_eq(ff_goalfields_ensure(&o->gf, &o->p, o->index, &err), FF_OK, "%s", err.msg);
}

static void world_free(world *o)
{
    ff_goalfields_free(&o->gf);
    ff_profiles_free(&o->p);
    ff_scenario_free(&o->s);
    ff_grid_free(&o->g);
}

/* The field of goal on a w x h map of open cells, whole or grown lazily,
 * checked as above; when lazy, asked for asks random cells first.  The
 * field's tiles made (made[0]), and of them wide (made[1]). */
static void check_map(int w, int h, const unsigned char *open, int goal, int lazy, int asks, size_t made[2])
{
    size_t n = (size_t)w * (size_t)h, i;
    long *steps = malloc(n * sizeof *steps);
    world o;
    const ff_goalfield *f;
    ff_error err;
    int k;

    cr_assert(steps);
    bfs_steps(open, w, h, goal, steps);
    world_open(&o, w, h, open, goal, lazy);
    f = &o.gf.field[o.index];
    cr_assert(f->hops, "not searched by hop counts");
    cr_assert_eq(f->tiles != NULL, n >= 65535, "tiles on %d x %d", w, h);
    for (k = 0; lazy && k < asks; k++) {
        int v = (int)rnd((uint32_t)n);
        ff_goalfields_settle(&o.gf, &o.p, o.index, (uint32_t)v);
        cr_assert(!open[v] || !ff_goalfields_lazy(&o.gf, o.index) || f->direction[v] != FF_DIR_NONE,
                  "ask %d: cell %d not final", k, v);
        for (i = 0; i < n; i++)
            if (!ff_goalfields_lazy(&o.gf, o.index) || f->direction[i] != FF_DIR_NONE)
                expect_cell(&o.gf, o.index, steps, w, h, (int)i, "lazy");
    }
    ff_goalfields_grow(&o.gf, &o.p, o.index, FF_GOALFIELD_NONE);
    cr_assert(!ff_goalfields_lazy(&o.gf, o.index));
    cr_assert_eq(ff_goalfields_status(&o.gf, &err), FF_OK);
    for (i = 0; i < n; i++)
        expect_cell(&o.gf, o.index, steps, w, h, (int)i, "whole");
    made[0] = f->tiles ? f->tiles->ntiles : 0;
    made[1] = f->tiles ? f->tiles->nwide : 0;
    if (f->tiles)
        cr_assert_leq(ff_hoptiles_bytes(f->tiles) + n, ff_goalfields_field_bytes(&o.g));
    world_free(&o);
    free(steps);
}

Test(goalfield, hop_counts_in_tiles_match_a_breadth_first_search)
{
    int trial;
    rng_state = 11;
    for (trial = 0; trial < 70; trial++) {
        /* (the last ten of 65,535 cells or more: in tiles) */
        int big = trial >= 60, w = big ? 200 + (int)rnd(200) : 1 + (int)rnd(70);
        int h = big ? 65535 / w + 1 + (int)rnd(200) : 1 + (int)rnd(70), walls = (int)rnd(40), goal;
        int lazy = trial % 3 != 0;
        size_t n = (size_t)w * (size_t)h, i, made[2];
        unsigned char *open = malloc(n);
        cr_assert(open);
        for (i = 0; i < n; i++)
            open[i] = (int)rnd(100) >= walls;
        goal = (int)rnd((uint32_t)n);
        open[goal] = 1;
        check_map(w, h, open, goal, lazy, 1 + (int)rnd(8), made);
        cr_assert_leq(made[0], (size_t)((w + 15) / 16) * (size_t)((h + 15) / 16));
        cr_assert_eq(made[0] > 0, big);
        free(open);
    }
}

/* A detour of more than 65,535 steps between two cells of one tile: a
 * corridor along row 0 from the goal, round the end of a wall, and back
 * along row 2.  Cell (0, 2) is 2 w steps from the goal, (0, 0) none: the
 * tile of both is wide, and its counts still the search's. */
Test(goalfield, a_detour_past_16_bits_in_one_tile, .timeout = 60)
{
    int w = 33000, h = 3, x;
    unsigned char *open = malloc((size_t)w * h);
    size_t made[2];
    cr_assert(open);
    for (x = 0; x < w; x++) {
        open[x] = 1;
        open[w + x] = x == w - 1;
        open[2 * w + x] = 1;
    }
    rng_state = 12;
    check_map(w, h, open, 0, 1, 2, made);
    cr_assert_eq(made[0], ((size_t)w + 15) / 16);
    /* (the tiles within 32,767 columns of the wall's end hold counts at
     * most 2 (w - x) apart across rows 0 and 2: under 65,535) */
    cr_assert_eq(made[1], ((size_t)w - 32767 + 15) / 16, "%zu wide", made[1]);
    free(open);
}

/* Lazily, a field asked for a cell near its goal makes only the tiles
 * round them: on an open 512 x 512 map, goal 8,8 asked for 40,40 makes
 * the tiles of the A*'s diamond between them, a few of the 1,024. */
Test(goalfield, a_lazy_field_makes_the_tiles_it_reaches)
{
    size_t n = 512 * 512, made;
    unsigned char *open = malloc(n);
    world o;

    cr_assert(open);
    memset(open, 1, n);
    world_open(&o, 512, 512, open, 8 * 512 + 8, 1);
    ff_goalfields_settle(&o.gf, &o.p, o.index, 40 * 512 + 40);
    cr_assert_eq(ff_cost_at(ff_goalfields_cost(&o.gf, o.index), 40 * 512 + 40), 64.0);
    made = o.gf.field[o.index].tiles->ntiles;
    cr_assert(made >= 3 && made <= 12, "%zu tiles", made);
    world_free(&o);
    free(open);
}
