/* test_profiles.c - a field per agent radius and its rebuilds: a narrow
 * gap only the small class is led through, the large class's route goes
 * round (walked cell by cell along the directions); a class with no
 * field possible is refused at its line; a door event makes the fields
 * stale for exactly the rebuild ticks, one after the other, and the new
 * fields never lead into the closed cells; a goal change's field is the
 * oracle's, and a change back takes the first field from the cache. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <math.h>

#include "goalchange.h"
#include "gridmodel.h"
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
    cr_assert_eq(ff_scenario_parse("ffsim 1\nticks 1\nprofiles off\nclass a\n radius 0.4\n speed 1\n follow\nend\n"
                                   "class b\n radius 0.7\n speed 1\n follow\nend\n"
                                   "class c\n radius 0.4\n speed 1\n goal 1,1\n follow\nend\n",
                                   "t", &g, &s, &err), FF_OK, "%s", err.msg);
    /* With 'profiles off' a and b share the radius 0 field; c has its
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

/* ---- rebuild repair against rebuild full ---- */

/* Everything a profile's users read, the same in both. */
static void same_profile_state(const ff_profiles *a, const ff_profiles *b, long long t)
{
    size_t n = (size_t)a->map.w * (size_t)a->map.h, k, i;

    cr_assert_eq(a->nprofiles, b->nprofiles);
    for (k = 0; k < a->nprofiles; k++) {
        const ff_profile *f = &a->profile[k], *g = &b->profile[k];
        cr_assert_eq(f->stale, g->stale, "tick %lld profile %zu: stale %d, full %d", t, k,
                     f->stale, g->stale);
        cr_assert_eq(f->publish_tick, g->publish_tick, "tick %lld profile %zu", t, k);
        cr_assert_eq(f->published_tick, g->published_tick, "tick %lld profile %zu", t, k);
        cr_assert_eq(f->id, g->id, "tick %lld profile %zu: id", t, k);
        cr_assert_eq(f->grid.ngoals, g->grid.ngoals);
        cr_assert_eq(memcmp(f->grid.goals, g->grid.goals, f->grid.ngoals * sizeof *f->grid.goals), 0);
        for (i = 0; i < n; i++) {
            cr_assert_eq(memcmp(&f->grid.cost[i], &g->grid.cost[i], sizeof(float)), 0,
                         "tick %lld profile %zu: grid cost of cell %zu", t, k, i);
            cr_assert_eq(memcmp(&f->distance[i], &g->distance[i], sizeof(double)), 0,
                         "tick %lld profile %zu: distance of cell %zu: %.17g, full %.17g", t, k,
                         i, f->distance[i], g->distance[i]);
            cr_assert_eq(f->direction[i], g->direction[i],
                         "tick %lld profile %zu: direction of cell %zu: %d, full %d", t, k, i,
                         f->direction[i], g->direction[i]);
            cr_assert_eq(f->step_mask[i], g->step_mask[i], "tick %lld profile %zu cell %zu", t,
                         k, i);
            cr_assert_eq(f->lead_layer[i], g->lead_layer[i], "tick %lld profile %zu cell %zu",
                         t, k, i);
            if (f->publish_tick >= 0) {
                cr_assert_eq(memcmp(&f->next_distance[i], &g->next_distance[i], sizeof(double)),
                             0, "tick %lld profile %zu: pending distance of cell %zu", t, k, i);
                cr_assert_eq(f->next_direction[i], g->next_direction[i]);
            }
        }
        if (f->publish_tick >= 0)
            cr_assert_eq(f->next_id, g->next_id);
    }
}

/* A random room map of w x h with walls and a door row, one goal. */
static void random_room(unsigned long long *rng, ff_grid *g, int w, int h)
{
    ff_error err;
    int x, y, gx, gy;

    ff_grid_init(g);
    cr_assert_eq(ff_grid_alloc(g, w, h, 0, "t", &err), FF_OK);
    g->cell_size = tu_next(rng) % 2 ? 0.5 : 1.0;
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            int wall = x == 0 || y == 0 || x == w - 1 || y == h - 1 || tu_next(rng) % 7 == 0 ||
                       (x == w / 2 && tu_next(rng) % 4 != 0);
            g->cost[y * w + x] = wall ? INFINITY : tu_next(rng) % 5 == 0 ? 2.0f : 1.0f;
        }
    /* The goal in an open patch, so that every class's clearance keeps it. */
    gx = w - 6;
    gy = 4 + (int)(tu_next(rng) % (unsigned)(h - 8));
    for (y = gy - 3; y <= gy + 3; y++)
        for (x = gx - 3; x <= gx + 3; x++)
            g->cost[y * w + x] = 1;
    cr_assert_eq(ff_grid_add_goal(g, gx, gy, "t", 0, 0, &err), FF_OK);
}

