/* test_rest.c - agents at rest in cell-to-cell moves with reservations
 * ('move grid', 'reserve on', 'arrived stay', own goals, 'plan-effort 0':
 * the online rule): the grant's short turn of an agent standing on its
 * own goal that nobody pushes (pibt.c) must give what PIBT's whole turn
 * gives.  Each crowd runs twice
 * side by side, once with every turn whole (struct ff_pibt's full_turns):
 * every agent's position, velocity, heading and state equal, bit for bit,
 * every tick, and the counters the summary reports equal at the end.
 * The crowds are made so that the short turn's limits are crossed:
 * arrived agents pushed off their goals by agents of an earlier class
 * (the order is by class first, so they may be pushed before or after
 * their turn), wide agents among them, agents whose disk is not within a
 * cell (their sweeps measured), diagonal steps past corners, and map
 * events that close and open goal cells under agents standing on them. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>

#include "crowd.h"
#include "crowdint.h"
#include "pibt.h"
#include "profiles.h"

/* What a run of rest_compare saw. */
typedef struct {
    unsigned long long rest_turns; /* short turns (the crowd with them) */
    size_t pushed;                 /* times an arrived agent was moved off */
    size_t arrived;                /* agents arrived at the end */
    long long makespan;
    long long tick;                /* the last tick run */
    int over;                      /* why it ended (FF_OVER_*), 0: ticks */
} rest_seen;

/* Run the scenario text on the map of rows (w x h, '#' walls, moves,
 * corners; the class goal, w / 2, h / 2, unused by own goals) both ways, checking
 * every tick; *seen what the short turns' crowd saw. */
static void rest_compare(int w, int h, const char *rows, int moves, ff_corners corners, const char *text,
                         rest_seen *seen)
{
    ff_grid g;
    ff_scenario s;
    ff_profiles p[2];
    ff_crowd c[2];
    ff_crowd_summary sum[2];
    ff_error err;
    int v, k, was[256];

    tu_make_grid(&g, w, h, rows, corners);
    g.moves = moves;
    cr_assert_eq(ff_grid_add_goal(&g, w / 2, h / 2, "t", 0, 0, &err), FF_OK);
    cr_assert_eq(ff_scenario_parse(text, "t.scenario", &g, &s, &err), FF_OK, "%s", err.msg);
    cr_assert_lt(s.nagents, 256);
    for (v = 0; v < 2; v++) {
        cr_assert_eq(ff_profiles_init(&p[v], &s, &g, "t", &err), FF_OK, "%s", err.msg);
        cr_assert_eq(ff_crowd_init_profiles(&c[v], &s, &p[v], 1, &err), FF_OK, "%s", err.msg);
    }
    c[1].pibt->full_turns = 1;
    memset(seen, 0, sizeof *seen);
    for (k = 0; k < (int)s.nagents; k++)
        was[k] = FF_AGENT_UNBORN;
    while (c[0].tick < s.ticks) {
        int over;
        for (v = 0; v < 2; v++)
            cr_assert_eq(ff_crowd_step(&c[v], &err), FF_OK, "%s", err.msg);
        for (k = 0; k < (int)s.nagents; k++) {
            const ff_agent *a = &c[0].agent[k], *b = &c[1].agent[k];
            cr_assert(a->x == b->x && a->y == b->y && a->vx == b->vx && a->vy == b->vy && a->hx == b->hx &&
                          a->hy == b->hy && a->state == b->state,
                      "tick %lld agent %u: %g,%g state %d, whole turns %g,%g state %d", c[0].tick, a->id, a->x,
                      a->y, a->state, b->x, b->y, b->state);
            seen->pushed += was[k] == FF_AGENT_ARRIVED && a->state != FF_AGENT_ARRIVED;
            was[k] = a->state;
        }
        cr_assert_eq(c[0].stats.direction_lookups, c[1].stats.direction_lookups, "tick %lld", c[0].tick);
        cr_assert_eq(c[0].stats.sweep_failures, c[1].stats.sweep_failures, "tick %lld", c[0].tick);
        cr_assert_eq(c[0].ndeadlocks, c[1].ndeadlocks, "tick %lld", c[0].tick);
        over = ff_crowd_check_over(&c[0]);
        cr_assert_eq(over, ff_crowd_check_over(&c[1]));
        if (over)
            break;
    }
    for (v = 0; v < 2; v++)
        cr_assert_eq(ff_crowd_summarise(&c[v], &sum[v], &err), FF_OK);
    cr_assert_eq(sum[0].arrived, sum[1].arrived);
    cr_assert_eq(sum[0].makespan, sum[1].makespan);
    cr_assert_eq(sum[0].sum_of_costs, sum[1].sum_of_costs);
    cr_assert_eq(sum[0].stats.queue_wait, sum[1].stats.queue_wait);
    cr_assert_eq(sum[0].stats.reservation_waits, sum[1].stats.reservation_waits);
    cr_assert_eq(sum[0].stats.deadlocks, sum[1].stats.deadlocks);
    cr_assert_eq(sum[0].stats.escapes, sum[1].stats.escapes);
    cr_assert_eq(sum[0].stats.wall_penetrations, sum[1].stats.wall_penetrations);
    cr_assert_eq(sum[0].stats.complement_searches, sum[1].stats.complement_searches);
    cr_assert_eq(sum[0].stats.complement_ticks, sum[1].stats.complement_ticks);
    cr_assert_eq(c[1].pibt->rest_turns, 0);
    seen->rest_turns = c[0].pibt->rest_turns;
    seen->arrived = sum[0].arrived;
    seen->makespan = sum[0].makespan;
    seen->tick = c[0].tick;
    seen->over = c[0].over;
    for (v = 0; v < 2; v++) {
        ff_crowd_free(&c[v]);
        ff_profiles_free(&p[v]);
    }
    ff_scenario_free(&s);
    ff_grid_free(&g);
}

