/* test_search.c - the distance field against an independent brute force
 * and the seeds' worked examples. */
#include "gridmodel.h"
#include "testutil.h"

#include <criterion/criterion.h>
#include <math.h>

#include "direction.h"
#include "mapread.h"
#include "search.h"

/* Plain forward Dijkstra (O(n^2), no heap) from one cell to any goal. */
static double m_forward(const model *m, int start, const int *is_goal)
{
    int n = m->w * m->h, done[100] = { 0 }, k;
    double d[100];

    for (k = 0; k < n; k++)
        d[k] = INFINITY;
    d[start] = 0;
    for (;;) {
        int best = -1, dd;
        for (k = 0; k < n; k++)
            if (!done[k] && d[k] < INFINITY && (best < 0 || d[k] < d[best]))
                best = k;
        if (best < 0)
            return INFINITY;
        if (is_goal[best])
            return d[best];
        done[best] = 1;
        for (dd = 0; dd < 8; dd++) {
            double c = m_step(m, best % m->w, best / m->w, dd);
            int j = best + DY[dd] * m->w + DX[dd];
            if (c >= 0 && d[best] + c < d[j])
                d[j] = d[best] + c;
        }
    }
}

Test(search, agrees_with_forward_dijkstra_from_every_cell)
{
    unsigned long long rng = 12345;
    int trial, checked = 0;

    for (trial = 0; trial < 600; trial++) {
        model m;
        ff_grid g;
        int is_goal[100], k;
        double dist[100];
        m_random_map(&rng, &m, &g, is_goal);
        cr_assert_eq(ff_search(&g, dist, NULL), FF_OK);
        for (k = 0; k < m.w * m.h; k++) {
            double want = m.cost[k] < 0 ? INFINITY : m_forward(&m, k, is_goal);
            if (isinf(want))
                cr_assert(isinf(dist[k]), "trial %d cell %d: want inf, got %g", trial, k, dist[k]);
            else
                cr_assert(fabs(dist[k] - want) <= 1e-9 * (want > 1 ? want : 1),
                          "trial %d cell %d,%d: want %.17g, got %.17g", trial, k % m.w,
                          k / m.w, want, dist[k]);
            checked++;
        }
        ff_grid_free(&g);
    }
    cr_assert_gt(checked, 10000);
}

Test(direction, legal_tight_first_and_acyclic_on_random_maps)
{
    unsigned long long rng = 777;
    int trial;

    for (trial = 0; trial < 600; trial++) {
        model m;
        ff_grid g;
        int is_goal[100], k, n, has_zero = 0;
        double dist[100];
        uint8_t dir[100];
        m_random_map(&rng, &m, &g, is_goal);
        n = m.w * m.h;
        for (k = 0; k < n; k++)
            if (m.cost[k] == 0)
                has_zero = 1;
        cr_assert_eq(ff_search(&g, dist, NULL), FF_OK);
        cr_assert_eq(ff_direction_field(&g, dist, dir, NULL), FF_OK);
        for (k = 0; k < n; k++) {
            int x = k % m.w, y = k / m.w, d, first = -1, steps;
            if (is_goal[k]) {
                cr_assert_eq(dir[k], 8);
                continue;
            }
            if (m.cost[k] < 0 || isinf(dist[k])) {
                cr_assert_eq(dir[k], 9, "trial %d cell %d: wall/unreachable must be 9", trial, k);
                continue;
            }
            cr_assert_lt(dir[k], 8, "trial %d: reachable cell %d has no direction", trial, k);
            for (d = 0; d < 8 && first < 0; d++) {
                double c = m_step(&m, x, y, d);
                int j = k + DY[d] * m.w + DX[d];
                if (c >= 0 && fabs(dist[j] + c - dist[k]) <= 1e-9 * dist[k])
                    first = d;
            }
            {
                double c = m_step(&m, x, y, dir[k]);
                int j = k + DY[dir[k]] * m.w + DX[dir[k]];
                cr_assert_geq(c, 0, "trial %d cell %d: illegal step %d", trial, k, dir[k]);
                cr_assert_leq(fabs(dist[j] + c - dist[k]), 1e-9 * dist[k],
                              "trial %d cell %d: step not optimal", trial, k);
            }
            if (!has_zero)
                cr_assert_eq(dir[k], first, "trial %d cell %d,%d: tie-break says %d, got %d",
                             trial, x, y, first, dir[k]);
            /* Follow the codes: a goal within n steps, no cycle. */
            for (steps = 0, d = k; steps <= n && !is_goal[d]; steps++)
                d = d + DY[dir[d]] * m.w + DX[dir[d]];
            cr_assert(is_goal[d], "trial %d: cell %d never reaches a goal", trial, k);
        }
        ff_grid_free(&g);
    }
}

