/* test_crowd.c - the crowd simulation and its parts: priority blending by
 * hand, wall distances and the spatial hash against brute force, sliding
 * and overlap resolution by hand, follow against ff_sample_smooth, the
 * seeds' priority example, escaping a wall, the unreachable agent, and the
 * gate bottleneck with wall penetrations and overlaps measured here. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <math.h>

#include "crowd.h"
#include "crowdcheck.h"
#include "crowdint.h"
#include "direction.h"
#include "mapread.h"
#include "profiles.h"
#include "sample.h"
#include "search.h"
#include "spatialhash.h"
#include "walls.h"

/* ---- fields from pictures ---- */

typedef struct {
    ff_grid g;
    double *dist;
    uint8_t *dir;
} field;

/* '#' wall, '.' open, 'G' goal. */
static void make_field(field *f, const char *const *rows, int h)
{
    int w = (int)strlen(rows[0]), x, y;
    ff_error err;

    ff_grid_init(&f->g);
    cr_assert_eq(ff_grid_alloc(&f->g, w, h, 0, "t", &err), FF_OK);
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
            f->g.cost[y * w + x] = rows[y][x] == '#' ? INFINITY : 1.0f;
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
            if (rows[y][x] == 'G')
                cr_assert_eq(ff_grid_add_goal(&f->g, x, y, "t", 0, 0, &err), FF_OK);
    f->dist = malloc((size_t)w * (size_t)h * sizeof *f->dist);
    f->dir = malloc((size_t)w * (size_t)h);
    cr_assert(f->dist && f->dir);
    cr_assert_eq(ff_search(&f->g, f->dist, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_direction_field(&f->g, f->dist, f->dir, &err), FF_OK, "%s", err.msg);
}

static void free_field(field *f)
{
    free(f->dist);
    free(f->dir);
    ff_grid_free(&f->g);
}

/* An open room 20 x 9 with walls around and the goal at 18,4. */
static const char *const room[9] = {
    "####################",
    "#..................#",
    "#..................#",
    "#..................#",
    "#.................G#",
    "#..................#",
    "#..................#",
    "#..................#",
    "####################",
};

static void scenario(const char *text, const ff_grid *g, ff_scenario *s)
{
    ff_error err;
    cr_assert_eq(ff_scenario_parse(text, "t.scenario", g, s, &err), FF_OK, "%s", err.msg);
}

static const ff_agent *agent_by_id(const ff_crowd *c, uint32_t id)
{
    size_t k;
    for (k = 0; k < c->nagents; k++)
        if (c->agent[k].id == id)
            return &c->agent[k];
    cr_assert_fail("no agent %u", id);
    return NULL;
}

/* ---- priority groups, by hand ---- */

static ff_agent_class blend_class(void)
{
    ff_agent_class c;
    memset(&c, 0, sizeof c);
    c.threshold = 0.5;
    /* line order: priority 5, 1, 5, 1 */
    c.behaviour[0].priority = 5; c.behaviour[0].weight = 1;   c.behaviour[0].kind = FF_BEHAVE_SEEK;
    c.behaviour[1].priority = 1; c.behaviour[1].weight = 2;   c.behaviour[1].kind = FF_BEHAVE_SEPARATE;
    c.behaviour[2].priority = 5; c.behaviour[2].weight = 0.5; c.behaviour[2].kind = FF_BEHAVE_FOLLOW;
    c.behaviour[3].priority = 1; c.behaviour[3].weight = 1;   c.behaviour[3].kind = FF_BEHAVE_AVOID_WALLS;
    c.nbehaviours = 4;
    ff_class_group(&c);
    return c;
}

Test(crowd, groups_sorted_stably_by_priority)
{
    ff_agent_class c = blend_class();
    cr_assert_eq(c.ngroups, 2);
    cr_expect_eq(c.behaviour[0].kind, FF_BEHAVE_SEPARATE);   /* priority 1, first */
    cr_expect_eq(c.behaviour[1].kind, FF_BEHAVE_AVOID_WALLS);/* priority 1, second */
    cr_expect_eq(c.behaviour[2].kind, FF_BEHAVE_SEEK);       /* priority 5, first */
    cr_expect_eq(c.behaviour[3].kind, FF_BEHAVE_FOLLOW);     /* priority 5, second */
}

Test(crowd, blend_first_group_over_threshold_wins)
{
    ff_agent_class c = blend_class();
    /* group 1: 2*(0.25,0) + 1*(0,0.25) = (0.5,0.25), length 0.559 > 0.5 */
    double px[4] = { 0.25, 0, 1, 0 }, py[4] = { 0, 0.25, 0, 1 }, ox, oy;
    cr_expect_eq(ff_crowd_blend(&c, px, py, NULL, &ox, &oy, NULL), 0);
    cr_expect_eq(ox, 0.5);
    cr_expect_eq(oy, 0.25);
}

Test(crowd, blend_group_below_threshold_gives_way)
{
    ff_agent_class c = blend_class();
    /* group 1: 2*(0.1,0) + (0,0.2) = (0.2,0.2), length 0.283 <= 0.5: next.
     * group 5: (0,-1) + 0.5*(1,0) = (0.5,-1), length 1.118 > 0.5 */
    double px[4] = { 0.1, 0, 0, 1 }, py[4] = { 0, 0.2, -1, 0 }, ox, oy;
    cr_expect_eq(ff_crowd_blend(&c, px, py, NULL, &ox, &oy, NULL), 1);
    cr_expect_eq(ox, 0.5);
    cr_expect_eq(oy, -1);
}

Test(crowd, blend_exactly_at_threshold_does_not_exceed)
{
    ff_agent_class c = blend_class();
    /* group 1: 2*(0.25,0) + (0,0) = (0.5,0): length 0.5, not above 0.5.
     * group 5: (0,0.25) + 0.5*(0.5,0) = (0.25,0.25): below too, and last,
     * so it is the answer, as a fallback (-1). */
    double px[4] = { 0.25, 0, 0, 0.5 }, py[4] = { 0, 0, 0.25, 0 }, ox, oy;
    cr_expect_eq(ff_crowd_blend(&c, px, py, NULL, &ox, &oy, NULL), -1);
    cr_expect_eq(ox, 0.25);
    cr_expect_eq(oy, 0.25);
}

Test(crowd, blend_angular_magnitude_wins_alone)
{
    ff_agent_class c = blend_class();
    /* group 1: linear 2*(0.1,0) + (0,0.1) = (0.2,0.1), length 0.224 <=
     * 0.5; angular 2*(-0.2) + 0 = -0.4, |-0.4| <= 0.5: next.
     * group 5: linear (0,0.1) + 0.5*(0.2,0) = (0.1,0.1), length 0.141;
     * angular 0.3 + 0.5*0.6 = 0.6 > 0.5: it wins whole, linear part too. */
    double px[4] = { 0.1, 0, 0, 0.2 }, py[4] = { 0, 0.1, 0.1, 0 }, pw[4] = { -0.2, 0, 0.3, 0.6 };
    double ox, oy, ow;
    cr_expect_eq(ff_crowd_blend(&c, px, py, pw, &ox, &oy, &ow), 1);
    cr_expect_float_eq(ox, 0.1, 1e-15);
    cr_expect_float_eq(oy, 0.1, 1e-15);
    cr_expect_float_eq(ow, 0.6, 1e-15);
    /* Left out (a class without angular behaviours), no group exceeds:
     * the last group's linear sum, as a fallback. */
    cr_expect_eq(ff_crowd_blend(&c, px, py, NULL, &ox, &oy, NULL), -1);
    cr_expect_float_eq(ox, 0.1, 1e-15);
}

Test(crowd, blend_angular_either_sign_and_first_group)
{
    ff_agent_class c = blend_class();
    /* group 1: linear 0; angular 2*(-0.3) + 0 = -0.6: its magnitude
     * exceeds 0.5, so the first group wins with a zero linear part. */
    double px[4] = { 0, 0, 1, 1 }, py[4] = { 0, 0, 0, 0 }, pw[4] = { -0.3, 0, 0, 0 };
    double ox, oy, ow;
    cr_expect_eq(ff_crowd_blend(&c, px, py, pw, &ox, &oy, &ow), 0);
    cr_expect_eq(ox, 0);
    cr_expect_eq(oy, 0);
    cr_expect_float_eq(ow, -0.6, 1e-15);
}

/* ---- walls ---- */

Test(crowd, wall_distance_matches_brute_force)
{
    static const char *const rows[6] = { "#######", "#..#..#", "#.....#", "#.##..#", "#....G#", "#######" };
    field f;
    ff_walls w;
    ff_error err;
    unsigned long long seed = 5;
    int k;

    make_field(&f, rows, 6);
    cr_assert_eq(ff_walls_init(&w, &f.g, &err), FF_OK);
    for (k = 0; k < 4000; k++) {
        double x = -1 + 9 * (double)(tu_next(&seed) >> 11) / 9007199254740992.0;
        double y = -1 + 8 * (double)(tu_next(&seed) >> 11) / 9007199254740992.0;
        double reach = 0.05 + 2.5 * (double)(tu_next(&seed) >> 11) / 9007199254740992.0;
        double want = tu_wall_distance(&f.g, x, y), got = ff_walls_nearest(&w, x, y, reach, NULL, NULL);
        if (want > reach)
            want = reach;
        cr_assert(fabs(got - want) < 1e-12, "at %g,%g reach %g: %g, brute force %g", x, y, reach, got, want);
    }
    ff_walls_free(&w);
    free_field(&f);
}

/* The near-wall map of g from its definition: for an open cell the
 * Chebyshev distance in cells to the nearest blocked cell or to the
 * outside of the map, capped at 255; 0 on a blocked cell.  Into out
 * (w*h); returns how many entries are at the cap. */
static int near_by_definition(const ff_grid *g, uint8_t *out)
{
    int w = g->w, h = g->h, x, y, k, nb = 0, capped = 0;
    int *wall = malloc((size_t)w * (size_t)h * sizeof *wall);

    cr_assert(wall);
    for (k = 0; k < w * h; k++)
        if (!(g->cost[k] < INFINITY))
            wall[nb++] = k;
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            int want = x + 1;
            if (y + 1 < want) want = y + 1;
            if (w - x < want) want = w - x;
            if (h - y < want) want = h - y;
            for (k = 0; k < nb; k++) {
                int dx = abs(wall[k] % w - x), dy = abs(wall[k] / w - y), d = dx > dy ? dx : dy;
                if (d < want)
                    want = d;
            }
            if (want > 255)
                want = 255;
            capped += want == 255;
            out[y * w + x] = (uint8_t)want;
        }
    free(wall);
    return capped;
}