/* Agents of class 'late' stand on their goals from the start along row
 * y of the map (cells 1..10); class 'first' crosses that row from
 * (x0, y0) and (x1, y1) to the far corners and must push them aside,
 * and they come back.  With 'late' of priority 1 they come after every
 * agent of 'first' and are pushed before their turns; with priority -1
 * they rest first and are walked round. */
static void crossing_text(char *text, size_t size, int late_priority, const char *late_radius,
                          const char *first_radius, int y, const char *first, const char *events)
{
    size_t len;
    int k;

    len = (size_t)snprintf(text, size,
                           "ffsim 1\nticks 200\nmove grid\nreserve on\narrived stay\nplan-effort 0\n%s"
                           "class late\n radius %s\n speed 1\n follow\n priority %d\nend\n"
                           "class first\n radius %s\n speed 1\n follow\n priority 0\nend\n",
                           events, late_radius, late_priority, first_radius);
    for (k = 0; k < 10; k++)
        len += (size_t)snprintf(text + len, size - len, "agent %d late %d.5,%d.5 goal %d,%d\n", k + 1, k + 1, y,
                                k + 1, y);
    len += (size_t)snprintf(text + len, size - len, "%s", first);
    cr_assert_lt(len, size);
}

/* A room with pillars; 'first' from the west end to the east end of row
 * 0 and back. */
static const char pillars[] = "............"
                              ".#.#.#.#.#.."
                              "............"
                              "..#.#.#.#.#."
                              "............";
static const char pillars_first[] = "agent 11 first 0.5,0.5 goal 11,0\nagent 12 first 0.5,2.5 goal 11,1\n"
                                    "agent 13 first 11.5,4.5 goal 0,0\nagent 14 first 11.5,2.5 goal 0,4\n";

Test(rest, arrived_agents_pushed_by_an_earlier_class_come_back)
{
    char text[4096];
    rest_seen seen;

    crossing_text(text, sizeof text, 1, "0.4", "0.4", 0, pillars_first, "");
    rest_compare(12, 5, pillars, 4, FF_CORNERS_STRICT, text, &seen);
    cr_expect_gt(seen.rest_turns, 300, "%llu short turns", seen.rest_turns);
    cr_expect_gt(seen.pushed, 3, "%zu pushes", seen.pushed);
    cr_expect_eq(seen.arrived, 14);
    cr_expect_geq(seen.makespan, 0);
}

/* Agents at rest whose turns come first: the others go round them. */
Test(rest, arrived_agents_of_an_earlier_class_are_walked_round)
{
    char text[4096];
    rest_seen seen;

    crossing_text(text, sizeof text, -1, "0.4", "0.4", 0, pillars_first, "");
    rest_compare(12, 5, pillars, 4, FF_CORNERS_STRICT, text, &seen);
    cr_expect_gt(seen.rest_turns, 300, "%llu short turns", seen.rest_turns);
    cr_expect_eq(seen.arrived, 14);
}

/* An open room of 12 x 7 cells. */
static const char room[] = "............"
                           "............"
                           "............"
                           "............"
                           "............"
                           "............"
                           "............";

