/* test_turn.c - turn-cost fields against an independent Dijkstra over
 * (cell, heading) states, and the worked example of ffbuild(1). */
#include "gridmodel.h"
#include "testutil.h"

#include <criterion/criterion.h>
#include <math.h>

#include "mapread.h"
#include "search.h"
#include "turn.h"

/* The number of 45-degree turns between two step directions, from the
 * angle between their vectors (not from the codes' order). */
static int m_turns(int a, int b)
{
    double dot = DX[a] * DX[b] + DY[a] * DY[b];
    double la = hypot(DX[a], DY[a]), lb = hypot(DX[b], DY[b]);
    double c = dot / (la * lb);
    c = c > 1 ? 1 : c < -1 ? -1 : c;
    return (int)lround(acos(c) / atan(1.0));
}

/* Backward Dijkstra over the 8 * n states with the full edge set: from
 * (u, h) a legal step d to (v, d) costs m_step + C * m_turns(h, d); every
 * goal state is 0.  O(states^2), no heap. */
static void m_states(const model *m, const int *is_goal, double C, double *D)
{
    int n = m->w * m->h, s, k, done[800] = { 0 };

    for (s = 0; s < 8 * n; s++)
        D[s] = is_goal[s / 8] ? 0 : INFINITY;
    for (;;) {
        int best = -1, v, d, ux, uy, u, h;
        for (k = 0; k < 8 * n; k++)
            if (!done[k] && D[k] < INFINITY && (best < 0 || D[k] < D[best]))
                best = k;
        if (best < 0)
            return;
        done[best] = 1;
        v = best / 8;
        d = best % 8;
        ux = v % m->w - DX[d];
        uy = v / m->w - DY[d];
        if (ux < 0 || uy < 0 || ux >= m->w || uy >= m->h)
            continue;
        u = uy * m->w + ux;
        if (is_goal[u] || m_step(m, ux, uy, d) < 0)
            continue;
        for (h = 0; h < 8; h++) {
            double to = D[best] + m_step(m, ux, uy, d) + C * m_turns(h, d);
            if (to < D[8 * u + h])
                D[8 * u + h] = to;
        }
    }
}

static int close_enough(double got, double want)
{
    if (isinf(want))
        return isinf(got);
    return fabs(got - want) <= 1e-9 * (want > 1 ? want : 1);
}

Test(turn, turns_count_45_degree_steps)
{
    int a, b;

    for (a = 0; a < 8; a++)
        for (b = 0; b < 8; b++)
            cr_assert_eq(ff_turns(a, b), m_turns(a, b), "%d %d", a, b);
    cr_assert_eq(ff_turns(FF_DIR_N, FF_DIR_S), 4);
    cr_assert_eq(ff_turns(FF_DIR_NW, FF_DIR_NE), 2);
}