/* Random maps, thin ones, and 600 x 560 ones with walls near one edge
 * (the cap). */
Test(crowd, near_wall_map_matches_brute_force)
{
    unsigned long long seed = 77;
    int trial;

    for (trial = 0; trial < 120; trial++) {
        int big = trial < 2, w = big ? 600 : 1 + (int)(tu_next(&seed) % 20);
        int h = big ? 560 : 1 + (int)(tu_next(&seed) % 20), k, capped;
        uint8_t *want = malloc((size_t)w * (size_t)h);
        ff_grid g;
        ff_walls wl;
        ff_grid_init(&g);
        cr_assert_eq(ff_grid_alloc(&g, w, h, 0, NULL, NULL), FF_OK);
        for (k = 0; k < w * h; k++) {
            int blocked = big ? k % w < 20 && tu_next(&seed) % 50 == 0 : tu_next(&seed) % 5 == 0;
            g.cost[k] = blocked ? INFINITY : 1;
        }
        cr_assert_eq(ff_walls_init(&wl, &g, NULL), FF_OK);
        capped = near_by_definition(&g, want);
        for (k = 0; k < w * h; k++)
            cr_assert_eq(wl.near[k], want[k], "trial %d (%dx%d): %d,%d near %d, brute force %d", trial,
                         w, h, k % w, k / w, wl.near[k], want[k]);
        cr_assert(!big || capped > 0);
        ff_walls_free(&wl);
        ff_grid_free(&g);
        free(want);
    }
}

/* The near-wall map repaired after random batches of cells opened and
 * closed (rows of them like doors, single cells, repeats, cells listed
 * that did not change) equals the map's definition for the new walls,
 * on random maps and on 600 x 560 ones with few walls (entries at the
 * cap, changes whose reach is the cap).  And it touches no cell it need
 * not: a cell farther (Chebyshev) from every change than its entry
 * before plus 2, poisoned with a lower entry, keeps the poison, as long
 * as the region a change can alter is within a quarter of the map (past
 * that the map is recomputed whole). */
