/* test_profiles.c - a field per agent radius and its rebuilds: a narrow
 * gap only the small class is led through, the large class's route goes
 * round (walked cell by cell along the directions); a class with no
 * field possible is refused at its line; a door event makes the fields
 * stale for exactly the rebuild ticks, one after the other, and the new
 * fields never lead into the closed cells. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <math.h>

#include "profiles.h"

/* 13 x 9; a wall at x = 6 with a one-cell gap at y = 2 and a three-cell
 * gap at y = 5..7; the goal at 10,3. */
static const char *const map[9] = {
    "#############",
    "#.....#.....#",
    "#...........#",
    "#.....#....G#",
    "#.....#.....#",
    "#...........#",
    "#...........#",
    "#...........#",
    "#############",
};

static void make_grid(ff_grid *g)
{
    ff_error err;
    int x, y;
    ff_grid_init(g);
    cr_assert_eq(ff_grid_alloc(g, 13, 9, 0, "t", &err), FF_OK);
    for (y = 0; y < 9; y++)
        for (x = 0; x < 13; x++)
            g->cost[y * 13 + x] = map[y][x] == '#' ? INFINITY : 1.0f;
    cr_assert_eq(ff_grid_add_goal(g, 10, 3, "t", 0, 0, &err), FF_OK);
}

static const char *const two_classes =
    "ffsim 1\nticks 10\nprofiles on\nrebuild-ticks 2\n"
    "class small\n radius 0.4\n speed 1\n follow\nend\n"
    "class large\n radius 0.7\n speed 1\n follow\nend\n";

/* Follow the codes of dir from cell (x, y): the cells visited up to the
 * goal; returns 1 when it ends at a goal, and sets *through when it
 * visits cell (gx, gy). */
static int walk(const ff_grid *g, const uint8_t *dir, int x, int y, int gx, int gy, int *through)
{
    int steps;
    *through = 0;
    for (steps = 0; steps < 200; steps++) {
        int d = dir[y * g->w + x];
        if (x == gx && y == gy)
            *through = 1;
        if (d == FF_DIR_GOAL)
            return 1;
        if (d > 7)
            return 0;
        x += ff_dir_dx[d];
        y += ff_dir_dy[d];
    }
    return 0;
}

