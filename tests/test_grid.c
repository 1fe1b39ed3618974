/* test_grid.c - the graph's rules and the clearance transform. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <math.h>

#include "grid.h"

/* Distance from the center of (x,y) to the square of cell (bx,by). */
static double to_square(int x, int y, int bx, int by)
{
    double dx = fabs((double)(bx - x)) - 0.5, dy = fabs((double)(by - y)) - 0.5;
    if (dx < 0)
        dx = 0;
    if (dy < 0)
        dy = 0;
    return sqrt(dx * dx + dy * dy);
}

Test(clearance, matches_brute_force_on_random_maps)
{
    unsigned long long rng = 99;
    int trial, closed_total = 0;

    for (trial = 0; trial < 300; trial++) {
        int w = 2 + (int)(tu_next(&rng) % 14), h = 2 + (int)(tu_next(&rng) % 14);
        double cell = tu_next(&rng) % 2 ? 1.0 : 0.5;
        double r = (double)(tu_next(&rng) % 40) / 10.0 * cell;
        int classes = tu_next(&rng) % 3 == 0, x, y;
        ff_grid g;
        float before[256];
        ff_grid_init(&g);
        g.cell_size = cell;
        cr_assert_eq(ff_grid_alloc(&g, w, h, 0, NULL, NULL), FF_OK);
        if (classes)
            g.terrain = malloc((size_t)(w * h));
        for (x = 0; x < w * h; x++) {
            g.cost[x] = tu_next(&rng) % 6 == 0 ? INFINITY : 1;
            if (classes)
                g.terrain[x] = tu_next(&rng) % 8 == 0;
            before[x] = g.cost[x];
        }
        cr_assert_eq(ff_grid_apply_clearance(&g, r, NULL), FF_OK);
        for (y = 0; y < h; y++)
            for (x = 0; x < w; x++) {
                int i = y * w + x, bx, by;
                /* The map edge: distance from the center to the border. */
                double best = fmin(fmin(x + 0.5, w - x - 0.5), fmin(y + 0.5, h - y - 0.5));
                if (isinf(before[i])) {
                    cr_assert(isinf(g.cost[i]));
                    continue;
                }
                for (by = 0; by < h; by++)
                    for (bx = 0; bx < w; bx++) {
                        int j = by * w + bx;
                        if (isinf(before[j]) || (classes && g.terrain[j] != g.terrain[i]))
                            best = fmin(best, to_square(x, y, bx, by));
                    }
                if (best * cell < r) {
                    cr_assert(isinf(g.cost[i]), "trial %d: %d,%d at %g < r %g stays open",
                              trial, x, y, best * cell, r);
                    closed_total++;
                } else
                    cr_assert(!isinf(g.cost[i]), "trial %d: %d,%d at %g >= r %g closed",
                              trial, x, y, best * cell, r);
            }
        ff_grid_free(&g);
    }
    cr_assert_gt(closed_total, 100);
}

Test(clearance, radius_zero_changes_nothing_and_negative_is_refused)
{
    ff_grid g;

    ff_grid_init(&g);
    cr_assert_eq(ff_grid_alloc(&g, 3, 1, 0, NULL, NULL), FF_OK);
    g.cost[0] = g.cost[1] = g.cost[2] = 1;
    cr_assert_eq(ff_grid_apply_clearance(&g, 0, NULL), FF_OK);
    cr_assert_eq(g.cost[0], 1);
    cr_assert_neq(ff_grid_apply_clearance(&g, -1, NULL), FF_OK);
    cr_assert_neq(ff_grid_apply_clearance(&g, NAN, NULL), FF_OK);
    /* 0.5 exactly: the center is 0.5 from the edge, not nearer: stays. */
    cr_assert_eq(ff_grid_apply_clearance(&g, 0.5, NULL), FF_OK);
    cr_assert_eq(g.cost[1], 1);
    cr_assert_eq(ff_grid_apply_clearance(&g, 0.5000001, NULL), FF_OK);
    cr_assert(isinf(g.cost[1]));
    ff_grid_free(&g);
}

Test(grid, corner_rules_for_a_diagonal)
{
    ff_grid g;
    int rule;

    for (rule = 0; rule < 3; rule++) {
        ff_grid_init(&g);
        cr_assert_eq(ff_grid_alloc(&g, 2, 2, 0, NULL, NULL), FF_OK);
        g.corners = (ff_corners)rule;
        g.cost[0] = 1;          /* (0,0) */
        g.cost[1] = 1;          /* (1,0) */
        g.cost[2] = 1;          /* (0,1) */
        g.cost[3] = INFINITY;   /* (1,1) */
        /* (0,1) -> (1,0) is NE; its sides are (1,1) blocked and (0,0) open. */
        cr_assert_eq(ff_grid_step_ok(&g, 0, 1, FF_DIR_NE), rule != FF_CORNERS_STRICT);
        g.cost[0] = INFINITY;
        cr_assert_eq(ff_grid_step_ok(&g, 0, 1, FF_DIR_NE), rule == FF_CORNERS_FREE);
        g.moves = 4;
        cr_assert_eq(ff_grid_step_ok(&g, 0, 1, FF_DIR_NE), 0);
        ff_grid_free(&g);
    }
}