Test(crowd, near_wall_repair_matches_brute_force)
{
    unsigned long long seed = 1234;
    int trial, poisoned_kept = 0;

    for (trial = 0; trial < 160; trial++) {
        int big = trial < 3, w = big ? 600 : 1 + (int)(tu_next(&seed) % 40);
        int h = big ? 560 : 1 + (int)(tu_next(&seed) % 40), n = w * h, density = 2 + (int)(tu_next(&seed) % 40);
        uint8_t *want = malloc((size_t)n), *before = malloc((size_t)n), *poison = malloc((size_t)n);
        uint8_t *was_open = malloc((size_t)n);
        uint32_t cells[64];
        ff_grid g;
        ff_walls wl;
        int round, k;

        cr_assert(want && before && poison && was_open);
        ff_grid_init(&g);
        cr_assert_eq(ff_grid_alloc(&g, w, h, 0, NULL, NULL), FF_OK);
        for (k = 0; k < n; k++)
            g.cost[k] = (big ? tu_next(&seed) % 4000 == 0 : (int)(tu_next(&seed) % 100) < density)
                            ? INFINITY : 1;
        cr_assert_eq(ff_walls_init(&wl, &g, NULL), FF_OK);
        memcpy(before, wl.near, (size_t)n);
        cells[0] = (uint32_t)(n / 2);
        ff_walls_repair(&wl, cells, 1);  /* the first repair: of nothing */
        cr_assert_eq(memcmp(before, wl.near, (size_t)n), 0, "trial %d: a first repair of nothing", trial);
        for (round = 0; round < 6; round++) {
            int nc = 0, x0 = (int)(tu_next(&seed) % (unsigned)w), y0 = (int)(tu_next(&seed) % (unsigned)h);
            int len = 1 + (int)(tu_next(&seed) % 8), region = 0, q, c;
            memcpy(before, wl.near, (size_t)n);
            for (k = 0; k < n; k++)
                was_open[k] = g.cost[k] < INFINITY;
            /* a door: a row of cells that all close or all open */
            for (k = 0; k < len && x0 + k < w; k++) {
                cells[nc] = (uint32_t)(y0 * w + x0 + k);
                g.cost[cells[nc]] = was_open[y0 * w + x0] ? INFINITY : 1;
                nc++;
            }
            /* single cells flipped, and cells listed that stay as they are */
            while (nc < 24 && tu_next(&seed) % 3 != 0) {
                c = (int)(tu_next(&seed) % (unsigned)n);
                if (tu_next(&seed) % 4 != 0)
                    g.cost[c] = g.cost[c] < INFINITY ? INFINITY : 1;
                cells[nc++] = (uint32_t)c;
                if (tu_next(&seed) % 5 == 0)
                    cells[nc++] = (uint32_t)c;
            }
            /* the poison, where no change can reach */
            for (q = 0; q < n; q++) {
                int far = 1000;
                for (k = 0; k < nc; k++) {
                    int p = (int)cells[k], dx = abs(p % w - q % w), dy = abs(p / w - q / w);
                    int d = dx > dy ? dx : dy;
                    if (was_open[p] != (g.cost[p] < INFINITY) && d < far)
                        far = d;
                }
                region += far <= before[q];
                poison[q] = far > before[q] + 2 && before[q] > 1;
            }
            if (region > n / 4)
                memset(poison, 0, (size_t)n);
            for (q = 0; q < n; q++)
                if (poison[q])
                    wl.near[q] = (uint8_t)(before[q] - 1);
            ff_walls_repair(&wl, cells, (size_t)nc);
            near_by_definition(&g, want);
            for (q = 0; q < n; q++) {
                if (poison[q]) {
                    cr_assert_eq(wl.near[q], before[q] - 1, "trial %d round %d: %d,%d recomputed", trial,
                                 round, q % w, q / w);
                    poisoned_kept++;
                    wl.near[q] = before[q];
                }
                cr_assert_eq(wl.near[q], want[q], "trial %d round %d (%dx%d): %d,%d near %d, brute force %d",
                             trial, round, w, h, q % w, q / w, wl.near[q], want[q]);
            }
        }
        /* Cells listed that did not change: nothing to do. */
        memcpy(before, wl.near, (size_t)n);
        cells[0] = 0;
        cells[1] = (uint32_t)(n - 1);
        ff_walls_repair(&wl, cells, 2);
        ff_walls_repair(&wl, cells, 0);
        cr_assert_eq(memcmp(before, wl.near, (size_t)n), 0, "trial %d: a repair of nothing", trial);
        ff_walls_free(&wl);
        ff_grid_free(&g);
        free(want);
        free(before);
        free(poison);
        free(was_open);
    }
    cr_assert_gt(poisoned_kept, 10000);
}

Test(crowd, slide_keeps_the_part_along_the_wall)
{
    field f;
    ff_walls w;
    ff_error err;
    double x = 5.5, y = 1.3 + 1e-6;
    int cut;

    make_field(&f, room, 9);
    cr_assert_eq(ff_walls_init(&w, &f.g, &err), FF_OK);
    /* Against the north wall (y = 1): a move of (0.1, -0.1) keeps (0.1, 0)
     * and stops at the radius 0.3 from the wall. */
    cut = ff_walls_slide(&w, 0.3, &x, &y, 0.1, -0.1);
    cr_expect(cut);
    cr_expect(fabs(x - 5.6) < 1e-9, "x %.12g", x);
    cr_expect(fabs(y - 1.3) < 1e-8, "y %.12g", y);
    cr_expect(y >= 1.3);
    /* A move away from the wall is not cut. */
    cut = ff_walls_slide(&w, 0.3, &x, &y, 0, 0.2);
    cr_expect(!cut);
    cr_expect(fabs(y - 1.5) < 1e-8);
    /* Into the north-west corner: both walls hold it at 1.3, 1.3. */
    x = 1.5;
    y = 1.5;
    ff_walls_slide(&w, 0.3, &x, &y, -1, -1);
    cr_expect(fabs(x - 1.3) < 1e-8 && fabs(y - 1.3) < 1e-8, "%.12g %.12g", x, y);
    cr_expect(tu_wall_distance(&f.g, x, y) >= 0.3);
    ff_walls_free(&w);
    free_field(&f);
}

Test(crowd, slide_never_ends_in_or_near_a_wall)
{
    static const char *const rows[7] = { "########", "#..#...#", "#..#.#.#", "#......#", "##.##..#",
                                         "#.....G#", "########" };
    field f;
    ff_walls w;
    ff_error err;
    unsigned long long seed = 9;
    int k, moved = 0;

    make_field(&f, rows, 7);
    cr_assert_eq(ff_walls_init(&w, &f.g, &err), FF_OK);
    for (k = 0; k < 20000; k++) {
        double r = 0.1 + 0.35 * (double)(tu_next(&seed) >> 11) / 9007199254740992.0;
        double x = 1 + 6 * (double)(tu_next(&seed) >> 11) / 9007199254740992.0;
        double y = 1 + 5 * (double)(tu_next(&seed) >> 11) / 9007199254740992.0;
        double dx = -1.5 + 3 * (double)(tu_next(&seed) >> 11) / 9007199254740992.0;
        double dy = -1.5 + 3 * (double)(tu_next(&seed) >> 11) / 9007199254740992.0;
        double x0, y0;
        if (tu_wall_distance(&f.g, x, y) < r)
            continue;
        x0 = x;
        y0 = y;
        ff_walls_slide(&w, r, &x, &y, dx, dy);
        moved += x != x0 || y != y0;
        cr_assert(tu_wall_distance(&f.g, x, y) >= r, "from %g,%g by %g,%g (r %g) to %g,%g: %g from a wall",
                  x0, y0, dx, dy, r, x, y, tu_wall_distance(&f.g, x, y));
    }
    cr_expect(moved > 5000, "only %d moves went anywhere", moved);
    ff_walls_free(&w);
    free_field(&f);
}

/* ---- the spatial hash ---- */

Test(crowd, spatial_hash_finds_what_brute_force_finds)
{
    enum { N = 3000 };
    static ff_shash_entry pts[N];
    ff_shash h;
    ff_error err;
    unsigned long long seed = 77;
    size_t k, m;

    for (k = 0; k < N; k++) {
        pts[k].x = -30 + 90 * (double)(tu_next(&seed) >> 11) / 9007199254740992.0;
        pts[k].y = -10 + 50 * (double)(tu_next(&seed) >> 11) / 9007199254740992.0;
        pts[k].item = (uint32_t)k;
    }
    ff_shash_init(&h);
    cr_assert_eq(ff_shash_build(&h, 2.0, pts, N, &err), FF_OK);
    cr_assert_eq(h.n, N);
    for (k = 0; k < N; k += 7) {
        double r = 1.0;
        size_t brute = 0, found = 0;
        int32_t bx, by;
        for (m = 0; m < N; m++)
            brute += hypot(pts[m].x - pts[k].x, pts[m].y - pts[k].y) < r;
        for (by = ff_shash_bucket(&h, pts[k].y - r); by <= ff_shash_bucket(&h, pts[k].y + r); by++)
            for (bx = ff_shash_bucket(&h, pts[k].x - r); bx <= ff_shash_bucket(&h, pts[k].x + r); bx++) {
                const ff_shash_entry *e, *end;
                ff_shash_slot_range(&h, bx, by, &e, &end);
                for (; e < end; e++)
                    if (e->bx == bx && e->by == by && hypot(e->x - pts[k].x, e->y - pts[k].y) < r)
                        found++;
            }
        cr_assert_eq(found, brute, "point %zu: %zu found, %zu by brute force", k, found, brute);
    }
    /* Within a slot, points keep the order they were given. */
    for (k = 0; k + 1 < h.n; k++)
        if (ff_shash_slot(&h, h.entry[k].bx, h.entry[k].by) == ff_shash_slot(&h, h.entry[k + 1].bx, h.entry[k + 1].by))
            cr_assert_lt(h.entry[k].item, h.entry[k + 1].item);
    ff_shash_free(&h);
}