Test(turn, states_agree_with_brute_force_on_random_maps)
{
    static const double turn_costs[] = { 0, 0.25, 0.5, 1, 1.5, 2, 3, 5 };
    unsigned long long rng = 4242;
    int trial, checked = 0, tie_checked = 0, uniform_maps = 0;

    for (trial = 0; trial < 800; trial++) {
        model m;
        ff_grid g;
        int is_goal[100], n, k, h, has_zero = 0;
        double C = turn_costs[trial % 8], want[800], hdist[800], dist[100], plain[100];
        uint8_t hdir[800], dir[100];
        m_random_map(&rng, &m, &g, is_goal);
        if (trial % 5 == 4)
            C = (double)(tu_next(&rng) % 5000) / 1000.0;  /* 0 to 5, any */
        n = m.w * m.h;
        /* Every other map without zero-cost cells, where the tie-break
         * alone decides. */
        for (k = 0; k < n; k++)
            if (m.cost[k] == 0 && trial / 8 % 2) {
                m.cost[k] = 1.5;
                g.cost[k] = 1.5f;
            }
        /* Every third map of one cost for all its open cells, which the
         * search takes by a loop of its own. */
        if (trial % 3 == 2) {
            static const double uniform[] = { 0.5, 1, 2.25 };
            double c = uniform[trial / 3 % 3];
            for (k = 0; k < n; k++)
                if (m.cost[k] >= 0) {
                    m.cost[k] = c;
                    g.cost[k] = (float)c;
                }
            uniform_maps++;
        }
        for (k = 0; k < n; k++)
            has_zero |= m.cost[k] == 0;
        m_states(&m, is_goal, C, want);
        cr_assert_eq(ff_turn_search(&g, C, hdist, dist, NULL), FF_OK);
        cr_assert_eq(ff_turn_direction(&g, C, hdist, hdir, dir, NULL), FF_OK);
        cr_assert_eq(ff_search(&g, plain, NULL), FF_OK);
        for (k = 0; k < n; k++) {
            double least = INFINITY;
            int best = 0;
            for (h = 0; h < 8; h++) {
                int s = 8 * k + h, x = k % m.w, y = k / m.w, d, first = -1;
                cr_assert(close_enough(hdist[s], want[s]),
                          "trial %d (C %g) cell %d,%d heading %d: want %.17g, got %.17g", trial,
                          C, x, y, h, want[s], hdist[s]);
                checked++;
                if (hdist[s] < least) {
                    least = hdist[s];
                    best = h;
                }
                if (is_goal[k]) {
                    cr_assert_eq(hdir[s], FF_DIR_GOAL);
                    continue;
                }
                if (isinf(want[s])) {
                    cr_assert_eq(hdir[s], FF_DIR_NONE, "trial %d state %d", trial, s);
                    continue;
                }
                cr_assert_lt(hdir[s], 8, "trial %d: reachable state %d,%d,%d has no direction",
                             trial, x, y, h);
                /* The direction attains the brute force's distance... */
                d = hdir[s];
                {
                    double c = m_step(&m, x, y, d);
                    int t = 8 * (k + DY[d] * m.w + DX[d]) + d;
                    cr_assert_geq(c, 0, "trial %d state %d: illegal step %d", trial, s, d);
                    cr_assert(close_enough(want[t] + c + C * m_turns(h, d), want[s]),
                              "trial %d state %d,%d,%d: step %d is not on a least-cost path",
                              trial, x, y, h, d);
                }
                /* ... and is the first that does, in tie-break order. */
                for (d = 0; d < 8 && first < 0; d++) {
                    double c = m_step(&m, x, y, d);
                    int t = 8 * (k + DY[d] * m.w + DX[d]) + d;
                    if (c >= 0 && fabs(want[t] + c + C * m_turns(h, d) - want[s]) <= 1e-9 * want[s])
                        first = d;
                }
                if (!has_zero) {
                    cr_assert_eq(hdir[s], first, "trial %d (C %g) state %d,%d,%d: want %d, got %d",
                                 trial, C, x, y, h, first, hdir[s]);
                    tie_checked++;
                }
            }
            /* The ordinary channels: each cell's least over its headings,
             * today's distance when C = 0, the direction of the best
             * state. */
            cr_assert(close_enough(dist[k], least), "trial %d cell %d", trial, k);
            if (C == 0)
                cr_assert(dist[k] == plain[k], "trial %d cell %d: C = 0 is not today's distance",
                          trial, k);
            if (!has_zero)
                cr_assert_eq(dir[k], hdir[8 * k + best], "trial %d cell %d", trial, k);
        }
        /* Following the states' codes always ends at a goal, zero-cost
         * cells or not; so does following the cells' codes. */
        for (k = 0; k < 8 * n; k++) {
            int s = k, steps = 0, at = k / 8;
            while (hdir[s] < 8 && steps++ <= 8 * n) {
                int d = hdir[s];
                s = 8 * (s / 8 + DY[d] * m.w + DX[d]) + d;
            }
            cr_assert(hdir[s] == FF_DIR_GOAL || (hdir[k] == FF_DIR_NONE && s == k),
                      "trial %d: state %d loops or ends before a goal", trial, k);
            for (steps = 0; dir[at] < 8 && steps++ <= n;)
                at += DY[dir[at]] * m.w + DX[dir[at]];
            cr_assert(dir[at] >= 8, "trial %d: cell %d loops", trial, k / 8);
        }
        ff_grid_free(&g);
    }
    cr_assert_gt(checked, 150000, "%d", checked);
    cr_assert_gt(tie_checked, 50000, "%d", tie_checked);
    cr_assert_gt(uniform_maps, 250, "%d", uniform_maps);
}

/* The worked example of ffbuild(1): a staircase of cost-1 cells zigzags
 * from S to G in 8 steps and 7 right-angle turns; around the edge, cells
 * of cost 1.125 take 8 steps and one right-angle turn.  A right angle is
 * two 45-degree turns.  Without a turn cost the field takes the stairs (8
 * against 8.875); with C = 1 the one turn (8.875 + 2 = 10.875 against 8 +
 * 14 = 22). */
