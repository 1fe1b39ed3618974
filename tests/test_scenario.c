/* test_scenario.c - the crowd scenario format (man 5 ffsim): values,
 * defaults, behaviour order, seeded spawn rules, and malformed lines
 * refused at their line and column. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>

#include "scenario.h"

/* 12 x 6: walls around, a wall stub at 6,1..2, spawn tiles at 2..3,3..4,
 * and an open cell elsewhere. */
static void test_grid(ff_grid *g)
{
    static const char *const rows[6] = {
        "############",
        "#.....#....#",
        "#.....#....#",
        "#.SS.......#",
        "#.SS.......#",
        "############",
    };
    ff_error err;
    int x, y;
    size_t n = 0;

    ff_grid_init(g);
    cr_assert_eq(ff_grid_alloc(g, 12, 6, 0, "t", &err), FF_OK);
    g->spawns = malloc(4 * sizeof *g->spawns);
    cr_assert_not_null(g->spawns);
    for (y = 0; y < 6; y++)
        for (x = 0; x < 12; x++) {
            g->cost[y * 12 + x] = rows[y][x] == '#' ? INFINITY : 1.0f;
            if (rows[y][x] == 'S')
                g->spawns[n++] = (uint32_t)(y * 12 + x);
        }
    g->nspawns = n;
}

#define HEAD "ffsim 1\nticks 10\n"
#define WALKER "class w\n radius 0.3\n speed 1\n follow\nend\n"

Test(scenario, splitmix64_reference_values)
{
    /* The published first outputs of splitmix64 from seed 0. */
    uint64_t s = 0;
    cr_expect_eq(ff_splitmix64(&s), 0xe220a8397b1dcdafULL);
    cr_expect_eq(ff_splitmix64(&s), 0x6e789e6aa1b965f4ULL);
    cr_expect_eq(ff_splitmix64(&s), 0x06c45d188009454fULL);
}

Test(scenario, values_defaults_and_order)
{
    ff_grid g;
    ff_scenario s;
    ff_error err;
    const ff_agent_class *c;
    const char *text =
        "ffsim 1   # magic\n"
        "# a comment line\n"
        "\n"
        "tick 0.05\n"
        "ticks 30\n"
        "arrive 0.25\n"
        "arrived stay\n"
        "passes 3\n"
        "class big\n"
        "  radius 0.4\n"
        "  speed 2\n"
        "  turn 90\n"
        "  threshold 0.2\n"
        "  seek 9.5,2.5 priority 5 weight 2\n"
        "  follow priority 1\n"
        "  separate priority 5 weight 0.5 range 1.5\n"
        "  avoid-walls priority 1\n"
        "end\n"
        "agent 7 big 8.5,3.5 tick 4 heading 90\n"
        "agent 2 big 1.5,1.5\n";

    test_grid(&g);
    cr_assert_eq(ff_scenario_parse(text, "s", &g, &s, &err), FF_OK, "%s", err.msg);
    cr_expect_eq(s.tick_dt, 0.05);
    cr_expect_eq(s.ticks, 30);
    cr_expect_eq(s.arrive, 0.25);
    cr_expect_eq(s.stay, 1);
    cr_expect_eq(s.passes, 3);
    cr_assert_eq(s.nclasses, 1);
    c = &s.cls[0];
    cr_expect_eq(c->radius, 0.4);
    cr_expect_eq(c->max_speed, 2);
    cr_expect_eq(c->max_accel, 8, "accel defaults to 4 x speed");
    cr_expect_eq(c->max_turn, 90);
    cr_expect_eq(c->threshold, 0.2);
    /* Sorted by priority, line order kept within one: follow, avoid-walls
     * (priority 1), then seek, separate (priority 5). */
    cr_assert_eq(c->nbehaviours, 4);
    cr_expect_eq(c->behaviour[0].kind, FF_BEHAVE_FOLLOW);
    cr_expect_eq(c->behaviour[1].kind, FF_BEHAVE_AVOID_WALLS);
    cr_expect_eq(c->behaviour[2].kind, FF_BEHAVE_SEEK);
    cr_expect_eq(c->behaviour[3].kind, FF_BEHAVE_SEPARATE);
    cr_expect_eq(c->ngroups, 2);
    cr_expect_eq(c->group_start[0], 0);
    cr_expect_eq(c->group_start[1], 2);
    cr_expect_eq(c->group_start[2], 4);
    cr_expect_eq(c->behaviour[1].range, 0.8, "avoid-walls look-ahead defaults to 2 x radius");
    cr_expect_eq(c->behaviour[2].weight, 2);
    cr_expect_eq(c->behaviour[2].target_x, 9.5);
    cr_expect_eq(c->behaviour[2].target_y, 2.5);
    cr_expect_eq(c->behaviour[3].range, 1.5);
    cr_expect_eq(c->behaviour[3].weight, 0.5);
    cr_expect(c->follows);
    /* Agents come out in id order. */
    cr_assert_eq(s.nagents, 2);
    cr_expect_eq(s.agent[0].id, 2);
    cr_expect_eq(s.agent[0].x, 1.5);
    cr_expect(isnan(s.agent[0].heading));
    cr_expect_eq(s.agent[0].spawn_tick, 0);
    cr_expect_eq(s.agent[1].id, 7);
    cr_expect_eq(s.agent[1].spawn_tick, 4);
    cr_expect_eq(s.agent[1].heading, 90);
    cr_expect_eq(s.agent[1].line, 19);
    ff_scenario_free(&s);
    ff_grid_free(&g);
}