/* ---- follow ---- */

static void follow_matches(int smooth)
{
    static const char *const rows[7] = { "##########", "#........#", "#..##....#", "#.....#..#",
                                         "#........#", "#.......G#", "##########" };
    static const double start[][2] = { { 1.9, 1.6 }, { 2.25, 4.7 }, { 5.05, 3.5 }, { 7.6, 1.95 },
                                       { 4.5, 4.5 }, { 3.4, 3.3 } };
    char text[1024];
    int k, n = (int)(sizeof start / sizeof *start);
    size_t len;
    field f;
    ff_scenario s;
    ff_crowd c;
    ff_error err;

    make_field(&f, rows, 7);
    len = (size_t)snprintf(text, sizeof text, "ffsim 1\nticks 1\npasses 0\n"
                           "class p\n radius 0.05\n speed 0.01\n accel 1000\n follow\nend\n");
    for (k = 0; k < n; k++)
        len += (size_t)snprintf(text + len, sizeof text - len, "agent %d p %.17g,%.17g\n", k, start[k][0], start[k][1]);
    scenario(text, &f.g, &s);
    cr_assert_eq(ff_crowd_init(&c, &s, &f.g, f.dir, smooth, &err), FF_OK);
    cr_assert_eq(ff_crowd_step(&c, &err), FF_OK);
    cr_assert_eq(ff_crowd_step(&c, &err), FF_OK);
    for (k = 0; k < n; k++) {
        const ff_agent *a = agent_by_id(&c, (uint32_t)k);
        double dx, dy;
        if (smooth)
            ff_sample_smooth(&f.g, f.dir, start[k][0], start[k][1], &dx, &dy);
        else
            ff_sample_raw(&f.g, f.dir, start[k][0], start[k][1], &dx, &dy);
        cr_expect(fabs(a->vx - 0.01 * dx) < 1e-12 && fabs(a->vy - 0.01 * dy) < 1e-12,
                  "agent %d: velocity %g,%g, field %g,%g", k, a->vx, a->vy, dx, dy);
        cr_expect(fabs(a->x - (start[k][0] + 0.001 * dx)) < 1e-12);
    }
    ff_crowd_free(&c);
    ff_scenario_free(&s);
    free_field(&f);
}

Test(crowd, follow_is_ff_sample_smooth) { follow_matches(1); }
Test(crowd, follow_raw_is_ff_sample_raw) { follow_matches(0); }

/* ---- overlaps ---- */

Test(crowd, overlap_resolution_by_hand)
{
    field f;
    ff_scenario s;
    ff_crowd c;
    ff_error err;
    const ff_agent *a, *b, *p, *q;

    make_field(&f, room, 9);
    /* Free pair 0.4 apart with radii 0.3: half the overlap each, along the
     * line between them: 4.9 and 5.5.  Pair against the west wall (x = 1):
     * agent 3 cannot go west, so agent 4 takes the whole 0.4. */
    scenario("ffsim 1\nticks 0\npasses 1\nclass p\n radius 0.3\n speed 1\n follow\nend\n"
             "agent 1 p 5.0,3.5\nagent 2 p 5.4,3.5\nagent 3 p 1.3,6.5\nagent 4 p 1.5,6.5\n", &f.g, &s);
    cr_assert_eq(ff_crowd_init(&c, &s, &f.g, f.dir, 1, &err), FF_OK);
    cr_assert_eq(ff_crowd_step(&c, &err), FF_OK);
    a = agent_by_id(&c, 1);
    b = agent_by_id(&c, 2);
    p = agent_by_id(&c, 3);
    q = agent_by_id(&c, 4);
    cr_expect(fabs(a->x - 4.9) < 1e-12 && a->y == 3.5, "%.15g %.15g", a->x, a->y);
    cr_expect(fabs(b->x - 5.5) < 1e-12 && b->y == 3.5, "%.15g %.15g", b->x, b->y);
    cr_expect(fabs(p->x - 1.3) < 1e-8, "%.15g", p->x);
    cr_expect(fabs(q->x - 1.9) < 1e-8, "%.15g", q->x);
    cr_expect(c.stats.max_overlap < 1e-8, "%g", c.stats.max_overlap);
    ff_crowd_free(&c);
    ff_scenario_free(&s);
    free_field(&f);
}

/* ---- the seeds' priority example ---- */

/* A fast agent (1) behind a slow one (2) on the same line toward the goal
 * of the room.  Returns whether 1 ever got ahead of 2, and the largest
 * sideways offset it took. */
static int overtakes(const char *fast_behaviours, double *sideways)
{
    char text[1024];
    field f;
    ff_scenario s;
    ff_crowd c;
    ff_error err;
    int ahead = 0, t;

    make_field(&f, room, 9);
    snprintf(text, sizeof text,
             "ffsim 1\nticks 300\narrived stay\n"
             "class fast\n radius 0.3\n speed 1.2\n accel 4\n threshold 0.1\n%send\n"
             "class slow\n radius 0.3\n speed 0.3\n follow\nend\n"
             "agent 1 fast 2.5,4.5 heading 0\nagent 2 slow 5.5,4.5 heading 0\n",
             fast_behaviours);
    scenario(text, &f.g, &s);
    cr_assert_eq(ff_crowd_init(&c, &s, &f.g, f.dir, 1, &err), FF_OK);
    *sideways = 0;
    for (t = 0; t <= 300; t++) {
        const ff_agent *a, *b;
        cr_assert_eq(ff_crowd_step(&c, &err), FF_OK);
        a = agent_by_id(&c, 1);
        b = agent_by_id(&c, 2);
        if (b->state == FF_AGENT_ARRIVED)
            break;
        if (a->x > b->x + 0.6)
            ahead = 1;
        if (fabs(a->y - 4.5) > *sideways)
            *sideways = fabs(a->y - 4.5);
    }
    ff_crowd_free(&c);
    ff_scenario_free(&s);
    free_field(&f);
    return ahead;
}

Test(crowd, avoidance_on_top_goes_around_a_slower_agent)
{
    double side;
    int ahead = overtakes(" separate priority 0 weight 2 range 1.0\n follow priority 1\n avoid-walls priority 1\n", &side);
    cr_expect(ahead, "the avoiding agent never got past the slow one");
    cr_expect(side > 0.5, "it went around (sideways %g)", side);
}

Test(crowd, follow_and_avoid_walls_alone_push_through)
{
    double side;
    int ahead = overtakes(" follow priority 0\n avoid-walls priority 0\n", &side);
    cr_expect(!ahead, "an agent without neighbour avoidance got past");
    cr_expect(side < 1e-9, "it left the line (sideways %g)", side);
}