Test(profiles, small_class_takes_the_gap_large_goes_round)
{
    ff_grid g;
    ff_scenario s;
    ff_profiles p;
    ff_error err;
    int through;

    make_grid(&g);
    cr_assert_eq(ff_scenario_parse(two_classes, "t", &g, &s, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_profiles_init(&p, &s, &g, "t", &err), FF_OK, "%s", err.msg);
    cr_assert_eq(p.nprofiles, 2);
    cr_expect_eq(p.profile[0].radius, 0.4);
    cr_expect_eq(p.profile[1].radius, 0.7);
    cr_expect_eq(p.class_profile[0], 0);
    cr_expect_eq(p.class_profile[1], 1);
    /* From 3,2, the small class is led through the gap 6,2. */
    cr_expect(walk(&g, ff_profiles_direction(&p, 0), 3, 2, 6, 2, &through));
    cr_expect(through, "the small class should take the gap");
    /* The large one from 3,3 (open for radius 0.7) goes round by y 5..7. */
    cr_expect(walk(&g, ff_profiles_direction(&p, 1), 3, 3, 6, 2, &through));
    cr_expect(!through, "the large class was led into the gap");
    cr_expect(walk(&g, ff_profiles_direction(&p, 1), 3, 3, 6, 6, &through) && through,
              "the large class goes through the wide gap");
    /* The gap's cell is closed for the large class, open for the small. */
    cr_expect(ff_grid_open(&p.profile[0].grid, 2 * 13 + 6));
    cr_expect(!ff_grid_open(&p.profile[1].grid, 2 * 13 + 6));
    cr_expect_eq(p.builds, 2);
    ff_profiles_free(&p);
    ff_scenario_free(&s);
    ff_grid_free(&g);
}

Test(profiles, same_radius_and_goals_share_a_field)
{
    ff_grid g;
    ff_scenario s;
    ff_profiles p;
    ff_error err;

    make_grid(&g);
    cr_assert_eq(ff_scenario_parse("ffsim 1\nticks 1\nclass a\n radius 0.4\n speed 1\n follow\nend\n"
                                   "class b\n radius 0.7\n speed 1\n follow\nend\n"
                                   "class c\n radius 0.4\n speed 1\n goal 1,1\n follow\nend\n",
                                   "t", &g, &s, &err), FF_OK, "%s", err.msg);
    /* Without 'profiles on' a and b share the radius 0 field; c has its
     * own goal. */
    cr_assert_eq(ff_profiles_init(&p, &s, &g, "t", &err), FF_OK, "%s", err.msg);
    cr_expect_eq(p.nprofiles, 2);
    cr_expect_eq(p.class_profile[0], p.class_profile[1]);
    cr_expect_neq(p.class_profile[0], p.class_profile[2]);
    cr_expect_eq(ff_profiles_direction(&p, 2)[1 * 13 + 1], FF_DIR_GOAL);
    ff_profiles_free(&p);
    ff_scenario_free(&s);
    ff_grid_free(&g);
}

Test(profiles, no_field_possible_is_refused_at_the_class)
{
    ff_grid g;
    ff_scenario s;
    ff_profiles p;
    ff_error err;

    make_grid(&g);
    cr_assert_eq(ff_scenario_parse("ffsim 1\nticks 1\nprofiles on\n"
                                   "class a\n radius 0.4\n speed 1\n follow\nend\n"
                                   "class big\n radius 0.9\n speed 1\n goal 1,1\n follow\nend\n",
                                   "t.scenario", &g, &s, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_profiles_init(&p, &s, &g, "t.scenario", &err), FF_EINPUT);
    cr_expect_str_eq(err.file, "t.scenario");
    cr_expect_eq(err.line, 9);
    cr_expect(strstr(err.msg, "class big: no field possible") != NULL, "%s", err.msg);
    ff_scenario_free(&s);
    ff_grid_free(&g);
}

Test(profiles, door_event_stale_then_published_one_after_the_other)
{
    ff_grid g;
    ff_scenario s;
    ff_profiles p;
    ff_error err;
    char text[1024];
    uint64_t id0, id1;
    long long t;
    int changed, k;

    make_grid(&g);
    /* Close the wide gap at tick 3. */
    snprintf(text, sizeof text, "%sat 3 close 6,5,6,7\n", two_classes);
    cr_assert_eq(ff_scenario_parse(text, "t", &g, &s, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_profiles_init(&p, &s, &g, "t", &err), FF_OK, "%s", err.msg);
    id0 = p.profile[0].id;
    id1 = p.profile[1].id;
    for (t = 0; t <= 8; t++) {
        cr_assert_eq(ff_profiles_tick(&p, t, &changed, &err), FF_OK);
        cr_expect_eq(changed, t == 3, "tick %lld", t);
        cr_expect_eq(!isfinite(p.map.cost[6 * 13 + 6]), t >= 3, "the map changes at once");
        /* Small: stale in ticks 3, 4; large: 3..6 (2 ticks each, small first). */
        cr_expect_eq(ff_profiles_direction(&p, 0) == NULL, t >= 3 && t < 5, "small at tick %lld", t);
        cr_expect_eq(ff_profiles_direction(&p, 1) == NULL, t >= 3 && t < 7, "large at tick %lld", t);
    }
    cr_expect_eq(p.profile[0].published_tick, 5);
    cr_expect_eq(p.profile[1].published_tick, 7);
    cr_expect_neq(p.profile[0].id, id0, "a new field has a new id");
    cr_expect_neq(p.profile[1].id, id1);
    cr_expect_eq(p.builds, 4);
    /* No direction of the new fields leads into a closed cell. */
    for (k = 0; k < 2; k++) {
        const uint8_t *dir = ff_profiles_direction(&p, k);
        int x, y;
        for (y = 0; y < 9; y++)
            for (x = 0; x < 13; x++) {
                int d = dir[y * 13 + x];
                if (d < 8)
                    cr_expect(ff_grid_open(&p.map, (size_t)((y + ff_dir_dy[d]) * 13 + x + ff_dir_dx[d])),
                              "profile %d: %d,%d leads into a wall", k, x, y);
            }
    }
    /* The large class has no way now (only the one-cell gap is left). */
    cr_expect_eq(ff_profiles_direction(&p, 1)[3 * 13 + 3], FF_DIR_NONE);
    ff_profiles_free(&p);
    ff_scenario_free(&s);
    ff_grid_free(&g);
}

Test(profiles, a_door_opened_again_restores_the_way_and_restarts_rebuilds)
{
    ff_grid g;
    ff_scenario s;
    ff_profiles p;
    ff_error err;
    char text[1024];
    long long t;
    int changed, through;

    make_grid(&g);
    /* Close the wide gap at tick 3, open it again at tick 4, while the
     * rebuilds of the first change are under way: they start again. */
    snprintf(text, sizeof text, "%sat 3 close 6,5,6,7\nat 4 open 6,5,6,7\n", two_classes);
    cr_assert_eq(ff_scenario_parse(text, "t", &g, &s, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_profiles_init(&p, &s, &g, "t", &err), FF_OK, "%s", err.msg);
    for (t = 0; t <= 9; t++) {
        cr_assert_eq(ff_profiles_tick(&p, t, &changed, &err), FF_OK);
        cr_expect_eq(changed, t == 3 || t == 4, "tick %lld", t);
        cr_expect_eq(ff_profiles_direction(&p, 0) == NULL, t >= 3 && t < 6, "small at tick %lld", t);
        cr_expect_eq(ff_profiles_direction(&p, 1) == NULL, t >= 3 && t < 8, "large at tick %lld", t);
    }
    /* The stream's costs are back, and so is the large class's way. */
    cr_expect_eq(memcmp(p.map.cost, g.cost, 13 * 9 * sizeof *g.cost), 0);
    cr_expect(walk(&g, ff_profiles_direction(&p, 1), 3, 3, 6, 6, &through) && through);
    cr_expect_eq(p.builds, 6);
    ff_profiles_free(&p);
    ff_scenario_free(&s);
    ff_grid_free(&g);
}