Test(scenario, separate_range_default_and_arrive_default)
{
    ff_grid g;
    ff_scenario s;
    ff_error err;

    test_grid(&g);
    cr_assert_eq(ff_scenario_parse(HEAD "class w\n radius 0.25\n speed 1\n separate\nend\n", "s", &g, &s,
                                   &err), FF_OK, "%s", err.msg);
    cr_expect_eq(s.cls[0].behaviour[0].range, 1.0, "separate range defaults to 4 x radius");
    cr_expect_eq(s.arrive, 0.5, "arrive defaults to half a cell");
    cr_expect_eq(s.tick_dt, 0.1);
    cr_expect_eq(s.passes, 4);
    cr_expect_eq(s.stay, 0);
    cr_expect(!s.cls[0].follows);
    cr_expect_eq(s.cls[0].threshold, 0.2, "the seed's threshold");
    cr_expect_eq(s.stuck_after, 60, "standoffs after 60 seconds");
    ff_scenario_free(&s);
    cr_assert_eq(ff_scenario_parse(HEAD "stuck-after 2.5\nclass w\n radius 0.25\n speed 1\n follow\nend\n", "s",
                                   &g, &s, &err), FF_OK, "%s", err.msg);
    cr_expect_eq(s.stuck_after, 2.5);
    ff_scenario_free(&s);
    ff_grid_free(&g);
}

Test(scenario, angular_behaviours_and_their_defaults)
{
    ff_grid g;
    ff_scenario s;
    ff_error err;
    const ff_agent_class *c;

    test_grid(&g);
    cr_assert_eq(ff_scenario_parse(HEAD "class w\n radius 0.25\n speed 1\n turn 90\n follow\n"
                                   " align priority 1\n face 3.5 2.5 weight 2\n look-ahead priority -1\n"
                                   " align range 0.5\nend\n"
                                   "class v\n radius 0.25\n speed 1\n angular-accel 45\n seek 1,1\nend\n",
                                   "s", &g, &s, &err), FF_OK, "%s", err.msg);
    c = &s.cls[0];
    cr_expect(c->turns);
    cr_expect_eq(c->max_angular_accel, 360, "angular-accel defaults to 4 x turn");
    cr_assert_eq(c->nbehaviours, 5);
    cr_expect_eq(c->behaviour[0].kind, FF_BEHAVE_LOOK_AHEAD);
    cr_expect_eq(c->behaviour[1].kind, FF_BEHAVE_FOLLOW);
    cr_expect_eq(c->behaviour[2].kind, FF_BEHAVE_FACE);
    cr_expect_eq(c->behaviour[2].target_x, 3.5);
    cr_expect_eq(c->behaviour[2].target_y, 2.5);
    cr_expect_eq(c->behaviour[2].weight, 2);
    cr_expect_eq(c->behaviour[3].kind, FF_BEHAVE_ALIGN);
    cr_expect_eq(c->behaviour[3].range, 0.5);
    cr_expect_eq(c->behaviour[4].kind, FF_BEHAVE_ALIGN);
    cr_expect_eq(c->behaviour[4].range, 1.0, "align's range defaults to separate's, 4 x radius");
    cr_expect_eq(c->ngroups, 3);
    cr_expect(!s.cls[1].turns, "seek is linear");
    cr_expect_eq(s.cls[1].max_angular_accel, 45);
    ff_scenario_free(&s);
    /* face needs a point in the map (0..12 x 0..6 world units here), and
     * look-ahead has no range. */
    cr_expect_eq(ff_scenario_parse(HEAD "class w\n radius 0.25\n speed 1\n face 12.5,3\nend\n", "s", &g, &s,
                                   &err), FF_EINPUT);
    cr_expect_eq(err.col, 7);
    cr_expect_eq(ff_scenario_parse(HEAD "class w\n radius 0.25\n speed 1\n face 12,6\nend\n", "s", &g, &s,
                                   &err), FF_OK, "%s", err.msg);
    ff_scenario_free(&s);
    cr_expect_eq(ff_scenario_parse(HEAD "class w\n radius 0.25\n speed 1\n look-ahead range 2\nend\n", "s", &g,
                                   &s, &err), FF_EINPUT);
    cr_expect_eq(err.col, 13);
    ff_grid_free(&g);
}