Test(crowd, group_below_threshold_gives_way_in_the_simulation)
{
    field f;
    ff_scenario s;
    ff_crowd c;
    ff_error err;
    const ff_agent *weak, *strong;
    int t;

    make_field(&f, room, 9);
    /* Both seek 5.5,1.5 (north) in the top group and follow (east) in the
     * next.  With weight 0.05 the top group's length 0.05 is below the
     * threshold 0.1: the agent follows east.  With weight 1 it seeks. */
    scenario("ffsim 1\nticks 5\n"
             "class weak\n radius 0.3\n speed 1\n accel 100\n threshold 0.1\n"
             " seek 5.5,1.5 priority 0 weight 0.05\n follow priority 1\nend\n"
             "class strong\n radius 0.3\n speed 1\n accel 100\n threshold 0.1\n"
             " seek 5.5,1.5 priority 0 weight 1\n follow priority 1\nend\n"
             "agent 1 weak 5.5,4.5\nagent 2 strong 5.5,6.5\n", &f.g, &s);
    cr_assert_eq(ff_crowd_init(&c, &s, &f.g, f.dir, 1, &err), FF_OK);
    for (t = 0; t <= 5; t++)
        cr_assert_eq(ff_crowd_step(&c, &err), FF_OK);
    weak = agent_by_id(&c, 1);
    strong = agent_by_id(&c, 2);
    cr_expect(fabs(weak->x - 6.0) < 1e-9 && fabs(weak->y - 4.5) < 1e-9, "weak at %g,%g", weak->x, weak->y);
    cr_expect(fabs(strong->x - 5.5) < 1e-9 && fabs(strong->y - 6.0) < 1e-9, "strong at %g,%g", strong->x, strong->y);
    cr_expect_eq(c.stats.group_fallbacks, 0);
    ff_crowd_free(&c);
    ff_scenario_free(&s);
    free_field(&f);
}

/* Agent 1 of a class whose top group seeks 5.5,1.5 (north) with weight
 * 0.1, as in issue 31, and whose next group follows the field (east), after
 * five ticks of 0.1 s; threshold_line is the class's threshold, or "". */
static void weak_first_group(const char *threshold_line, double *x, double *y)
{
    char text[512];
    field f;
    ff_scenario s;
    ff_crowd c;
    ff_error err;
    const ff_agent *a;
    int t;

    make_field(&f, room, 9);
    snprintf(text, sizeof text,
             "ffsim 1\nticks 5\n"
             "class weak\n radius 0.3\n speed 1\n accel 100\n%s"
             " seek 5.5,1.5 priority 0 weight 0.1\n follow priority 1\nend\n"
             "agent 1 weak 5.5,4.5\n", threshold_line);
    scenario(text, &f.g, &s);
    cr_assert_eq(ff_crowd_init(&c, &s, &f.g, f.dir, 1, &err), FF_OK);
    for (t = 0; t <= 5; t++)
        cr_assert_eq(ff_crowd_step(&c, &err), FF_OK);
    a = agent_by_id(&c, 1);
    *x = a->x;
    *y = a->y;
    ff_crowd_free(&c);
    ff_scenario_free(&s);
    free_field(&f);
}

Test(crowd, weak_first_group_gives_way_at_the_default_threshold)
{
    double x, y;

    /* The top group's length 0.1 is under the default 0.2: the agent
     * follows east at full speed, 5 ticks x 0.1 s x 1 = 0.5. */
    weak_first_group("", &x, &y);
    cr_expect(fabs(x - 6.0) < 1e-9 && fabs(y - 4.5) < 1e-9, "default: at %g,%g", x, y);
    weak_first_group(" threshold 0.2\n", &x, &y);
    cr_expect(fabs(x - 6.0) < 1e-9 && fabs(y - 4.5) < 1e-9, "0.2: at %g,%g", x, y);
    /* Over 0.05 it wins whole: north at a tenth of the speed, 0.05. */
    weak_first_group(" threshold 0.05\n", &x, &y);
    cr_expect(fabs(x - 5.5) < 1e-9 && fabs(y - 4.45) < 1e-9, "0.05: at %g,%g", x, y);
}

/* ---- walls, unreachable cells ---- */

Test(crowd, agent_in_a_blocked_cell_walks_out)
{
    static const char *const rows[5] = { "#######", "#.....#", "#.###.#", "#....G#", "#######" };
    field f;
    ff_scenario s;
    ff_crowd c;
    ff_error err;
    ff_agent *a, *b;
    int t;

    make_field(&f, rows, 5);
    scenario("ffsim 1\nticks 40\nclass p\n radius 0.2\n speed 1\n follow\nend\n"
             "agent 1 p 1.5,1.5\nagent 2 p 1.5,3.5\n", &f.g, &s);
    cr_assert_eq(ff_crowd_init(&c, &s, &f.g, f.dir, 1, &err), FF_OK);
    cr_assert_eq(ff_crowd_step(&c, &err), FF_OK);
    /* As if a map change had closed cells on them: agent 1 into the wall
     * cell 2,2 (no direction: it heads for the nearest open center, 2.5,1.5
     * or 2.5,3.5 at the same distance: the first in row order, 2.5,1.5);
     * agent 2 into 3,2 with a direction given by hand (east). */
    a = &c.agent[0];
    b = &c.agent[1];
    a->x = 2.5;
    a->y = 2.4;
    b->x = 3.5;
    b->y = 2.5;
    f.dir[2 * 7 + 3] = FF_DIR_E;
    ff_crowd_moved(&c);
    cr_assert_eq(ff_crowd_step(&c, &err), FF_OK);
    cr_expect_eq(a->state, FF_AGENT_ESCAPING);
    cr_expect(fabs(a->x - 2.5) < 1e-12 && fabs(a->y - 2.3) < 1e-12, "%.15g %.15g", a->x, a->y);
    cr_expect(fabs(b->x - 3.6) < 1e-12 && fabs(b->y - 2.5) < 1e-12, "%.15g %.15g", b->x, b->y);
    for (t = 0; t < 20; t++)
        cr_assert_eq(ff_crowd_step(&c, &err), FF_OK);
    cr_expect(ff_grid_open(&f.g, (size_t)floor(a->y) * 7 + (size_t)floor(a->x)), "agent 1 still in a wall");
    cr_expect(b->state == FF_AGENT_GONE || ff_grid_open(&f.g, (size_t)floor(b->y) * 7 + (size_t)floor(b->x)),
              "agent 2 still in a wall");
    cr_expect_gt(c.stats.escapes, 0);
    ff_crowd_free(&c);
    ff_scenario_free(&s);
    free_field(&f);
}

Test(crowd, unreachable_agent_stops_and_is_reported)
{
    static const char *const rows[5] = { "########", "#..#...#", "#..#..G#", "#..#...#", "########" };
    field f;
    ff_scenario s;
    ff_crowd c;
    ff_crowd_summary sum;
    ff_error err;
    const ff_agent *a;
    int t;

    make_field(&f, rows, 5);
    scenario("ffsim 1\nticks 40\nclass p\n radius 0.3\n speed 1\n follow\nend\n"
             "agent 1 p 1.5,2.5 heading 0\nagent 2 p 4.5,1.5\n", &f.g, &s);
    cr_assert_eq(ff_crowd_init(&c, &s, &f.g, f.dir, 1, &err), FF_OK);
    for (t = 0; t <= 40; t++)
        cr_assert_eq(ff_crowd_step(&c, &err), FF_OK);
    a = agent_by_id(&c, 1);
    cr_expect_eq(a->state, FF_AGENT_STUCK);
    cr_expect(a->x == 1.5 && a->y == 2.5 && a->vx == 0 && a->vy == 0);
    cr_assert_eq(ff_crowd_summarise(&c, &sum, &err), FF_OK);
    cr_expect_eq(sum.stuck, 1);
    cr_expect_eq(sum.arrived, 1);
    ff_crowd_free(&c);
    ff_scenario_free(&s);
    free_field(&f);
}

