/* test_congestion.c - congestion fields: the density splat against hand
 * values and mass conservation; the congestion cost to the goals against
 * an independent Bellman-Ford over the raised costs on random maps and
 * crowds; a crowd on one of two equal ways sends the field by the other
 * while the static field is untouched; a map event retires the
 * congestion field until the next refresh; goal groups against hand
 * labels. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <math.h>

#include "congestion.h"
#include "goalgroup.h"
#include "profiles.h"

static const char *const one_class =
    "ffsim 1\nticks 10\nprofiles off\nclass w\n radius 0.3\n speed 1\n follow\nend\n";

/* Profiles for scenario text on grid g (the test keeps both). */
static void setup(ff_grid *g, const char *text, ff_scenario *s, ff_profiles *p)
{
    ff_error err;
    cr_assert_eq(ff_scenario_parse(text, "t", g, s, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_profiles_init(p, s, g, "t", &err), FF_OK, "%s", err.msg);
}

Test(congestion, density_splat)
{
    ff_grid g;
    ff_scenario s;
    ff_profiles p;
    ff_congestion c;
    ff_error err;
    double sum = 0;
    int i;

    tu_make_grid(&g, 6, 5, "......" "......" "......" "......" "......", FF_CORNERS_STRICT);
    g.cell_size = 0.5;
    g.origin_x = 10;
    g.origin_y = -3;
    cr_assert_eq(ff_grid_add_goal(&g, 5, 4, "t", 0, 0, &err), FF_OK);
    setup(&g, one_class, &s, &p);
    cr_assert_eq(ff_congestion_init(&c, &p, 1, 0, 10, &err), FF_OK);
    ff_congestion_begin(&c);
    /* At the center of cell 2,1: all its mass there, 1 / 0.25 per
     * square unit. */
    ff_congestion_add(&c, 10 + 2.5 * 0.5, -3 + 1.5 * 0.5);
    cr_expect_float_eq(c.density[1 * 6 + 2], 4.0, 1e-12);
    /* On the corner of cells 3..4 x 2..3: a quarter each. */
    ff_congestion_add(&c, 10 + 4 * 0.5, -3 + 3 * 0.5);
    for (i = 0; i < 4; i++)
        cr_expect_float_eq(c.density[(2 + i / 2) * 6 + 3 + i % 2], 1.0, 1e-12);
    /* A quarter of the way from cell 0,0's center toward 1,1's. */
    ff_congestion_add(&c, 10 + 0.75 * 0.5, -3 + 0.75 * 0.5);
    cr_expect_float_eq(c.density[0], 4 * 0.75 * 0.75, 1e-12);
    cr_expect_float_eq(c.density[1], 4 * 0.25 * 0.75, 1e-12);
    cr_expect_float_eq(c.density[6], 4 * 0.75 * 0.25, 1e-12);
    cr_expect_float_eq(c.density[7], 4 * 0.25 * 0.25, 1e-12);
    /* Far outside: dropped; NaN: dropped. */
    ff_congestion_add(&c, -1e300, 5);
    ff_congestion_add(&c, NAN, 0);
    for (i = 0; i < 30; i++)
        sum += c.density[i] * 0.25;
    cr_expect_float_eq(sum, 3.0, 1e-12, "the mass of the three agents inside");
    ff_congestion_free(&c);
    ff_profiles_free(&p);
    ff_scenario_free(&s);
    ff_grid_free(&g);
}

/* Bellman-Ford over the legal steps with the raised costs, computed here
 * from the density by the contract of congestion.h. */
static void brute_cost(const ff_grid *g, const double *density, double w, double rho0, double *dist)
{
    size_t n = (size_t)g->w * (size_t)g->h, i, k;
    float *cost = malloc(n * sizeof *cost);
    int changed = 1;

    cr_assert_not_null(cost);
    for (i = 0; i < n; i++) {
        double c = (double)g->cost[i] * (1 + w * (density[i] - rho0));
        cost[i] = isinf(g->cost[i]) ? INFINITY : density[i] > rho0 ? (float)c : g->cost[i];
        dist[i] = INFINITY;
    }
    for (k = 0; k < g->ngoals; k++)
        dist[g->goals[k]] = 0;
    while (changed) {
        changed = 0;
        for (i = 0; i < n; i++) {
            int x = (int)(i % (size_t)g->w), y = (int)(i / (size_t)g->w), d;
            for (d = 0; d < g->moves; d++) {
                size_t j;
                double step;
                if (!ff_grid_step_ok(g, x, y, d))
                    continue;
                j = (size_t)(y + ff_dir_dy[d]) * (size_t)g->w + (size_t)(x + ff_dir_dx[d]);
                step = (d < 4 ? 1.0 : sqrt(2.0)) * ((double)cost[i] + (double)cost[j]) / 2 * g->cell_size;
                if (dist[j] + step < dist[i] * (1 - 1e-12)) {
                    dist[i] = dist[j] + step;
                    changed = 1;
                }
            }
        }
    }
    free(cost);
}

Test(congestion, cost_matches_brute_force)
{
    unsigned long long seed = 17;
    int round;

    for (round = 0; round < 20; round++) {
        char rows[12 * 9];
        ff_grid g;
        ff_scenario s;
        ff_profiles p;
        ff_congestion c;
        ff_error err;
        double *want = malloc(12 * 9 * sizeof *want);
        double w = 0.5 + (double)(tu_next(&seed) % 8), rho0 = (double)(tu_next(&seed) % 3) * 0.5;
        int i, agents;

        cr_assert_not_null(want);
        for (i = 0; i < 12 * 9; i++)
            rows[i] = tu_next(&seed) % 5 == 0 ? '#' : tu_next(&seed) % 4 == 0 ? '~' : '.';
        rows[4 * 12 + 6] = '.';
        tu_make_grid(&g, 12, 9, rows, round % 2 ? FF_CORNERS_CUT : FF_CORNERS_STRICT);
        cr_assert_eq(ff_grid_add_goal(&g, 6, 4, "t", 0, 0, &err), FF_OK);
        setup(&g, one_class, &s, &p);
        cr_assert_eq(ff_congestion_init(&c, &p, w, rho0, 10, &err), FF_OK);
        cr_expect_null(ff_congestion_direction(&c, 0), "nothing in use before a refresh");
        ff_congestion_begin(&c);
        agents = 1 + (int)(tu_next(&seed) % 60);
        for (i = 0; i < agents; i++)
            ff_congestion_add(&c, (double)(tu_next(&seed) % 1200) / 100.0,
                              (double)(tu_next(&seed) % 900) / 100.0);
        cr_assert_eq(ff_congestion_finish(&c, &err), FF_OK);
        brute_cost(&g, c.density, w, rho0, want);
        for (i = 0; i < 12 * 9; i++) {
            double got = c.field[0].cost_to_goal[i];
            if (isinf(want[i]))
                cr_expect(isinf(got), "round %d cell %d: %g, want unreachable", round, i, got);
            else
                cr_expect(fabs(got - want[i]) <= 1e-9 * want[i], "round %d cell %d: %.12g, want %.12g",
                          round, i, got, want[i]);
        }
        cr_expect_not_null(ff_congestion_direction(&c, 0));
        cr_expect_eq(c.refreshes, 1);
        free(want);
        ff_congestion_free(&c);
        ff_profiles_free(&p);
        ff_scenario_free(&s);
        ff_grid_free(&g);
    }
}

/* Refreshes in a row on a moving crowd: each field, repaired for the
 * cells whose density changed, is the field a fresh congestion searches
 * whole from the same density, bit for bit, and agrees with the brute
 * force. */
Test(congestion, repaired_refreshes_match_whole_searches)
{
    unsigned long long seed = 5;
    char rows[48 * 36];
    ff_grid g;
    ff_scenario s;
    ff_profiles p;
    ff_congestion c, fresh;
    ff_error err;
    double x[12], y[12], *want = malloc(48 * 36 * sizeof *want);
    int i, round;

    cr_assert_not_null(want);
    for (i = 0; i < 48 * 36; i++)
        rows[i] = tu_next(&seed) % 7 == 0 ? '#' : '.';
    rows[18 * 48 + 24] = '.';
    tu_make_grid(&g, 48, 36, rows, FF_CORNERS_STRICT);
    cr_assert_eq(ff_grid_add_goal(&g, 24, 18, "t", 0, 0, &err), FF_OK);
    setup(&g, one_class, &s, &p);
    cr_assert_eq(ff_congestion_init(&c, &p, 3, 0.5, 10, &err), FF_OK);
    for (i = 0; i < 12; i++) {
        x[i] = 16 + (double)(tu_next(&seed) % 1600) / 100.0;
        y[i] = 12 + (double)(tu_next(&seed) % 1200) / 100.0;
    }
    for (round = 0; round < 12; round++) {
        ff_congestion_begin(&c);
        cr_assert_eq(ff_congestion_init(&fresh, &p, 3, 0.5, 10, &err), FF_OK);
        ff_congestion_begin(&fresh);
        for (i = 0; i < 12; i++) {
            x[i] += ((double)(tu_next(&seed) % 100) - 50) / 100.0;
            y[i] += ((double)(tu_next(&seed) % 100) - 50) / 100.0;
            ff_congestion_add(&c, x[i], y[i]);
            ff_congestion_add(&fresh, x[i], y[i]);
        }
        cr_assert_eq(ff_congestion_finish(&c, &err), FF_OK);
        cr_assert_eq(ff_congestion_finish(&fresh, &err), FF_OK);
        cr_expect_eq(memcmp(c.field[0].cost_to_goal, fresh.field[0].cost_to_goal, sizeof *want * 48 * 36), 0,
                     "round %d: repaired costs differ from a whole search", round);
        cr_expect_eq(memcmp(c.field[0].direction, fresh.field[0].direction, 48 * 36), 0,
                     "round %d: repaired directions differ", round);
        brute_cost(&g, fresh.density, 3, 0.5, want);
        for (i = 0; i < 48 * 36; i++)
            cr_expect(isinf(want[i]) ? isinf(c.field[0].cost_to_goal[i])
                                     : fabs(c.field[0].cost_to_goal[i] - want[i]) <= 1e-9 * want[i],
                      "round %d cell %d", round, i);
        ff_congestion_free(&fresh);
    }
    cr_expect_eq(c.refreshes, 12);
    cr_expect_lt(c.searches, 12, "the later refreshes repair");
    free(want);
    ff_congestion_free(&c);
    ff_profiles_free(&p);
    ff_scenario_free(&s);
    ff_grid_free(&g);
}

/* 11 x 7: from the west a wall splits two ways of equal length round a
 * block to the goal at 9,3. */
static const char *const two_ways =
    "###########"
    "#.........#"
    "#.#######.#"
    "#.#######G#"
    "#.#######.#"
    "#.........#"
    "###########";

Test(congestion, a_crowd_on_one_way_sends_the_field_by_the_other)
{
    ff_grid g;
    ff_scenario s;
    ff_profiles p;
    ff_congestion c;
    ff_error err;
    uint8_t before[77];
    double static_before[77];
    const uint8_t *dir;
    int i;

    tu_make_grid(&g, 11, 7, two_ways, FF_CORNERS_STRICT);
    cr_assert_eq(ff_grid_add_goal(&g, 9, 3, "t", 0, 0, &err), FF_OK);
    setup(&g, one_class, &s, &p);
    memcpy(before, p.profile[0].direction, sizeof before);
    memcpy(static_before, p.profile[0].distance, sizeof static_before);
    cr_assert_eq(before[3 * 11 + 1], FF_DIR_N, "the static tie-break goes north");
    cr_assert_eq(ff_congestion_init(&c, &p, 1, 0, 10, &err), FF_OK);
    ff_congestion_begin(&c);
    for (i = 0; i < 8; i++)  /* a queue along the north way */
        ff_congestion_add(&c, 2.5 + i, 1.5);
    cr_assert_eq(ff_congestion_finish(&c, &err), FF_OK);
    dir = ff_congestion_direction(&c, 0);
    cr_assert_not_null(dir);
    cr_expect_eq(dir[3 * 11 + 1], FF_DIR_S, "the congestion field goes south");
    cr_expect_eq(dir[3 * 11 + 9], FF_DIR_GOAL);
    cr_expect(c.field[0].cost_to_goal[1 * 11 + 1] > p.profile[0].distance[1 * 11 + 1]);
    cr_expect_eq(c.field[0].cost_to_goal[3 * 11 + 1], p.profile[0].distance[3 * 11 + 1],
                 "the south way is free: its cost is its distance");
    cr_expect_eq(memcmp(before, p.profile[0].direction, sizeof before), 0, "static field untouched");
    cr_expect_eq(memcmp(static_before, p.profile[0].distance, sizeof static_before), 0);
    /* The queue gone: the static tie-break again. */
    ff_congestion_begin(&c);
    cr_assert_eq(ff_congestion_finish(&c, &err), FF_OK);
    cr_expect_eq(ff_congestion_direction(&c, 0)[3 * 11 + 1], FF_DIR_N);
    ff_congestion_free(&c);
    ff_profiles_free(&p);
    ff_scenario_free(&s);
    ff_grid_free(&g);
}

Test(congestion, a_map_event_retires_the_field_until_the_next_refresh)
{
    ff_grid g;
    ff_scenario s;
    ff_profiles p;
    ff_congestion c;
    ff_error err;
    int changed;
    const uint8_t *dir;

    tu_make_grid(&g, 11, 7, two_ways, FF_CORNERS_STRICT);
    cr_assert_eq(ff_grid_add_goal(&g, 9, 3, "t", 0, 0, &err), FF_OK);
    setup(&g, "ffsim 1\nticks 10\nrebuild-ticks 2\nat 3 close 5,5,5,5\n"
              "class w\n radius 0.3\n speed 1\n follow\nend\n", &s, &p);
    cr_assert_eq(ff_congestion_init(&c, &p, 1, 0, 10, &err), FF_OK);
    ff_congestion_begin(&c);
    cr_assert_eq(ff_congestion_finish(&c, &err), FF_OK);
    cr_expect_not_null(ff_congestion_direction(&c, 0));
    cr_assert_eq(ff_profiles_tick(&p, 3, &changed, &err), FF_OK);
    cr_assert_eq(changed, 1);
    cr_expect_null(ff_congestion_direction(&c, 0), "built on the old map");
    /* A refresh while the profile is stale builds on the new map. */
    ff_congestion_begin(&c);
    cr_assert_eq(ff_congestion_finish(&c, &err), FF_OK);
    dir = ff_congestion_direction(&c, 0);
    cr_assert_not_null(dir);
    cr_expect_eq(dir[3 * 11 + 1], FF_DIR_N, "the south way is closed");
    cr_expect_eq(dir[5 * 11 + 5], FF_DIR_NONE);
    cr_expect_eq(dir[5 * 11 + 3], FF_DIR_W, "back round by the north");
    ff_congestion_free(&c);
    ff_profiles_free(&p);
    ff_scenario_free(&s);
    ff_grid_free(&g);
}

Test(congestion, goal_groups_by_hand)
{
    /* 7 x 4 goals (1): a diagonal pair is one group; two masks merge. */
    static const uint8_t a[28] = {
        1, 1, 0, 0, 0, 0, 1,
        0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 1, 0, 0, 0,
        0, 0, 0, 0, 1, 0, 0,
    };
    static const uint8_t b[28] = {
        0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 1,
        0, 0, 0, 0, 0, 0, 0,
        1, 0, 0, 0, 0, 0, 0,
    };
    const uint8_t *masks[2] = { a, b };
    ff_goal_groups gg;
    ff_error err;

    cr_assert_eq(ff_goal_groups_init(&gg, 7, 4, masks, 2, &err), FF_OK);
    cr_assert_eq(gg.ngroups, 4);
    cr_assert_eq(gg.ncells, 7);
    cr_expect_eq(ff_goal_group_of(&gg, 0), 0);
    cr_expect_eq(ff_goal_group_of(&gg, 1), 0);
    cr_expect_eq(ff_goal_group_of(&gg, 6), 1);
    cr_expect_eq(ff_goal_group_of(&gg, 13), 1, "from the second mask, touching");
    cr_expect_eq(ff_goal_group_of(&gg, 17), 2);
    cr_expect_eq(ff_goal_group_of(&gg, 25), 2, "diagonally");
    cr_expect_eq(ff_goal_group_of(&gg, 21), 3);
    cr_expect_eq(ff_goal_group_of(&gg, 2), -1);
    cr_expect_eq(ff_goal_group_of(&gg, 27), -1);
    cr_expect_eq(gg.box[4 * 2 + 0], 3);
    cr_expect_eq(gg.box[4 * 2 + 1], 2);
    cr_expect_eq(gg.box[4 * 2 + 2], 4);
    cr_expect_eq(gg.box[4 * 2 + 3], 3);
    cr_expect_eq(gg.box[4 * 1 + 0], 6);
    cr_expect_eq(gg.box[4 * 1 + 3], 1);
    ff_goal_groups_free(&gg);
    cr_assert_eq(ff_goal_groups_init(&gg, 7, 4, masks, 0, &err), FF_OK);
    cr_expect_eq(gg.ngroups, 0);
    ff_goal_groups_free(&gg);
}