Test(scenario, spawn_rules_are_seeded_placed_and_numbered)
{
    ff_grid g;
    ff_scenario a, b, c;
    ff_error err;
    const char *text = HEAD WALKER
        "agent 3 w 8.5,1.5\n"
        "spawn 6 w spawns seed 11\n"
        "spawn 5 w rect 7,1,11,5 seed 2 tick 3 first 100\n";
    size_t k, m;

    test_grid(&g);
    cr_assert_eq(ff_scenario_parse(text, "s", &g, &a, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_scenario_parse(text, "s", &g, &b, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(a.nagents, 12);
    /* ids: 3, then 4..9 (after the largest so far), then 100..104 */
    for (k = 0; k < 7; k++)
        cr_expect_eq(a.agent[k].id, 3 + k);
    for (k = 7; k < 12; k++)
        cr_expect_eq(a.agent[k].id, 100 + k - 7);
    for (k = 0; k < a.nagents; k++) {
        const ff_agent_spec *p = &a.agent[k];
        cr_expect_eq(p->x, b.agent[k].x, "same seed, same place");
        cr_expect_eq(p->y, b.agent[k].y);
        cr_expect(tu_wall_distance(&g, p->x, p->y) >= 0.3, "agent %u at %g,%g too near a wall", p->id, p->x, p->y);
        if (p->id >= 4 && p->id <= 9) {
            int cx = (int)floor(p->x), cy = (int)floor(p->y);
            cr_expect(cx >= 2 && cx <= 3 && cy >= 3 && cy <= 4, "agent %u not on a spawn cell", p->id);
            cr_expect_eq(p->spawn_tick, 0);
        }
        if (p->id >= 100) {
            cr_expect(p->x >= 7 && p->x < 11 && p->y >= 1 && p->y < 5);
            cr_expect_eq(p->spawn_tick, 3);
        }
        /* There is room: no two agents of one spawn tick overlap. */
        for (m = k + 1; m < a.nagents; m++)
            if (a.agent[m].spawn_tick == p->spawn_tick)
                cr_expect(hypot(a.agent[m].x - p->x, a.agent[m].y - p->y) >= 0.6);
    }
    /* Another seed places them elsewhere. */
    {
        char other[512];
        snprintf(other, sizeof other, HEAD WALKER "agent 3 w 8.5,1.5\nspawn 6 w spawns seed 12\n");
        cr_assert_eq(ff_scenario_parse(other, "s", &g, &c, &err), FF_OK, "%s", err.msg);
        cr_expect(c.agent[1].x != a.agent[1].x || c.agent[1].y != a.agent[1].y);
        ff_scenario_free(&c);
    }
    ff_scenario_free(&a);
    ff_scenario_free(&b);
    ff_grid_free(&g);
}

/* ---- refused ---- */

/* Arrays, not pointers: Criterion runs each test in a new process. */
struct bad_case {
    char text[160];
    long line, col;
    char what[64];
};

ParameterizedTestParameters(scenario, refused)
{
    static struct bad_case bad_cases[] = {
    { "ffsim 2\n", 1, 1, "expected 'ffsim 1'" },
    { "# only a comment\n", 0, 0, "empty input: no scenario" },
    { "ffsim 1\n", 0, 0, "no 'ticks' line" },
    { HEAD "class w\n radius 0.3\n speed 1\n fly priority 0\nend\n", 6, 2, "unknown behaviour 'fly'" },
    { HEAD "class w\n radius -0.3\n speed 1\n follow\nend\n", 4, 9, "radius -0.3 must be > 0" },
    { HEAD "class w\n radius 1e300\n speed 1\n follow\nend\n", 4, 9, "radius 1e300 is wider than the map" },
    { "ffsim 1\nticks 1\narrive 1e308\n", 3, 8, "arrive 1e308 is beyond the map's size" },
    { HEAD "class w\n radius 0.3\n speed 0\n follow\nend\n", 5, 8, "speed 0 must be a number from 0 (excluded) to 1e12" },
    { HEAD "class w\n radius 0.3\n speed 1\nend\n", 6, 1, "has no behaviours" },
    { HEAD "class w\n speed 1\n follow\nend\n", 6, 1, "has no radius" },
    { HEAD "class w\n radius 0.3\n speed 1\n follow\n", 3, 0, "has no 'end'" },
    { HEAD "class w\n radius 0.3\n speed 1\n follow\nagent 1 w 2.5,2.5\n", 7, 1, "missing 'end'" },
    { HEAD "class w\n radius 0.3\n speed 1\n follow weight x\nend\n", 6, 16, "weight 'x' is not a number" },
    { HEAD "class w\n radius 0.3\n speed 1\n follow range 2\nend\n", 6, 9, "unknown setting 'range' for follow" },
    { HEAD "class w\n radius 0.3\n speed 1\n seek priority 1\nend\n", 6, 7, "seek needs a point" },
    { HEAD WALKER "agent 1 w 6.5,1.5\n", 8, 11, "agent 1 at 6.5,1.5 is on a wall" },
    { HEAD WALKER "agent 1 w 40,1.5\n", 8, 11, "agent 1 at 40,1.5 is outside the map" },
    { HEAD WALKER "agent 1 w -0.5,1.5\n", 8, 11, "outside the map" },
    { HEAD WALKER "agent 1 w 1.1,1.5\n", 8, 11, "nearer than its radius 0.3 to a wall" },
    { HEAD WALKER "agent 1 w 1.5,1.5\nagent 1 w 2.5,1.5\n", 9, 7, "duplicate agent id 1 (first given at line 8)" },
    { HEAD WALKER "agent 1 w 1.5,1.5\nspawn 2 w spawns first 0\n", 9, 7, "duplicate agent id 1" },
    { HEAD WALKER "agent 1 x 1.5,1.5\n", 8, 9, "unknown class 'x'" },
    { HEAD WALKER "agent 1 w 1.5;1.5\n", 8, 11, "is not X,Y" },
    { HEAD WALKER "agent 1 w 1.5,1.5 speed 3\n", 8, 19, "unknown agent setting 'speed'" },
    { HEAD WALKER "spawn 3 w rect 5,1,4,2\n", 8, 16, "is empty" },
    { HEAD WALKER "spawn 3 w circle\n", 8, 11, "unknown placement 'circle'" },
    { HEAD WALKER "spawn 3 w rect 6,1,7,2\n", 8, 11, "no place clear of walls" },
    { HEAD WALKER "spawn 10000000 w rect 1,1,4,2\n", 8, 7, "cannot fit in the rectangle's open cells" },
    { HEAD WALKER "spawn 10000000 w spawns\n", 8, 7, "cannot fit in the spawn cells" },
    { HEAD WALKER "spawn 0 w spawns\n", 8, 7, "spawn count '0'" },
    { HEAD WALKER "spawn 2 w spawns seed -1\n", 8, 23, "seed '-1'" },
    { HEAD "walk 3\n", 3, 1, "unknown keyword 'walk'" },
    /* goal changes */
    { HEAD WALKER "at 3 goal agent 7 2,1\n", 8, 17, "unknown agent 7" },
    { HEAD WALKER "agent 7 w 1.5,1.5\nat 3 goal agent 8 2,1\n", 9, 17, "unknown agent 8" },
    { HEAD "at 3 goal w 2,1\n" WALKER, 3, 11, "unknown class 'w'" },
    { HEAD WALKER "at 3 goal w 6,1\n", 8, 13, "goal 6,1 is on a wall" },
    { HEAD WALKER "at 3 goal w 2,9\n", 8, 13, "outside the map" },
    { HEAD WALKER "at 3 goal w\n", 8, 1, "at TICK goal needs" },
    { HEAD WALKER "at 0 goal w 2,1\n", 8, 4, "event tick '0'" },
    { HEAD "goal-change halt\n", 3, 13, "goal-change 'halt' (keep or stop)" },
    { HEAD "ticks 4\n", 3, 1, "'ticks' given twice (first at line 2)" },
    { HEAD "tick 0\n", 3, 6, "tick 0 must be a number from 0 (excluded) to 3600" },
    { HEAD "arrived maybe\n", 3, 9, "arrived 'maybe'" },
    { HEAD "end\n", 3, 1, "'end' outside a class" },
    { HEAD WALKER "class w\n", 8, 7, "class 'w' defined twice" },
    { HEAD "at 3 close 1,1,12,2\n", 3, 12, "outside the map (12x6 cells)" },
    { HEAD "at 3 close -1,1,2,2\n", 3, 12, "outside the map" },
    { HEAD "at 3 close 3,1,2,2\n", 3, 12, "need X0 <= X1 and Y0 <= Y1" },
    { HEAD "at 3 close 1.5,1,2,2\n", 3, 12, "not whole cell numbers" },
    { HEAD "at 3 close 1,1,2\n", 3, 12, "are not X0,Y0,X1,Y1" },
    { HEAD "at 3 slam 1,1,2,2\n", 3, 6, "unknown event 'slam'" },
    { HEAD "at x close 1,1,2,2\n", 3, 4, "event tick 'x'" },
    { HEAD "at 3 close\n", 3, 1, "at needs TICK close|open" },
    { HEAD "reserve on\n", 3, 9, "reserve on needs 'move grid'" },
    { HEAD "reserve maybe\n", 3, 9, "reserve 'maybe' (on or off)" },
    { HEAD "profiles yes\n", 3, 10, "profiles 'yes' (on or off)" },
    { HEAD "profiles on\nprofiles off\n", 4, 1, "'profiles' given twice" },
    { HEAD "move hop\n", 3, 6, "move 'hop' (steer or grid)" },
    { HEAD "fallback fly\n", 3, 10, "fallback 'fly' (wait or astar)" },
    { HEAD "rebuild-ticks -2\n", 3, 15, "rebuild-ticks '-2'" },
    { HEAD "wait-limit 0\n", 3, 12, "wait-limit '0'" },
    { HEAD "class w\n radius 0.3\n speed 1\n goal 6,1\n follow\nend\n", 6, 7, "goal 6,1 is on a wall" },
    { HEAD "class w\n radius 0.3\n speed 1\n goal 12,1\n follow\nend\n", 6, 7, "outside the map" },
    { HEAD "class w\n radius 0.3\n speed 1\n goal 2,1\n goal 2,1\n follow\nend\n", 7, 7, "given twice" },
    { HEAD "class w\n radius 0.3\n speed 1\n priority high\n follow\nend\n", 6, 11, "priority 'high'" },
    { HEAD WALKER "agent 1 w 1.5,1.5 goal 6,2\n", 8, 24, "goal 6,2 is on a wall" },
    { HEAD WALKER "agent 1 w 1.5,1.5 goal 3,6\n", 8, 24, "goal 3,6 is outside the map (12x6 cells)" },
    { HEAD WALKER "agent 1 w 1.5,1.5 goal 3.5,2\n", 8, 24, "goal needs one cell X,Y or X Y" },
    { HEAD WALKER "agent 1 w 1.5,1.5 goal\n", 8, 19, "'goal' needs a value" },
    { HEAD WALKER "spawn 2 w scen\n", 8, 11, "scen needs a FILE" },
    { HEAD WALKER "spawn 2 w scen /nonexistent/x.scen\n", 8, 16, "cannot open" },
    };
    return cr_make_param_array(struct bad_case, bad_cases, sizeof bad_cases / sizeof *bad_cases);
}

/* A .scen file of text in a fresh folder: its path (static). */
static const char *scen_file(const char *text)
{
    static char path[64];
    char dir[] = "/tmp/ffscenXXXXXX";
    FILE *f;

    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/t.scen", dir);
    cr_assert_not_null(f = fopen(path, "w"));
    fputs(text, f);
    fclose(f);
    return path;
}

Test(scenario, own_goals_and_mapf_scen)
{
    ff_grid g;
    ff_scenario s;
    ff_error err;
    char text[400];
    const char *path = scen_file("version 1\n"
                                 "0\tt.map\t12\t6\t1\t1\t10\t4\t9\n"
                                 "0\tt.map\t12\t6\t2\t1\t1\t4\t3.5\n"
                                 "1 t.map 12 6 8 2 7 1 1.41\n");

    test_grid(&g);
    cr_assert_eq(ff_scenario_parse(HEAD WALKER "agent 1 w 1.5,1.5 goal 9 2 tick 0\nagent 2 w 2.5,1.5\n", "t", &g,
                                   &s, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(s.nagents, 2);
    cr_expect_eq(s.agent[0].goal, 2 * 12 + 9);
    cr_expect_eq(s.agent[1].goal, -1, "no goal: the class's");
    ff_scenario_free(&s);
    snprintf(text, sizeof text, HEAD WALKER "agent 0 w 5.5,4.5\nspawn 2 w scen %s tick 3\n", path);
    cr_assert_eq(ff_scenario_parse(text, "t", &g, &s, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(s.nagents, 3);
    /* Ids after the largest; starts at cell centers; own goals. */
    cr_expect(s.agent[1].id == 1 && s.agent[1].x == 1.5 && s.agent[1].y == 1.5 &&
              s.agent[1].goal == 4 * 12 + 10 && s.agent[1].spawn_tick == 3);
    cr_expect(s.agent[2].id == 2 && s.agent[2].x == 2.5 && s.agent[2].y == 1.5 &&
              s.agent[2].goal == 4 * 12 + 1);
    ff_scenario_free(&s);
    /* The file has 3 agents, not 4. */
    snprintf(text, sizeof text, HEAD WALKER "spawn 4 w scen %s\n", path);
    cr_expect_eq(ff_scenario_parse(text, "t", &g, &s, &err), FF_EINPUT);
    cr_expect(err.line == 8 && err.col == 7 && strstr(err.msg, "has 3 agents, not 4"), "%ld:%ld %s",
              err.line, err.col, err.msg);
    /* The third line's goal 7,1 is open, its start 8,2 too; a start on
     * the wall stub 6,1 is refused at its file, line and column. */
    path = scen_file("version 1\n0 t.map 12 6 6 1 7 1 1\n");
    snprintf(text, sizeof text, HEAD WALKER "spawn 1 w scen %s\n", path);
    cr_expect_eq(ff_scenario_parse(text, "t", &g, &s, &err), FF_EINPUT);
    cr_expect(strcmp(err.file, path) == 0 && err.line == 2 && err.col == 14 && strstr(err.msg, "on a wall"),
              "%s:%ld:%ld %s", err.file, err.line, err.col, err.msg);
    path = scen_file("version 1\n0 t.map 12 6 1 1 6 2 1\n");
    snprintf(text, sizeof text, HEAD WALKER "spawn 1 w scen %s\n", path);
    cr_expect_eq(ff_scenario_parse(text, "t", &g, &s, &err), FF_EINPUT);
    cr_expect(err.line == 2 && err.col == 18 && strstr(err.msg, "goal 6,2 is on a wall"), "%ld:%ld %s",
              err.line, err.col, err.msg);
    path = scen_file("version 1\n0 t.map 13 6 1 1 2 2 1\n");
    snprintf(text, sizeof text, HEAD WALKER "spawn 1 w scen %s\n", path);
    cr_expect_eq(ff_scenario_parse(text, "t", &g, &s, &err), FF_EINPUT);
    cr_expect(err.line == 2 && strstr(err.msg, "the map is 13x6, the field's 12x6"), "%s", err.msg);
    path = scen_file("version 1\n0 t.map 12 6 1 1 12 2 1\n");
    snprintf(text, sizeof text, HEAD WALKER "spawn 1 w scen %s\n", path);
    cr_expect_eq(ff_scenario_parse(text, "t", &g, &s, &err), FF_EINPUT);
    cr_expect(err.line == 2 && err.col == 18 && strstr(err.msg, "goal 12,2 is outside the 12x6 map"), "%s",
              err.msg);
    path = scen_file("version 2\n");
    snprintf(text, sizeof text, HEAD WALKER "spawn 1 w scen %s\n", path);
    cr_expect_eq(ff_scenario_parse(text, "t", &g, &s, &err), FF_EINPUT);
    cr_expect(err.line == 1 && strstr(err.msg, "expected 'version 1'"), "%s", err.msg);
    path = scen_file("version 1\n0 t.map 12 6 1 x 2 2 1\n");
    snprintf(text, sizeof text, HEAD WALKER "spawn 1 w scen %s\n", path);
    cr_expect_eq(ff_scenario_parse(text, "t", &g, &s, &err), FF_EINPUT);
    cr_expect(err.line == 2 && err.col == 16 && strstr(err.msg, "start y 'x'"), "%s", err.msg);
    ff_grid_free(&g);
}

Test(scenario, events_settings_and_class_goals)
{
    ff_grid g;
    ff_scenario s;
    ff_error err;

    test_grid(&g);
    cr_assert_eq(ff_scenario_parse(HEAD "move grid\nreserve on\nwait-limit 5\nprofiles on\n"
                                   "rebuild-ticks 4\nfallback astar\n"
                                   "at 9 open 1,1,2,2\nat 3 close 7,1,7,4\nat 9 close 3,3,3,3\n"
                                   "class w\n radius 0.3\n speed 1\n priority -2\n goal 9,2\n goal 2,1\n"
                                   " follow\nend\n",
                                   "t", &g, &s, &err), FF_OK, "%s", err.msg);
    cr_expect_eq(s.move, FF_MOVE_GRID);
    cr_expect_eq(s.reserve, 1);
    cr_expect_eq(s.wait_limit, 5);
    cr_expect_eq(s.profiles, 1);
    cr_expect_eq(s.rebuild_ticks, 4);
    cr_expect_eq(s.fallback, FF_FALLBACK_ASTAR);
    cr_assert_eq(s.nevents, 3);
    /* Ascending tick, line order within a tick. */
    cr_expect(s.event[0].tick == 3 && s.event[0].close && s.event[0].x0 == 7 && s.event[0].y1 == 4);
    cr_expect(s.event[1].tick == 9 && !s.event[1].close && s.event[1].line == 9);
    cr_expect(s.event[2].tick == 9 && s.event[2].close && s.event[2].line == 11);
    cr_expect_eq(s.cls[0].agent_priority, -2);
    cr_assert_eq(s.cls[0].ngoals, 2);
    cr_expect_eq(s.cls[0].goal[0], 1 * 12 + 2, "ascending cell order");
    cr_expect_eq(s.cls[0].goal[1], 2 * 12 + 9);
    ff_scenario_free(&s);
    /* Defaults. */
    cr_assert_eq(ff_scenario_parse(HEAD, "t", &g, &s, &err), FF_OK, "%s", err.msg);
    cr_expect(s.move == FF_MOVE_STEER && !s.reserve && s.profiles == 1 && s.rebuild_ticks == 0 &&
              s.fallback == FF_FALLBACK_WAIT && s.wait_limit == 3 && s.nevents == 0);
    ff_scenario_free(&s);
    ff_grid_free(&g);
}

/* Goal changes: both forms, in tick order, agents found by id wherever
 * they are given (a class before its changes), and goal versions numbered by hand: class w starts with
 * the grid's goal 10,4 (version 0), changes to {2,1 9,2} (1), to 5,4 (2),
 * back to {9,2 2,1} given in another order (1) and to 10,4 (0). */
Test(scenario, goal_changes)
{
    ff_grid g;
    ff_scenario s;
    ff_error err;
    uint32_t start = 4 * 12 + 10;

    test_grid(&g);
    g.goals = malloc(sizeof *g.goals);
    cr_assert_not_null(g.goals);
    g.goals[0] = start;
    g.ngoals = 1;
    cr_assert_eq(ff_scenario_parse(HEAD "goal-change stop\n"
                                   "class w\n radius 0.3\n speed 1\n follow\nend\n"
                                   "at 7 goal w 5,4\n"
                                   "at 3 goal w 9,2 2,1\n"
                                   "at 9 goal agent 5 1,1\n"
                                   "at 9 goal w 2,1 9,2\n"
                                   "at 12 goal w 10,4\n"
                                   "agent 5 w 4.5,1.5\nagent 2 w 4.5,2.5\n",
                                   "t", &g, &s, &err), FF_OK, "%s", err.msg);
    cr_expect_eq(s.goal_change_stop, 1);
    cr_assert_eq(s.ngoal_events, 5);
    cr_expect(s.goal_event[0].tick == 3 && s.goal_event[0].ncells == 2 &&
              s.goal_event[0].cell[0] == 1 * 12 + 2 && s.goal_event[0].cell[1] == 2 * 12 + 9);
    cr_expect(s.goal_event[1].tick == 7 && s.goal_event[1].cell[0] == 4 * 12 + 5);
    /* Line order within tick 9: the agent's first. */
    cr_expect(s.goal_event[2].tick == 9 && s.goal_event[2].agent == 1 &&
              s.goal_event[2].agent_id == 5 && s.goal_event[2].cls == 0 &&
              s.goal_event[2].cell[0] == 1 * 12 + 1);
    cr_expect_eq(s.goal_event[0].version, 1);
    cr_expect_eq(s.goal_event[1].version, 2);
    cr_expect_eq(s.goal_event[3].version, 1, "the same set in another order");
    cr_expect_eq(s.goal_event[4].version, 0, "back to the goals it started with");
    cr_expect_eq(s.cls[0].goal_events, 4);
    ff_scenario_free(&s);
    cr_assert_eq(ff_scenario_parse(HEAD, "t", &g, &s, &err), FF_OK, "%s", err.msg);
    cr_expect(s.ngoal_events == 0 && s.goal_change_stop == 0, "default: none, keep");
    ff_scenario_free(&s);
    ff_grid_free(&g);
}

ParameterizedTest(struct bad_case *b, scenario, refused)
{
    ff_grid g;
    ff_scenario s;
    ff_error err;

    test_grid(&g);
    ff_error_clear(&err);
    cr_assert_eq(ff_scenario_parse(b->text, "bad.scenario", &g, &s, &err), FF_EINPUT,
                 "accepted: %s", b->text);
    cr_expect_str_eq(err.file, "bad.scenario");
    cr_expect_eq(err.line, b->line, "line %ld, want %ld (%s)", err.line, b->line, err.msg);
    cr_expect_eq(err.col, b->col, "col %ld, want %ld (%s)", err.col, b->col, err.msg);
    cr_expect(strstr(err.msg, b->what) != NULL, "'%s' does not say '%s'", err.msg, b->what);
    cr_expect_eq(s.nagents, 0, "a refused scenario is left empty");
    cr_expect_null(s.agent);
    ff_grid_free(&g);
}

/* ---- unknown keywords: the near ones named ---- */

struct near_case {
    char text[120];
    long line, col;
    char what[200];
};

ParameterizedTestParameters(scenario, near_keywords)
{
    static struct near_case near_cases[] = {
    { HEAD "class w\n radius 0.3\n speed 1\n thresold 0.1\n follow\nend\n", 6, 2,
      "unknown behaviour 'thresold' (did you mean 'threshold'?)" },
    { HEAD "class w\n radius 0.3\n sped 1\n follow\nend\n", 5, 2,
      "unknown behaviour 'sped' (did you mean 'speed' or 'seek'?)" },
    { HEAD "class w\n radius 0.3\n speed 1\n folow\nend\n", 6, 2,
      "unknown behaviour 'folow' (did you mean 'follow'?)" },
    { HEAD "tikcs 5\n", 3, 1, "unknown keyword 'tikcs' (did you mean 'ticks' or 'tick'?)" },
    { HEAD "agnet 1 w 1,1\n", 3, 1, "unknown keyword 'agnet' (did you mean 'agent'?)" },
    { HEAD "rebuild-tick 5\n", 3, 1,
      "unknown keyword 'rebuild-tick' (did you mean 'rebuild-ticks' or 'rebuild'?)" },
    { HEAD "con on\n", 3, 1,
      "unknown keyword 'con' (did you mean 'congestion', 'congestion-weight', "
      "'congestion-threshold' or 'congestion-ticks'?)" },
    /* Nothing near: the whole list. */
    { HEAD "x 1\n", 3, 1, "unknown keyword 'x' (tick, ticks, arrive," },
    { HEAD "class w\n radius 0.3\n speed 1\n wander\nend\n", 6, 2,
      "unknown behaviour 'wander' (follow, separate," },
    };
    return cr_make_param_array(struct near_case, near_cases,
                               sizeof near_cases / sizeof *near_cases);
}

ParameterizedTest(struct near_case *b, scenario, near_keywords)
{
    ff_grid g;
    ff_scenario s;
    ff_error err;

    test_grid(&g);
    cr_assert_eq(ff_scenario_parse(b->text, "bad.scenario", &g, &s, &err), FF_EINPUT,
                 "accepted: %s", b->text);
    cr_expect_eq(err.line, b->line, "line %ld, want %ld (%s)", err.line, b->line, err.msg);
    cr_expect_eq(err.col, b->col, "col %ld, want %ld (%s)", err.col, b->col, err.msg);
    cr_expect(strncmp(err.msg, b->what, strlen(b->what)) == 0, "'%s' is not '%s'", err.msg,
              b->what);
    ff_grid_free(&g);
}

/* The keywords of man 5 ffsim: inside a class, and outside one. */
static const char *const class_keywords[] = {
    "follow", "separate", "avoid-walls", "seek", "radius", "speed", "accel", "turn",
    "threshold", "priority", "goal", "end",
};
static const char *const top_keywords[] = {
    "tick", "ticks", "arrive", "arrived", "passes", "class", "agent", "spawn", "at",
    "profiles", "rebuild-ticks", "rebuild", "fallback", "goal-change", "move", "reserve", "wait-limit",
    "congestion", "congestion-weight", "congestion-threshold", "congestion-ticks", "ffsim",
};

static int is_keyword(const char *w)
{
    size_t k;

    for (k = 0; k < sizeof class_keywords / sizeof *class_keywords; k++)
        if (strcmp(w, class_keywords[k]) == 0)
            return 1;
    for (k = 0; k < sizeof top_keywords / sizeof *top_keywords; k++)
        if (strcmp(w, top_keywords[k]) == 0)
            return 1;
    return 0;
}

/* Variant v of keyword w one edit away (v < 4 * strlen(w) + 1): a letter
 * deleted, two neighbours swapped, a letter replaced or one inserted. */
static int one_edit(const char *w, size_t v, char *out)
{
    size_t n = strlen(w), i = v % (n + 1);

    strcpy(out, w);
    switch (v / (n + 1)) {
    case 0:
        if (i == n)
            return 0;
        memmove(out + i, out + i + 1, n - i);
        return 1;
    case 1:
        if (i + 1 >= n)
            return 0;
        out[i] = w[i + 1];
        out[i + 1] = w[i];
        return 1;
    case 2:
        if (i == n)
            return 0;
        out[i] = 'q';
        return 1;
    default:
        memmove(out + i + 1, out + i, n - i + 1);
        out[i] = 'q';
        return 1;
    }
}

/* One edit from a keyword, a word that is no keyword is refused with the
 * keyword among the near ones, inside a class and outside one alike. */
static void check_one_edit(const char *const *words, size_t nwords, int in_class)
{
    size_t k, v, tried = 0;

    for (k = 0; k < nwords; k++) {
        if (strcmp(words[k], "ffsim") == 0 || (!in_class && strcmp(words[k], "end") == 0))
            continue;
        for (v = 0; v < 4 * (strlen(words[k]) + 1); v++) {
            char word[40], text[200], want[48];
            ff_grid g;
            ff_scenario s;
            ff_error err;
            if (!one_edit(words[k], v, word) || is_keyword(word))
                continue;
            snprintf(text, sizeof text,
                     in_class ? HEAD "class w\n radius 0.3\n speed 1\n %s 1\n follow\nend\n"
                              : HEAD "%s 1\n", word);
            snprintf(want, sizeof want, "'%s'", words[k]);
            test_grid(&g);
            cr_assert_eq(ff_scenario_parse(text, "t", &g, &s, &err), FF_EINPUT, "accepted '%s'",
                         word);
            cr_expect(strstr(err.msg, "did you mean") && strstr(strstr(err.msg, "did you mean"),
                                                                want),
                      "'%s': %s (want %s)", word, err.msg, want);
            ff_grid_free(&g);
            tried++;
        }
    }
    cr_assert_gt(tried, 100);
}

Test(scenario, one_edit_names_the_keyword)
{
    check_one_edit(class_keywords, sizeof class_keywords / sizeof *class_keywords, 1);
    check_one_edit(top_keywords, sizeof top_keywords / sizeof *top_keywords, 0);
}