/* The public handle (crowd.h): made and freed whole, read through
 * ff_crowd_agent and the counts; the same map as above, agent 1 in the
 * west pocket with no way out, agent 2 two cells from the goal (6,2). */
Test(crowd, public_handle_reads_the_agents)
{
    static const char *const rows[5] = { "########", "#..#...#", "#..#..G#", "#..#...#", "########" };
    field f;
    ff_scenario s;
    ff_crowd *c;
    ff_agent_view v;
    ff_error err;
    uint32_t first = 0;
    int t;

    make_field(&f, rows, 5);
    scenario("ffsim 1\nticks 40\narrived stay\nclass p\n radius 0.3\n speed 1\n follow\nend\n"
             "agent 1 p 1.5,2.5 heading 0\nagent 2 p 4.5,2.5 tick 3\n", &f.g, &s);
    c = ff_crowd_new_field(&s, &f.g, f.dir, 1, &err);
    cr_assert_not_null(c, "%s", err.msg);
    cr_expect_eq(ff_crowd_tick(c), -1);
    cr_expect_eq(ff_crowd_agent_count(c), 2);
    cr_expect_eq(ff_crowd_unreachable(c, 0, &first), 1);
    cr_expect_eq(first, 1);
    ff_crowd_agent(c, 1, &v);
    cr_expect(v.id == 2 && v.cls == 0 && v.state == FF_AGENT_UNBORN && v.spawn_tick == 3 &&
              v.arrival_tick == -1 && v.x == 4.5 && v.y == 2.5);
    for (t = 0; t <= 5; t++)
        cr_assert_eq(ff_crowd_step(c, &err), FF_OK, "%s", err.msg);
    cr_expect_eq(ff_crowd_tick(c), 5);
    /* Two ticks of walking east at most 1 a second (tick 0.1 s by default:
     * 0.2 units at most), heading east. */
    ff_crowd_agent(c, 1, &v);
    cr_expect_eq(v.state, FF_AGENT_MOVING);
    cr_expect(v.x > 4.5 && v.x <= 4.7 + 1e-9 && fabs(v.y - 2.5) < 1e-9, "at %g,%g", v.x, v.y);
    cr_expect(v.vx > 0 && v.vx <= 1 + 1e-9 && fabs(v.vy) < 1e-9, "velocity %g,%g", v.vx, v.vy);
    cr_expect(fabs(v.hx * v.hx + v.hy * v.hy - 1) < 1e-9 && v.hx > 0.99);
    ff_crowd_agent(c, 0, &v);
    cr_expect(v.id == 1 && v.state == FF_AGENT_STUCK && v.x == 1.5 && v.y == 2.5 && v.vx == 0 && v.vy == 0);
    cr_expect_eq(ff_crowd_agent_miss(c, 0), FF_MISS_UNREACHABLE);
    cr_expect_eq(ff_crowd_deadlock_count(c), 0);
    for (t = 6; t <= 40; t++)
        cr_assert_eq(ff_crowd_step(c, &err), FF_OK, "%s", err.msg);
    ff_crowd_agent(c, 1, &v);
    cr_expect(v.state == FF_AGENT_ARRIVED && v.arrival_tick > 3 && v.arrival_tick <= 40);
    cr_expect_eq(ff_crowd_agent_miss(c, 1), FF_MISS_NONE);
    ff_crowd_delete(c);
    ff_crowd_delete(NULL);
    ff_scenario_free(&s);
    free_field(&f);
}

/* Cell-to-cell moves need profiles: ff_crowd_new_field refuses them,
 * with NULL and the reason. */
Test(crowd, public_handle_refused_without_profiles)
{
    field f;
    ff_scenario s;
    ff_error err;

    make_field(&f, room, 9);
    scenario("ffsim 1\nticks 4\nmove grid\nclass p\n radius 0.3\n speed 1\n follow\nend\n"
             "agent 1 p 1.5,1.5\n", &f.g, &s);
    ff_error_clear(&err);
    cr_expect_null(ff_crowd_new_field(&s, &f.g, f.dir, 1, &err));
    cr_expect_eq(err.status, FF_EUSAGE);
    cr_expect(strstr(err.msg, "cell-to-cell moves need profiles") != NULL, "%s", err.msg);
    ff_scenario_free(&s);
    free_field(&f);
}

/* ---- the gate ---- */

typedef struct {
    double max_overlap, jitter;
    size_t arrived, agents;
    unsigned long long penetrations, checked;
    double end_x_sum;
} gate_run;

/* The bundled bottleneck, with every position checked here each tick
 * against every wall cell and every other agent, by brute force. */
static void run_gate(int smooth, gate_run *out)
{
    char map_path[256], scen_path[256];
    ff_map_options mopt;
    field f;
    ff_scenario s;
    ff_crowd c;
    ff_crowd_summary sum;
    ff_error err;
    FILE *in;
    size_t n, i, j;

    memset(out, 0, sizeof *out);
    ff_map_options_init(&mopt);
    ff_grid_init(&f.g);
    in = fopen(tu_testdata("gate.ffmap", map_path, sizeof map_path), "rb");
    cr_assert_not_null(in);
    cr_assert_eq(ff_map_read(in, map_path, &mopt, &f.g, &err), FF_OK, "%s", err.msg);
    fclose(in);
    n = (size_t)f.g.w * (size_t)f.g.h;
    f.dist = malloc(n * sizeof *f.dist);
    f.dir = malloc(n);
    cr_assert_eq(ff_search(&f.g, f.dist, &err), FF_OK);
    cr_assert_eq(ff_direction_field(&f.g, f.dist, f.dir, &err), FF_OK);
    in = fopen(tu_testdata("gate.scenario", scen_path, sizeof scen_path), "rb");
    cr_assert_not_null(in);
    cr_assert_eq(ff_scenario_read(in, scen_path, &f.g, &s, &err), FF_OK, "%s", err.msg);
    fclose(in);
    cr_assert_eq(ff_crowd_init(&c, &s, &f.g, f.dir, smooth, &err), FF_OK);
    while (c.tick < s.ticks) {
        cr_assert_eq(ff_crowd_step(&c, &err), FF_OK);
        for (i = 0; i < c.nagents; i++) {
            const ff_agent *a = &c.agent[i];
            double r;
            if (a->state == FF_AGENT_UNBORN || (a->state == FF_AGENT_GONE && a->arrival_tick != c.tick))
                continue;
            r = s.cls[a->cls].radius;
            out->checked++;
            if (tu_wall_distance(&f.g, a->x, a->y) < r - 1e-9)
                out->penetrations++;
            for (j = i + 1; j < c.nagents; j++) {
                const ff_agent *b = &c.agent[j];
                double d, rs;
                if (b->state == FF_AGENT_UNBORN || (b->state == FF_AGENT_GONE && b->arrival_tick != c.tick))
                    continue;
                rs = r + s.cls[b->cls].radius;
                d = hypot(a->x - b->x, a->y - b->y);
                if ((rs - d) / rs > out->max_overlap)
                    out->max_overlap = (rs - d) / rs;
            }
        }
    }
    cr_assert_eq(ff_crowd_summarise(&c, &sum, &err), FF_OK);
    out->arrived = sum.arrived;
    out->agents = sum.agents;
    out->jitter = sum.stats.jitter_sum / (double)sum.stats.jitter_moves;
    cr_expect_eq(sum.stats.wall_penetrations, out->penetrations, "the crowd's own count disagrees");
    cr_expect(fabs(sum.stats.max_overlap - out->max_overlap) < 1e-12, "max overlap %g, measured %g",
              sum.stats.max_overlap, out->max_overlap);
    for (i = 0; i < c.nagents; i++)
        out->end_x_sum += c.agent[i].x;
    ff_crowd_free(&c);
    ff_scenario_free(&s);
    free_field(&f);
}