/* Zero-cost plateaus: the tie-break alone would cycle; codes must not. */
Test(direction, zero_cost_plateau_is_acyclic)
{
    const char *text = "ffmap 1\nlegend , 0\nlegend G goal 1\nlegend # wall\nmap\n"
                       ",,,,,\n,,,,,\n,,#,,\n,,,,G\n";
    FILE *f = tu_string_file(text);
    ff_map_options o;
    ff_grid g;
    double dist[20];
    uint8_t dir[20];
    int k;

    ff_map_options_init(&o);
    cr_assert_eq(ff_map_read(f, "t", &o, &g, NULL), FF_OK);
    fclose(f);
    cr_assert_eq(ff_search(&g, dist, NULL), FF_OK);
    cr_assert_eq(ff_direction_field(&g, dist, dir, NULL), FF_OK);
    for (k = 0; k < 20; k++) {
        int at = k, steps = 0;
        if (dir[k] == 9)
            continue;
        while (dir[at] != 8 && steps++ < 20)
            at += ff_dir_dy[dir[at]] * 5 + ff_dir_dx[dir[at]];
        cr_assert_eq(dir[at], 8, "cell %d cycles", k);
    }
    ff_grid_free(&g);
}

static void load(const char *text, int moves, ff_grid *g)
{
    FILE *f = tu_string_file(text);
    ff_map_options o;
    ff_error err;

    ff_map_options_init(&o);
    cr_assert_eq(ff_map_read(f, "t", &o, g, &err), FF_OK, "%s", err.msg);
    fclose(f);
    g->moves = moves;
}

#define SEED_MAP "...#.\n.#.#.\n..G..\n#.##.\n.....\n"

Test(search, seed_5x5_four_moves_by_hand)
{
    static const double I = INFINITY;
    const double want[25] = { 4, 3, 2, I, 4,
                              3, I, 1, I, 3,
                              2, 1, 0, 1, 2,
                              I, 2, I, I, 3,
                              4, 3, 4, 5, 4 };
    ff_grid g;
    double dist[25];
    int k;

    load("ffmap 1\nlegend . 1\nlegend # wall\nlegend G goal 1\nmap\n" SEED_MAP, 4, &g);
    cr_assert_eq(ff_search(&g, dist, NULL), FF_OK);
    for (k = 0; k < 25; k++)
        cr_assert(dist[k] == want[k], "cell %d,%d: want %g got %g", k % 5, k / 5, want[k], dist[k]);
    ff_grid_free(&g);
}

Test(search, seed_terrain_cost_in_the_central_passage)
{
    ff_grid g;
    double dist[25];

    /* (2,1) costs 4: the passage north of the goal. */
    load("ffmap 1\nlegend . 1\nlegend ~ 4\nlegend # wall\nlegend G goal 1\nmap\n"
         "...#.\n.#~#.\n..G..\n#.##.\n.....\n", 4, &g);
    cr_assert_eq(ff_search(&g, dist, NULL), FF_OK);
    /* Dijkstra: (2,1) = (4+1)/2, (2,0) = 2.5 + (1+4)/2; BFS would say 1, 2. */
    cr_assert_eq(dist[1 * 5 + 2], 2.5);
    cr_assert_eq(dist[0 * 5 + 2], 5.0);
    /* (1,0) goes round by the west, 5 steps of cost 1, rather than 1 + 5
     * through the passage; with uniform costs it would be 3. */
    cr_assert_eq(dist[0 * 5 + 1], 5.0);
    ff_grid_free(&g);
}