Test(turn, worked_example_takes_the_one_turn)
{
    char path[256];
    FILE *f = fopen(tu_testdata("turn/zigzag.ffmap", path, sizeof path), "rb");
    ff_map_options o;
    ff_grid g;
    double hdist[200], dist[25], plain[25];
    uint8_t hdir[200], dir[25];
    static const int stairs[] = { 1, 2, 1, 2, 1, 2, 1, 2 }, around[] = { 2, 2, 2, 2, 1, 1, 1, 1 };
    int k, at;

    cr_assert_not_null(f);
    ff_map_options_init(&o);
    cr_assert_eq(ff_map_read(f, "zigzag", &o, &g, NULL), FF_OK);
    fclose(f);
    g.moves = 4;
    cr_assert_eq(ff_search(&g, plain, NULL), FF_OK);
    cr_assert_float_eq(plain[0], 8.0, 1e-12);
    cr_assert_eq(ff_turn_search(&g, 0, hdist, dist, NULL), FF_OK);
    cr_assert_eq(ff_turn_direction(&g, 0, hdist, hdir, dir, NULL), FF_OK);
    for (k = 0, at = 0; k < 8; k++) {
        cr_assert_eq(dir[at], stairs[k], "C = 0, step %d", k);
        at += ff_dir_dy[dir[at]] * 5 + ff_dir_dx[dir[at]];
    }
    cr_assert_eq(at, 24);
    cr_assert_eq(ff_turn_search(&g, 1, hdist, dist, NULL), FF_OK);
    cr_assert_eq(ff_turn_direction(&g, 1, hdist, hdir, dir, NULL), FF_OK);
    cr_assert_float_eq(dist[0], 10.875, 1e-12);
    /* An agent at S that arrived heading east pays a right angle to go
     * south first, 12.875; one heading north turns about, 14.875; one
     * heading south-west turns 45 degrees, 11.875. */
    cr_assert_float_eq(hdist[8 * 0 + FF_DIR_S], 10.875, 1e-12);
    cr_assert_float_eq(hdist[8 * 0 + FF_DIR_E], 12.875, 1e-12);
    cr_assert_float_eq(hdist[8 * 0 + FF_DIR_N], 14.875, 1e-12);
    cr_assert_float_eq(hdist[8 * 0 + FF_DIR_SW], 11.875, 1e-12);
    for (k = 0, at = 0; k < 8; k++) {
        cr_assert_eq(dir[at], around[k], "C = 1, step %d", k);
        at += ff_dir_dy[dir[at]] * 5 + ff_dir_dx[dir[at]];
    }
    cr_assert_eq(at, 24);
    ff_grid_free(&g);
}

Test(turn, headings_parse_and_nearest)
{
    cr_assert_eq(ff_heading_parse("0"), 0);
    cr_assert_eq(ff_heading_parse("7"), 7);
    cr_assert_eq(ff_heading_parse("SW"), FF_DIR_SW);
    cr_assert_eq(ff_heading_parse("8"), -1);
    cr_assert_eq(ff_heading_parse("x"), -1);
    cr_assert_eq(ff_heading_parse("00"), -1);
    cr_assert_eq(ff_heading_nearest(0, -1), FF_DIR_N);
    cr_assert_eq(ff_heading_nearest(1, 0), FF_DIR_E);
    cr_assert_eq(ff_heading_nearest(0, 3), FF_DIR_S);
    cr_assert_eq(ff_heading_nearest(-1, 0.1), FF_DIR_W);
    cr_assert_eq(ff_heading_nearest(1, -1.2), FF_DIR_NE);
    cr_assert_eq(ff_heading_nearest(-1, -1), FF_DIR_NW);
    cr_assert_eq(ff_heading_nearest(-0.9, 1), FF_DIR_SW);
    cr_assert_eq(ff_heading_nearest(0, 0), FF_DIR_N);
}

Test(turn, distances_alloc_is_line_aligned)
{
    size_t cells;

    for (cells = 1; cells < 40; cells += 7) {
        double *p = ff_turn_distances_alloc(cells);
        cr_assert_not_null(p);
        cr_assert_eq((uintptr_t)p % 64, 0, "%zu cells: %p", cells, (void *)p);
        p[8 * cells - 1] = 1.0;  /* the last state is there (ASan checks) */
        free(p);
    }
    cr_assert_null(ff_turn_distances_alloc(0));
    cr_assert_null(ff_turn_distances_alloc(SIZE_MAX / 32));
}