/* The contacts of a tick come from candidates the steering's neighbour
 * scans gather; a fresh search after the moves must find the same pairs
 * in the same order.  A crowded room with three classes (one whose
 * separate range is too short to gather, one without separate, large and
 * small radii, fast and slow), run both ways: every position equal, bit
 * for bit, every tick. */
static void candidates_match(int stay, size_t end_by_hash_min)
{
    char text[1024];
    field f;
    ff_scenario s;
    ff_crowd a, b;
    ff_crowd_summary sa, sb;
    ff_error err;
    size_t i;

    make_field(&f, room, 9);
    snprintf(text, sizeof text, "ffsim 1\n%stick 0.2\nticks 150\npasses 3\n"
             "class big\n radius 0.45\n speed 2.5\n accel 8\n follow\n"
             " separate weight 0.8 range 1.6\n avoid-walls weight 0.5 range 0.3\nend\n"
             "class small\n radius 0.15\n speed 1\n follow priority 1\n"
             " separate priority 0 weight 1 range 0.4\n threshold 0.2\nend\n"
             "class plain\n radius 0.3\n speed 1.5\n follow\nend\n"
             "spawn 25 big rect 1,1,10,8 seed 3\nspawn 30 small rect 1,1,10,8 seed 4\n"
             "spawn 15 plain rect 1,1,10,8 seed 5 tick 20\n",
             stay ? "arrived stay\n" : "");
    scenario(text, &f.g, &s);
    cr_assert_eq(ff_crowd_init(&a, &s, &f.g, f.dir, 1, &err), FF_OK);
    cr_assert_eq(ff_crowd_init(&b, &s, &f.g, f.dir, 1, &err), FF_OK);
    a.end_by_hash_min = end_by_hash_min;
    b.fresh_contacts = 1;
    while (a.tick < s.ticks) {
        cr_assert_eq(ff_crowd_step(&a, &err), FF_OK);
        cr_assert_eq(ff_crowd_step(&b, &err), FF_OK);
        cr_assert_eq(a.ncontacts, b.ncontacts, "tick %lld", a.tick);
        for (i = 0; i < 2 * a.ncontacts; i++)
            cr_assert_eq(a.contact[i], b.contact[i], "tick %lld, contact %zu", a.tick, i / 2);
        for (i = 0; i < a.nagents; i++)
            cr_assert(a.agent[i].x == b.agent[i].x && a.agent[i].y == b.agent[i].y &&
                          a.agent[i].vx == b.agent[i].vx && a.agent[i].state == b.agent[i].state,
                      "tick %lld, agent %u", a.tick, a.agent[i].id);
    }
    /* Both ways were taken: candidates on most ticks, a fresh search when
     * agents entered (and never in b). */
    cr_expect_gt(a.candidate_ticks, 100);
    cr_expect_lt(a.candidate_ticks, (unsigned long long)s.ticks);
    cr_expect_eq(b.candidate_ticks, 0);
    cr_expect_gt(a.stats.max_overlap, 0);
    cr_assert_eq(ff_crowd_summarise(&a, &sa, &err), FF_OK);
    cr_assert_eq(ff_crowd_summarise(&b, &sb, &err), FF_OK);
    cr_expect_gt(sa.arrived, 10, "%zu arrived", sa.arrived);
    cr_expect_eq(sa.arrived, sb.arrived);
    cr_expect_eq(sa.stats.wall_penetrations, sb.stats.wall_penetrations);
    cr_expect_eq(sa.stats.max_overlap, sb.stats.max_overlap);
    cr_expect_eq(sa.stats.jitter_sum, sb.stats.jitter_sum);
    ff_crowd_free(&a);
    ff_crowd_free(&b);
    ff_scenario_free(&s);
    free_field(&f);
}

/* A door closes on part of the crowd: agents in the closed cells count
 * as wall penetrations until they walk out.  Ending in the hash's order
 * checks them as the walk in index order does. */