Test(direction, seed_weighted_example)
{
    /* A cell with D=7: its east neighbour has D=3 at step cost 4 (tight),
     * its south neighbour D=5 at step cost 3 (5+3 = 8, not optimal). */
    ff_grid g;
    double dist[4] = { 7, 3, 5, 0 };
    uint8_t dir[4];

    ff_grid_init(&g);
    g.moves = 4;
    cr_assert_eq(ff_grid_alloc(&g, 2, 2, 0, NULL, NULL), FF_OK);
    g.cost[0] = 4;  /* (0,0) */
    g.cost[1] = 4;  /* (1,0): step (0,0)->(1,0) costs (4+4)/2 = 4 */
    g.cost[2] = 2;  /* (0,1): step (0,0)->(0,1) costs (4+2)/2 = 3 */
    g.cost[3] = 2;
    cr_assert_eq(ff_grid_add_goal(&g, 1, 1, NULL, 0, 0, NULL), FF_OK);
    cr_assert_eq(ff_direction_field(&g, dist, dir, NULL), FF_OK);
    cr_assert_eq(dir[0], FF_DIR_E);
    cr_assert_eq(dir[3], FF_DIR_GOAL);
    ff_grid_free(&g);
}

Test(search, unreachable_pocket_stays_inf)
{
    ff_grid g;
    double dist[25];
    uint8_t dir[25];

    load("ffmap 1\nlegend . 1\nlegend # wall\nlegend G goal 1\nmap\n"
         "..#..\n..#..\n###..\n....G\n.....\n", 8, &g);
    cr_assert_eq(ff_search(&g, dist, NULL), FF_OK);
    cr_assert(isinf(dist[0]) && isinf(dist[1]) && isinf(dist[5]) && isinf(dist[6]));
    cr_assert(isinf(dist[2]));
    cr_assert_eq(dist[3 * 5 + 4], 0);
    cr_assert_eq(ff_direction_field(&g, dist, dir, NULL), FF_OK);
    cr_assert_eq(dir[0], FF_DIR_NONE);
    cr_assert_eq(dir[2], FF_DIR_NONE);
    ff_grid_free(&g);
}

Test(search, goal_on_a_wall_or_outside_is_refused)
{
    ff_grid g;
    ff_error err;

    load("ffmap 1\nlegend . 1\nlegend # wall\nmap\n..#\n...\n", 8, &g);
    cr_assert_eq(ff_grid_add_goal(&g, 2, 0, "m", 0, 0, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "blocked") != NULL, "%s", err.msg);
    cr_assert_eq(ff_grid_add_goal(&g, 3, 0, "m", 0, 0, &err), FF_EINPUT);
    cr_assert(strstr(err.msg, "outside") != NULL, "%s", err.msg);
    cr_assert_eq(ff_grid_add_goal(&g, -1, 0, "m", 0, 0, &err), FF_EINPUT);
    ff_grid_free(&g);
}

Test(search, no_goal_is_an_error)
{
    ff_grid g;
    double dist[6];
    ff_error err;

    load("ffmap 1\nlegend . 1\nmap\n...\n...\n", 8, &g);
    cr_assert_neq(ff_search(&g, dist, &err), FF_OK);
    ff_grid_free(&g);
}

/* One-way: a cell that may only be left eastwards. */
Test(search, one_way_cell_is_honoured)
{
    ff_grid g;
    double dist[5];

    load("ffmap 1\nlegend . 1\nlegend > 1 E\nlegend G goal 1\nmap\n"
         "G.>..\n", 4, &g);
    cr_assert_eq(ff_search(&g, dist, NULL), FF_OK);
    cr_assert_eq(dist[1], 1);
    cr_assert(isinf(dist[2]), "the one-way cell cannot go west");
    cr_assert(isinf(dist[3]) && isinf(dist[4]));
    ff_grid_free(&g);
}