/* The head of a scenario of ticks 40, profiles on and a random
 * rebuild-ticks, with n door events on a w x h map (mostly in the door
 * column, now and then the same door again: the cache's case) into
 * text: its length; *tick the last event's tick, *first (unless NULL)
 * the first's. */
static size_t door_events(unsigned long long *rng, char *text, size_t cap, int w, int h, int n,
                          long long *tick, long long *first)
{
    size_t len = (size_t)snprintf(text, cap, "ffsim 1\nticks 40\nprofiles on\nrebuild-ticks %d\n",
                                  (int)(tu_next(rng) % 3));
    int e;

    for (e = 0; e < n; e++) {
        int x0 = 1 + (int)(tu_next(rng) % (unsigned)(w - 2));
        int y0 = 1 + (int)(tu_next(rng) % (unsigned)(h - 2));
        int x1 = x0 + (int)(tu_next(rng) % 2), y1 = y0 + (int)(tu_next(rng) % 3);
        if (tu_next(rng) % 2)
            x0 = x1 = w / 2;
        *tick += 1 + (long long)(tu_next(rng) % 4);
        if (first && e == 0)
            *first = *tick;
        if (x1 > w - 2) x1 = w - 2;
        if (y1 > h - 2) y1 = h - 2;
        len += (size_t)snprintf(text + len, cap - len, "at %lld %s %d,%d,%d,%d\n", *tick,
                                tu_next(rng) % 2 ? "close" : "open", x0, y0, x1, y1);
        if (tu_next(rng) % 2)
            len += (size_t)snprintf(text + len, cap - len,
                                    "at %lld open %d,%d,%d,%d\nat %lld close %d,%d,%d,%d\n",
                                    *tick + 1, x0, y0, x1, y1, *tick + 2, x0, y0, x1, y1),
            *tick += 2;
    }
    return len;
}

/* Classes a (radius 0.3), b (0.6 or 0.8) and c (1.1) after text[0..len):
 * the new length. */
static size_t door_classes(unsigned long long *rng, char *text, size_t cap, size_t len)
{
    return len + (size_t)snprintf(text + len, cap - len,
                                  "class a\n radius 0.3\n speed 1\n follow\nend\n"
                                  "class b\n radius %s\n speed 1\n follow\nend\n"
                                  "class c\n radius 1.1\n speed 1\n follow\nend\n",
                                  tu_next(rng) % 2 ? "0.6" : "0.8");
}

/* Scenarios s[k] from text0 and text1 on g, rebuild full when full0 and
 * full1, and their profiles p[k]: 1; 0 (nothing left) when a class's
 * goal is closed by its clearance (not this map). */