Test(grid, size_limits_are_checked_before_allocating)
{
    ff_error err;

    cr_assert_eq(ff_check_size(100000, 100000, 0, "m", 1, &err), FF_EINPUT);
    cr_assert_eq(ff_check_size(0, 5, 0, "m", 1, &err), FF_EINPUT);
    cr_assert_eq(ff_check_size(-3, 5, 0, "m", 1, &err), FF_EINPUT);
    cr_assert_eq(ff_check_size(INT64_MAX, INT64_MAX, 0, "m", 1, &err), FF_EINPUT);
    cr_assert_eq(ff_check_size(32768, 32768, 0, "m", 1, &err), FF_OK);
    cr_assert_eq(ff_check_size(10, 10, 99, "m", 1, &err), FF_EINPUT);
}

/* The clearance's key (ff_clearance_key): the largest sum of two squares
 * below (2 r / cell)^2, by brute force; radii of one key close the same
 * cells of random maps (terrain class borders too), and a radius over a
 * key's sum closes one cell more than one under it (a wall at that
 * distance, in half cells, from a cell's center). */
Test(clearance, radii_of_one_key_close_the_same_cells)
{
    unsigned long long rng = 5;
    int trial, shared = 0;

    for (trial = 0; trial < 400; trial++) {
        int w = 3 + (int)(tu_next(&rng) % 12), h = 3 + (int)(tu_next(&rng) % 12), x;
        double cell = tu_next(&rng) % 2 ? 1.0 : 0.7;
        double r1 = (double)(1 + tu_next(&rng) % 400) / 100.0 * cell;
        double r2 = r1 + (double)(tu_next(&rng) % 30) / 100.0 * cell;
        double k1, k2, side = w < h ? w : h;
        ff_grid a, b;
        int r;

        for (r = 0; r < 2; r++) {
            double rad = r ? r2 : r1, l = (2 * rad / cell) * (2 * rad / cell), best = 0;
            long p, q;
            for (p = 0; (double)(p * p) < l; p++)
                for (q = 0; (double)(p * p + q * q) < l; q++)
                    if ((double)(p * p + q * q) > best)
                        best = (double)(p * p + q * q);
            if (l > side * side)
                best = INFINITY;
            cr_assert_eq(ff_clearance_key(&(ff_grid){ .w = w, .h = h, .cell_size = cell }, rad),
                         best, "radius %g cell %g %dx%d", rad, cell, w, h);
        }
        ff_grid_init(&a);
        a.cell_size = cell;
        cr_assert_eq(ff_grid_alloc(&a, w, h, 0, NULL, NULL), FF_OK);
        a.terrain = malloc((size_t)(w * h));
        for (x = 0; x < w * h; x++) {
            a.cost[x] = tu_next(&rng) % 7 == 0 ? INFINITY : 1;
            a.terrain[x] = tu_next(&rng) % 9 == 0;
        }
        k1 = ff_clearance_key(&a, r1);
        k2 = ff_clearance_key(&a, r2);
        ff_grid_init(&b);
        cr_assert_eq(ff_grid_copy(&b, &a, NULL), FF_OK);
        cr_assert_eq(ff_grid_apply_clearance(&a, r1, NULL), FF_OK);
        cr_assert_eq(ff_grid_apply_clearance(&b, r2, NULL), FF_OK);
        if (k1 == k2) {
            shared++;
            cr_expect(memcmp(a.cost, b.cost, (size_t)(w * h) * sizeof *a.cost) == 0,
                      "radii %g and %g (key %g) close different cells", r1, r2, k1);
        }
        ff_grid_free(&a);
        ff_grid_free(&b);
    }
    cr_expect_gt(shared, 100);
}