/* Disks not within a cell (radius 0.5: a footprint of one cell, but the
 * sweeps measured) resting or pushing, and wide agents (radius 0.9:
 * three cells by three) pushing. */
Test(rest, arrived_agents_among_wide_ones_and_measured_sweeps)
{
    static const char wide_first[] = "agent 11 first 1.5,1.5 goal 10,5\nagent 12 first 10.5,1.5 goal 1,5\n"
                                     "agent 13 first 5.5,5.5 goal 6,1\n";
    char text[4096];
    rest_seen seen;

    crossing_text(text, sizeof text, 1, "0.5", "0.4", 0, pillars_first, "");
    rest_compare(12, 5, pillars, 4, FF_CORNERS_STRICT, text, &seen);  /* ('late' take whole turns) */
    cr_expect_gt(seen.pushed, 0, "%zu pushes", seen.pushed);
    crossing_text(text, sizeof text, 1, "0.4", "0.5", 0, pillars_first, "");
    rest_compare(12, 5, pillars, 4, FF_CORNERS_STRICT, text, &seen);
    cr_expect_gt(seen.rest_turns, 300, "%llu short turns", seen.rest_turns);
    cr_expect_gt(seen.pushed, 0, "%zu pushes", seen.pushed);
    crossing_text(text, sizeof text, 1, "0.4", "0.9", 3, wide_first, "");
    rest_compare(12, 7, room, 4, FF_CORNERS_STRICT, text, &seen);
    cr_expect_gt(seen.rest_turns, 300, "%llu short turns", seen.rest_turns);
    cr_expect_gt(seen.pushed, 3, "%zu pushes", seen.pushed);
}

/* A wide agent (radius 0.9: three cells by three) rests on its goal in
 * the middle of a room, its turns before the others': they never step
 * into its footprint (those right behind it stay there: its cells are not
 * in their fields). */
Test(rest, a_wide_agent_at_rest_keeps_its_whole_footprint)
{
    static const char text[] =
        "ffsim 1\nticks 60\nmove grid\nreserve on\narrived stay\nplan-effort 0\n"
        "class wide\n radius 0.9\n speed 1\n follow\n priority 0\nend\n"
        "class small\n radius 0.4\n speed 1\n follow\n priority 1\nend\n"
        "agent 1 wide 5.5,3.5 goal 5,3\n"
        "agent 2 small 1.5,3.5 goal 10,3\nagent 3 small 10.5,3.5 goal 1,3\n"
        "agent 4 small 5.5,0.5 goal 5,6\nagent 5 small 6.5,6.5 goal 4,0\n"
        "agent 6 small 0.5,2.5 goal 11,4\nagent 7 small 11.5,2.5 goal 0,4\n";
    rest_seen seen;

    rest_compare(12, 7, room, 4, FF_CORNERS_STRICT, text, &seen);
    cr_expect_gt(seen.rest_turns, 20, "%llu short turns", seen.rest_turns);
}

/* Eight moves: no field of hop counts, so no short turn, and the same
 * run. */
Test(rest, eight_move_maps_take_whole_turns)
{
    char text[4096];
    rest_seen seen;

    crossing_text(text, sizeof text, 1, "0.4", "0.4", 0, pillars_first, "");
    rest_compare(12, 5, pillars, 8, FF_CORNERS_STRICT, text, &seen);
    cr_expect_eq(seen.rest_turns, 0);
    cr_expect_gt(seen.pushed, 0, "%zu pushes", seen.pushed);
}

/* Map events close goal cells with agents resting on them, and open
 * them again; others close a pillar's neighbours (steps taken away). */
Test(rest, arrived_agents_under_map_events)
{
    char text[4096];
    rest_seen seen;

    crossing_text(text, sizeof text, 1, "0.4", "0.4", 0, pillars_first,
                  "rebuild-ticks 2\nat 3 close 2,0,3,0\nat 9 open 2,0,3,0\n"
                  "at 12 close 6,0,6,0\nat 14 close 8,1,8,1\nat 30 open 6,0,6,0\n");
    rest_compare(12, 5, pillars, 4, FF_CORNERS_STRICT, text, &seen);
    cr_expect_gt(seen.rest_turns, 300, "%llu short turns", seen.rest_turns);
    crossing_text(text, sizeof text, 1, "0.4", "0.4", 0, pillars_first, "at 1 close 4,0,5,0\nat 40 open 4,0,5,0\n");
    rest_compare(12, 5, pillars, 4, FF_CORNERS_STRICT, text, &seen);
    cr_expect_gt(seen.rest_turns, 300, "%llu short turns", seen.rest_turns);
}