static int two_profiles(const char *text0, const char *text1, int full0, int full1, const ff_grid *g,
                        ff_scenario *s, ff_profiles *p)
{
    ff_error err;

    cr_assert_eq(ff_scenario_parse(text0, "t", g, &s[0], &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_scenario_parse(text1, "t", g, &s[1], &err), FF_OK, "%s", err.msg);
    s[0].rebuild_full = full0;
    s[1].rebuild_full = full1;
    if (ff_profiles_init(&p[0], &s[0], g, "t", &err) != FF_OK) {
        ff_scenario_free(&s[0]);
        ff_scenario_free(&s[1]);
        return 0;
    }
    cr_assert_eq(ff_profiles_init(&p[1], &s[1], g, "t", &err), FF_OK, "%s", err.msg);
    return 1;
}

/* What two_profiles made, and the map. */
static void free_two(ff_scenario *s, ff_profiles *p, ff_grid *g)
{
    int k;
    for (k = 0; k < 2; k++) {
        ff_profiles_free(&p[k]);
        ff_scenario_free(&s[k]);
    }
    ff_grid_free(g);
}

Test(profiles, repair_and_full_give_the_same_fields_tick_by_tick)
{
    unsigned long long rng = 77;
    int trial, maps = 0;
    unsigned long long hits = 0, builds = 0;

    for (trial = 0; trial < 60; trial++) {
            int w = 14 + (int)(tu_next(&rng) % 20), h = 10 + (int)(tu_next(&rng) % 16), t;
        char text[4096];
        size_t len;
        ff_grid g;
        ff_scenario s[2];
        ff_profiles p[2];
        ff_error err;
        long long tick = 0;
        int k;

        random_room(&rng, &g, w, h);
        len = door_events(&rng, text, sizeof text, w, h, 8, &tick, NULL);
        door_classes(&rng, text, sizeof text, len);
        if (!two_profiles(text, text, 0, 1, &g, s, p)) {
            ff_grid_free(&g);
            continue;
        }
        same_profile_state(&p[0], &p[1], 0);
        for (t = 1; t <= tick + 6; t++) {
            int changed[2];
            for (k = 0; k < 2; k++)
                cr_assert_eq(ff_profiles_tick(&p[k], t, &changed[k], &err), FF_OK, "%s", err.msg);
            cr_assert_eq(changed[0], changed[1]);
            same_profile_state(&p[0], &p[1], t);
        }
        cr_assert_eq(p[0].builds, p[1].builds);
        cr_assert_eq(p[1].cache_hits, 0);
        hits += p[0].cache_hits;
        builds += p[0].builds;
        maps++;
        free_two(s, p, &g);
    }
    cr_assert_gt(maps, 30, "only %d maps had every class's field", maps);
    cr_assert_gt(hits, 20, "the cache served %llu fields", hits);
}

/* Classes whose radii close the same cells share one field (radii 0.8
 * and 0.9: (2r)^2 = 2.56 and 3.24, no sum of two squares between), its
 * radius the smaller; the shared field is bit for bit the one the larger
 * radius gets alone; ff_profiles_plan says the same without building. */
Test(profiles, radii_closing_the_same_cells_share_a_field)
{
    static const char *const four =
        "ffsim 1\nticks 1\n"
        "class a\n radius 0.9\n speed 1\n follow\nend\n"
        "class b\n radius 0.8\n speed 1\n follow\nend\n"
        "class c\n radius 1.2\n speed 1\n follow\nend\n"
        "class d\n radius 0.4\n speed 1\n follow\nend\n";
    static const char *const alone =
        "ffsim 1\nticks 1\nclass a\n radius 0.9\n speed 1\n follow\nend\n";
    ff_grid g;
    ff_scenario s, s1;
    ff_profiles p, p1;
    ff_error err;
    int32_t plan[4];
    size_t n, k, cells = 13 * 9;

    make_grid(&g);
    cr_assert_eq(ff_scenario_parse(four, "t", &g, &s, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_profiles_plan(&s, &g, plan, &n, &err), FF_OK);
    cr_assert_eq(ff_profiles_init(&p, &s, &g, "t", &err), FF_OK, "%s", err.msg);
    cr_assert_eq(n, 3);
    cr_assert_eq(p.nprofiles, 3);
    for (k = 0; k < 4; k++)
        cr_expect_eq(plan[k], p.class_profile[k], "class %zu", k);
    cr_expect_eq(p.class_profile[0], p.class_profile[1]);
    cr_expect_eq(p.profile[p.class_profile[0]].radius, 0.8);
    cr_expect_eq(p.profile[0].radius, 0.4);
    cr_expect_eq(p.profile[2].radius, 1.2);
    cr_assert_eq(ff_scenario_parse(alone, "t", &g, &s1, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_profiles_init(&p1, &s1, &g, "t", &err), FF_OK, "%s", err.msg);
    cr_expect(memcmp(p.profile[1].distance, p1.profile[0].distance, cells * sizeof(double)) == 0);
    cr_expect(memcmp(p.profile[1].direction, p1.profile[0].direction, cells) == 0);
    cr_expect(memcmp(p.profile[1].grid.cost, p1.profile[0].grid.cost, cells * sizeof(float)) == 0);
    ff_profiles_free(&p);
    ff_profiles_free(&p1);
    ff_scenario_free(&s);
    ff_scenario_free(&s1);
    ff_grid_free(&g);
}

/* A profile whose agents all have goals of their own is not built at
 * the start (its grid and steps are: own goals' fields read them), and
 * is built before the first map event: from there on the same fields,
 * stale ticks and publications as a profile some agent follows (the
 * same scenario with one more agent a class without an own goal), tick
 * by tick, by repair and by full rebuilds, and the same builds counted;
 * its ids stand for the same fields (the first one's id is its own, then
 * the rebuilds' are the same). */
Test(profiles, a_profile_nobody_follows_is_built_at_the_first_map_event)
{
    unsigned long long rng = 91;
    int trial, maps = 0;

    for (trial = 0; trial < 40; trial++) {
        int w = 14 + (int)(tu_next(&rng) % 20), h = 10 + (int)(tu_next(&rng) % 16), t, k, gx, gy;
        int full = (int)(tu_next(&rng) % 2);
        char text[2][4096];
        size_t len;
        ff_grid g;
        ff_scenario s[2];
        ff_profiles p[2];
        ff_error err;
        long long tick = 0, first = 0;
        uint64_t id0[2][3];
        size_t j;

        random_room(&rng, &g, w, h);
        gx = (int)(g.goals[0] % (uint32_t)w);
        gy = (int)(g.goals[0] / (uint32_t)w);
        len = door_events(&rng, text[0], sizeof text[0], w, h, 6, &tick, &first);
        len = door_classes(&rng, text[0], sizeof text[0], len);
        /* Own goals in the goal's open patch. */
        for (k = 0; k < 3; k++)
            len += (size_t)snprintf(text[0] + len, sizeof text[0] - len,
                                    "agent %d %c %g,%g goal %d,%d\n", k + 1, "abc"[k],
                                    (gx - 1 + k + 0.5) * g.cell_size, (gy + 0.5) * g.cell_size,
                                    gx - 1 + k, gy + 2);
        memcpy(text[1], text[0], len + 1);
        for (k = 0; k < 3; k++)
            len += (size_t)snprintf(text[1] + len, sizeof text[1] - len, "agent %d %c %g,%g\n",
                                    k + 11, "abc"[k], (gx - 1 + k + 0.5) * g.cell_size,
                                    (gy + 1 + 0.5) * g.cell_size);
        if (!two_profiles(text[0], text[1], full, full, &g, s, p)) {
            ff_grid_free(&g);
            continue;
        }
        cr_assert_eq(p[0].nprofiles, p[1].nprofiles);
        cr_assert_eq(p[0].builds, 0);
        cr_assert_eq(p[1].builds, p[1].nprofiles);
        for (j = 0; j < p[0].nprofiles; j++) {
            const ff_profile *f = &p[0].profile[j], *f1 = &p[1].profile[j];
            size_t n = (size_t)w * (size_t)h;
            cr_assert(!f->built && f1->built);
            cr_assert(!f->distance && !f->direction && !f->lead_layer);
            cr_assert_null(ff_profiles_direction(&p[0], (int32_t)j));
            cr_assert_eq(memcmp(f->step_mask, f1->step_mask, n), 0);
            cr_assert_eq(memcmp(f->grid.cost, f1->grid.cost, n * sizeof(float)), 0);
            cr_assert_eq(f->grid.ngoals, f1->grid.ngoals);
            cr_assert_neq(f->id, f1->id);
            id0[0][j] = f->id;
            id0[1][j] = f1->id;
        }
        for (t = 1; t <= tick + 6; t++) {
            int changed[2];
            for (k = 0; k < 2; k++)
                cr_assert_eq(ff_profiles_tick(&p[k], t, &changed[k], &err), FF_OK, "%s", err.msg);
            cr_assert_eq(changed[0], changed[1]);
            if (t < first) {
                cr_assert_eq(p[0].builds, 0);
                continue;
            }
            same_profile_state(&p[0], &p[1], t);
            cr_assert_eq(p[0].late_tick, first);
            for (j = 0; j < p[0].nprofiles; j++) {
                cr_assert_eq(p[0].profile[j].unbuilt_id, id0[0][j]);
                cr_assert_eq(p[0].profile[j].late_id, id0[1][j]);
            }
        }
        cr_assert_eq(p[0].builds, p[1].builds);
        cr_assert_eq(p[0].cache_hits, p[1].cache_hits);
        cr_assert_eq(p[0].build_bytes, p[1].build_bytes);
        maps++;
        free_two(s, p, &g);
    }
    cr_assert_gt(maps, 20, "only %d maps had every class's field", maps);
}

/* ---- goal changes (goalchange.h) ---- */

/* The cost to the nearest of goals[0..ngoals) from every cell of g, by
 * Bellman-Ford over the movement rules of gridmodel.h (written from man 1
 * ffbuild, not from the search): the oracle of a goal change's field. */
static void brute_distance(const ff_grid *g, const uint32_t *goals, size_t ngoals, double *dist)
{
    model m;
    int n = g->w * g->h, i, d, changed = 1;
    size_t k;

    cr_assert_leq(n, 100);
    memset(&m, 0, sizeof m);
    m.w = g->w;
    m.h = g->h;
    m.moves = g->moves;
    m.corners = (int)g->corners;
    m.cell = g->cell_size;
    for (i = 0; i < n; i++) {
        m.cost[i] = isinf(g->cost[i]) ? -1 : g->cost[i];
        m.oneway[i] = 0xff;
        dist[i] = INFINITY;
    }
    for (k = 0; k < ngoals; k++)
        dist[goals[k]] = 0;
    while (changed) {
        changed = 0;
        for (i = 0; i < n; i++)
            for (d = 0; d < 8; d++) {
                double c = m_step(&m, i % m.w, i / m.w, d);
                int j = i + DY[d] * m.w + DX[d];
                if (c >= 0 && dist[j] + c < dist[i] - 1e-12) {
                    dist[i] = dist[j] + c;
                    changed = 1;
                }
            }
    }
}

/* A class's goals changed at 3 (rebuild-ticks 2: the old field kept,
 * then at 5 the new one, equal to the oracle's costs for the new goals)
 * and back at 6: the first field again, bit for bit, at once, from the
 * cache. */
Test(profiles, a_goal_change_and_back)
{
    static const char *const rows[7] = {
        "##########", "#........#", "#..##....#", "#...#..#.#", "#...#..#.#", "#.......G#",
        "##########",
    };
    static const char *text = "ffsim 1\nticks 20\nprofiles off\nrebuild-ticks 2\n"
                              "class w\n radius 0.3\n speed 1\n follow\nend\n"
                              "at 3 goal w 1,1 5,4\nat 6 goal w 8,5\n";
    static const uint32_t changed[2] = { 1 * 10 + 1, 4 * 10 + 5 };
    ff_grid g;
    ff_scenario s;
    ff_profiles p;
    ff_goalchanges gc;
    ff_error err;
    double first[70], want[70];
    uint64_t first_id;
    long long t;
    size_t e = 0;
    int x, y, i;

    ff_grid_init(&g);
    cr_assert_eq(ff_grid_alloc(&g, 10, 7, 0, "t", &err), FF_OK);
    for (y = 0; y < 7; y++)
        for (x = 0; x < 10; x++)
            g.cost[y * 10 + x] = rows[y][x] == '#' ? INFINITY : 1.0f;
    cr_assert_eq(ff_grid_add_goal(&g, 8, 5, "t", 0, 0, &err), FF_OK);
    cr_assert_eq(ff_scenario_parse(text, "t", &g, &s, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_profiles_init(&p, &s, &g, "t", &err), FF_OK, "%s", err.msg);
    ff_goalchanges_init(&gc);
    memcpy(first, p.profile[0].distance, sizeof first);
    first_id = p.profile[0].id;
    brute_distance(&p.map, changed, 2, want);
    for (t = 1; t <= 7; t++) {
        int map_changed;
        cr_assert_eq(ff_profiles_tick(&p, t, &map_changed, &err), FF_OK);
        for (; e < s.ngoal_events && s.goal_event[e].tick == t; e++)
            cr_assert_eq(ff_goalchanges_class(&gc, &p, &s.goal_event[e], t, &err), FF_OK);
        cr_expect_eq(p.profile[0].stale, 0, "keep: never stale (tick %lld)", t);
        if (t == 3 || t == 4)
            cr_expect_eq(p.profile[0].id, first_id, "the old field kept at %lld", t);
        if (t == 5) {
            cr_expect_neq(p.profile[0].id, first_id);
            cr_expect_eq(p.profile[0].published_tick, 5);
            for (i = 0; i < 70; i++)
                cr_expect(isinf(want[i]) ? isinf(p.profile[0].distance[i])
                                         : fabs(p.profile[0].distance[i] - want[i]) < 1e-9,
                          "cell %d: %g, oracle %g", i, p.profile[0].distance[i], want[i]);
            cr_expect(p.profile[0].goal_mask[changed[0]] && p.profile[0].goal_mask[changed[1]] &&
                      !p.profile[0].goal_mask[5 * 10 + 8]);
        }
    }
    cr_expect_eq(p.profile[0].id, first_id, "the first field again");
    cr_expect_eq(p.profile[0].published_tick, 6, "published at the change back");
    cr_expect(memcmp(p.profile[0].distance, first, sizeof first) == 0);
    cr_expect_eq(gc.changes, 2);
    cr_expect_eq(gc.cache_hits, 1);
    cr_expect_eq(p.builds, 2, "the first field and the new goals'");
    ff_goalchanges_free(&gc);
    ff_profiles_free(&p);
    ff_scenario_free(&s);
    ff_grid_free(&g);
}