Test(crowd, end_in_hash_order_counts_penetrations)
{
    field f;
    ff_scenario s;
    ff_profiles pa, pb;
    ff_crowd a, b;
    ff_crowd_summary sa, sb;
    ff_error err;
    size_t i;

    make_field(&f, room, 9);
    scenario("ffsim 1\ntick 0.1\nticks 120\nat 5 close 4,2,7,6\n"
             "class w\n radius 0.3\n speed 1.2\n follow\n separate weight 0.5 range 1\n"
             " avoid-walls weight 0.5 range 0.3\nend\n"
             "spawn 40 w rect 1,1,9,8 seed 7\n", &f.g, &s);
    cr_assert_eq(ff_profiles_init(&pa, &s, &f.g, "t", &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_profiles_init(&pb, &s, &f.g, "t", &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_crowd_init_profiles(&a, &s, &pa, 1, &err), FF_OK);
    cr_assert_eq(ff_crowd_init_profiles(&b, &s, &pb, 1, &err), FF_OK);
    a.end_by_hash_min = 0;
    b.fresh_contacts = 1;
    while (a.tick < s.ticks) {
        cr_assert_eq(ff_crowd_step(&a, &err), FF_OK);
        cr_assert_eq(ff_crowd_step(&b, &err), FF_OK);
        for (i = 0; i < a.nagents; i++)
            cr_assert(a.agent[i].x == b.agent[i].x && a.agent[i].y == b.agent[i].y &&
                          a.agent[i].vx == b.agent[i].vx && a.agent[i].state == b.agent[i].state,
                      "tick %lld, agent %u", a.tick, a.agent[i].id);
    }
    cr_assert_eq(ff_crowd_summarise(&a, &sa, &err), FF_OK);
    cr_assert_eq(ff_crowd_summarise(&b, &sb, &err), FF_OK);
    cr_expect_gt(a.candidate_ticks, 50);
    cr_expect_gt(sa.stats.escapes, 0);
    cr_expect_gt(sa.stats.wall_penetrations, 0);
    cr_expect_eq(sa.stats.wall_penetrations, sb.stats.wall_penetrations);
    cr_expect_eq(sa.arrived, sb.arrived);
    ff_crowd_free(&a);
    ff_crowd_free(&b);
    ff_profiles_free(&pa);
    ff_profiles_free(&pb);
    ff_scenario_free(&s);
    free_field(&f);
}

/* A class fast enough to cross the map in a tick (a scenario's mistake):
 * its moves are cut to the map's size, its contacts found afresh (the
 * candidates' reach would span the whole map), and an agent in a wall
 * cell whose direction points off the map walks out a cell a tick at
 * most; everyone stays in or next to the map, and the run ends at once. */
Test(crowd, absurd_speed_stays_in_the_map, .timeout = 20)
{
    field f;
    ff_scenario s;
    ff_crowd c;
    ff_error err;
    size_t i;

    make_field(&f, room, 9);
    scenario("ffsim 1\ntick 0.5\nticks 40\n"
             "class rocket\n radius 0.3\n speed 1e8\n accel 1e9\n follow\n"
             " separate weight 0.5 range 1\nend\n"
             "spawn 30 rocket rect 1,1,10,8 seed 9\n", &f.g, &s);
    cr_assert_eq(ff_crowd_init(&c, &s, &f.g, f.dir, 1, &err), FF_OK);
    cr_expect_eq(c.candidates_ok, 0);
    cr_assert_eq(ff_crowd_step(&c, &err), FF_OK);
    /* Agent 0 into the west wall at 0,4, its direction west, off the map. */
    c.agent[0].x = 0.5;
    c.agent[0].y = 4.5;
    f.dir[4 * 20 + 0] = FF_DIR_W;
    ff_crowd_moved(&c);
    while (c.tick < s.ticks) {
        cr_assert_eq(ff_crowd_step(&c, &err), FF_OK);
        for (i = 0; i < c.nagents; i++)
            cr_assert(c.agent[i].x > -1.5 && c.agent[i].x < f.g.w + 1.5 && c.agent[i].y > -1.5 &&
                          c.agent[i].y < f.g.h + 1.5,
                      "tick %lld: agent %u at %g,%g", c.tick, c.agent[i].id, c.agent[i].x, c.agent[i].y);
    }
    cr_expect_eq(c.candidate_ticks, 0);
    cr_expect_gt(c.stats.escapes, 0);
    ff_crowd_free(&c);
    ff_scenario_free(&s);
    free_field(&f);
}

/* A tiny radius at a great speed (the fuzzer's slow unit: 'speed
 * 110000000', radius 0.001, along a wall: 100,000 substeps a move once):
 * a move is cut to FF_SLIDE_SUBSTEPS_MAX substeps of half the radius, so
 * no agent goes farther in a tick than 128 radii, and none into a wall. */
Test(crowd, tiny_radius_great_speed_moves_256_substeps_at_most, .timeout = 20)
{
    field f;
    ff_scenario s;
    ff_crowd c;
    ff_error err;
    ff_crowd_summary sum;
    size_t i;
    double *x0, *y0;

    make_field(&f, room, 9);
    scenario("ffsim 1\ntick 0.2\nticks 20\npasses 31\n"
             "class dot\n radius 0.001\n speed 110000000\n follow\n"
             " separate weight 1 range 0.4\nend\n"
             "spawn 200 dot rect 1,1,10,8 seed 4\n", &f.g, &s);
    cr_assert_eq(ff_crowd_init(&c, &s, &f.g, f.dir, 1, &err), FF_OK);
    cr_assert_eq(ff_crowd_step(&c, &err), FF_OK);
    x0 = malloc(c.nagents * sizeof *x0);
    y0 = malloc(c.nagents * sizeof *y0);
    cr_assert(x0 && y0);
    while (c.tick < s.ticks) {
        for (i = 0; i < c.nagents; i++) {
            x0[i] = c.agent[i].x;
            y0[i] = c.agent[i].y;
        }
        cr_assert_eq(ff_crowd_step(&c, &err), FF_OK);
        for (i = 0; i < c.nagents; i++) {
            /* The move (256 half radii), and the overlap passes' pushes
             * (each under a diameter). */
            double moved = hypot(c.agent[i].x - x0[i], c.agent[i].y - y0[i]);
            if (c.agent[i].state == FF_AGENT_GONE)
                continue;
            cr_assert_leq(moved, FF_SLIDE_SUBSTEPS_MAX * 0.0005 + 31 * 0.002 + 1e-9,
                          "tick %lld: agent %u moved %g", c.tick, c.agent[i].id, moved);
        }
    }
    cr_assert_eq(ff_crowd_summarise(&c, &sum, &err), FF_OK);
    cr_expect_eq(sum.stats.wall_penetrations, 0);
    free(x0);
    free(y0);
    ff_crowd_free(&c);
    ff_scenario_free(&s);
    free_field(&f);
}

/* Two behaviours of weight 1e308 sum to inf, and the cut to length 1
 * makes the steering NaN: no move, as the slide takes none, and the run
 * goes on (found in review: a fast path once moved the agent to NaN). */
Test(crowd, nan_steering_does_not_move, .timeout = 10)
{
    field f;
    ff_scenario s;
    ff_crowd c;
    ff_error err;

    make_field(&f, room, 9);
    scenario("ffsim 1\nticks 5\nclass a\n radius 0.3\n speed 1\n follow weight 1e308\n"
             " seek 14.5,4.5 weight 1e308\nend\nagent 1 a 3.5,4.5 heading 0\n", &f.g, &s);
    cr_assert_eq(ff_crowd_init(&c, &s, &f.g, f.dir, 1, &err), FF_OK);
    while (c.tick < s.ticks) {
        cr_assert_eq(ff_crowd_step(&c, &err), FF_OK);
        cr_assert(c.agent[0].x == 3.5 && c.agent[0].y == 4.5, "tick %lld: %g,%g", c.tick, c.agent[0].x,
                  c.agent[0].y);
    }
    ff_crowd_free(&c);
    ff_scenario_free(&s);
    free_field(&f);
}

Test(crowd, contact_candidates_match_a_fresh_search) { candidates_match(0, 32768); }
/* The same, ending the ticks in the hash's order, as large crowds do. */
Test(crowd, end_in_hash_order_matches) { candidates_match(0, 0); }
Test(crowd, end_in_hash_order_matches_with_agents_staying) { candidates_match(1, 0); }

Test(crowd, gate_bottleneck_raw_and_smooth, .timeout = 120)
{
    gate_run smooth, raw, again;

    run_gate(1, &smooth);
    run_gate(0, &raw);
    cr_expect_eq(smooth.agents, 300);
    cr_expect_gt(smooth.checked, 50000);
    cr_expect_eq(smooth.penetrations, 0, "wall penetrations (smooth): %llu", smooth.penetrations);
    cr_expect_eq(raw.penetrations, 0, "wall penetrations (raw): %llu", raw.penetrations);
    cr_expect_eq(smooth.arrived, 300, "smooth: %zu of 300 arrived", smooth.arrived);
    cr_expect_eq(raw.arrived, 300, "raw: %zu of 300 arrived", raw.arrived);
    /* The stated bound (man 1 ffsim): overlaps after resolution stay under
     * 30% of the radii sum. */
    cr_expect_lt(smooth.max_overlap, 0.3, "%g", smooth.max_overlap);
    cr_expect_lt(raw.max_overlap, 0.3, "%g", raw.max_overlap);
    /* Smoothing exists for this: at least a quarter less heading jitter. */
    cr_expect_lt(smooth.jitter, 0.75 * raw.jitter, "jitter smooth %g, raw %g", smooth.jitter, raw.jitter);
    /* Deterministic within one process too. */
    run_gate(1, &again);
    cr_expect_eq(again.end_x_sum, smooth.end_x_sum);
    cr_expect_eq(again.jitter, smooth.jitter);
}