Test(clearance, a_radius_past_a_key_closes_more)
{
    /* A wall cell at (10, 10) of an open 21 x 21 map: the cell (10 + 2,
     * 10 + 1) has its center at half-cell offsets 3 and 1 from the wall's
     * nearest corner: squared 10. */
    ff_grid g;
    double under = sqrt(10.0) / 2 - 1e-9, over = sqrt(10.0) / 2 + 1e-9;
    int r;

    cr_assert_lt(ff_clearance_key(&(ff_grid){ .w = 21, .h = 21, .cell_size = 1 }, under), 10);
    cr_assert_eq(ff_clearance_key(&(ff_grid){ .w = 21, .h = 21, .cell_size = 1 }, over), 10);
    for (r = 0; r < 2; r++) {
        ff_grid_init(&g);
        cr_assert_eq(ff_grid_alloc(&g, 21, 21, 0, NULL, NULL), FF_OK);
        for (int i = 0; i < 21 * 21; i++)
            g.cost[i] = 1;
        g.cost[10 * 21 + 10] = INFINITY;
        cr_assert_eq(ff_grid_apply_clearance(&g, r ? over : under, NULL), FF_OK);
        cr_expect_eq(isinf(g.cost[11 * 21 + 12]) != 0, r, "radius %s the key's 10", r ? "over" : "under");
        ff_grid_free(&g);
    }
}

/* ff_grid_step_masks against ff_grid_step_ok, step by step, on random
 * maps with terrain classes, one-way cells, each corner rule and move set. */
Test(grid, step_masks_are_the_legal_steps)
{
    unsigned long long rng = 4242;
    int trial, steps = 0;

    for (trial = 0; trial < 400; trial++) {
        int w = 1 + (int)(tu_next(&rng) % 9), h = 1 + (int)(tu_next(&rng) % 9), x, y, d;
        int classes = tu_next(&rng) % 3 == 0, oneway = tu_next(&rng) % 3 == 0;
        uint8_t mask[81];
        ff_grid g;
        ff_grid_init(&g);
        g.moves = tu_next(&rng) % 2 ? 8 : 4;
        g.corners = (ff_corners)(tu_next(&rng) % 3);
        cr_assert_eq(ff_grid_alloc(&g, w, h, 0, NULL, NULL), FF_OK);
        if (classes)
            g.terrain = malloc((size_t)(w * h));
        if (oneway)
            g.oneway = malloc((size_t)(w * h));
        for (x = 0; x < w * h; x++) {
            unsigned long long r = tu_next(&rng);
            g.cost[x] = r % 4 == 0 ? INFINITY : r % 17 == 0 ? NAN : (float)(1 + r % 3);
            if (classes)
                g.terrain[x] = (uint8_t)(tu_next(&rng) % 3 == 0);
            if (oneway)
                g.oneway[x] = tu_next(&rng) % 2 ? FF_ONEWAY_ALL : (uint8_t)tu_next(&rng);
        }
        ff_grid_step_masks(&g, mask);
        for (y = 0; y < h; y++)
            for (x = 0; x < w; x++)
                for (d = 0; d < 8; d++) {
                    int want = ff_grid_step_ok(&g, x, y, d);
                    cr_assert_eq((mask[y * w + x] >> d) & 1, want, "trial %d: %d,%d direction %d",
                                 trial, x, y, d);
                    steps += want;
                }
        ff_grid_free(&g);
    }
    cr_assert_gt(steps, 1000);
}

/* The clipped box holds exactly the map's cells within reach of the
 * rectangle (Chebyshev distance, counted cell by cell), however large the
 * reach: the walks of ffbuild --update stay inside the map. */
Test(grid, clip_box_is_the_cells_within_reach)
{
    static const int64_t reaches[] = { 0, 1, 2, 5, 1000000000, (int64_t)1 << 32 };
    ff_grid g;
    int w, h, x0, y0, x1, y1, x, y;
    size_t r;

    ff_grid_init(&g);
    for (w = 1; w <= 4; w++)
        for (h = 1; h <= 3; h++) {
            g.w = w;
            g.h = h;
            for (r = 0; r < sizeof reaches / sizeof reaches[0]; r++)
                for (x0 = 0; x0 < w; x0++)
                    for (x1 = x0; x1 < w; x1++)
                        for (y0 = 0; y0 < h; y0++)
                            for (y1 = y0; y1 < h; y1++) {
                                int bx0, by0, bx1, by1;
                                int64_t k = reaches[r];
                                ff_grid_clip_box(&g, x0, y0, x1, y1, k, &bx0, &by0, &bx1, &by1);
                                for (y = 0; y < h; y++)
                                    for (x = 0; x < w; x++) {
                                        int want = x >= x0 - k && x <= x1 + k && y >= y0 - k &&
                                                   y <= y1 + k;
                                        int got = x >= bx0 && x <= bx1 && y >= by0 && y <= by1;
                                        cr_assert_eq(got, want, "%dx%d reach %lld cell %d,%d", w, h,
                                                     (long long)k, x, y);
                                    }
                                cr_assert(bx0 >= 0 && by0 >= 0 && bx1 < w && by1 < h);
                            }
        }
}
