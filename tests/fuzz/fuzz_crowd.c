/* fuzz_crowd.c - libFuzzer target: ffsim's tick (ff_crowd_step) on fuzzed
 * scenarios, against a fixed 16x8 map with walls, spawn tiles and a goal
 * (cells of 1 or 0.7, smoothed or raw directions, by the input's length),
 * through the profiles as ffsim runs it (map events, own paths, cell
 * moves).  Each scenario runs twice, one tick at a time: once as large
 * crowds run (contacts from the steering's candidates, the end of the
 * tick in the hash's order), once finding the contacts afresh and ending
 * in index order.  The two must agree bit for bit on every agent after
 * every tick, and on the summary.  Regression: tiny_radius_fast.scen, a
 * radius of 0.001 at speed 110000000 along the walls (100,000 substeps a
 * move, before a move was cut to FF_SLIDE_SUBSTEPS_MAX of them).
 * needs: lib/crowd/crowd.c
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>

#include "crowd.h"
#include "crowdint.h"
#include "mapread.h"
#include "profiles.h"
#include "scenario.h"
#include "walls.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char map_text[] =
    "ffmap 1\n"
    "legend # wall\n"
    "legend . 1\n"
    "legend S spawn 1\n"
    "legend G goal 1\n"
    "map\n"
    "################\n"
    "#SSS...........#\n"
    "#SSS...##......#\n"
    "#SSS...##......#\n"
    "#......##....G.#\n"
    "#SSS...........#\n"
    "#SSS...........#\n"
    "################\n";

/* The map, with cells of 1 (k 0) or of 0.7 (k 1, where the step's exact
 * cell shortcut does not apply), origin 0 or -2.5,1.25. */
static const ff_grid *the_map(int k)
{
    static ff_grid g[2];
    static int ready;

    if (!ready) {
        fuzz_fixed_map(map_text, &g[0]);
        fuzz_fixed_map(map_text, &g[1]);
        g[1].cell_size = 0.7;
        g[1].origin_x = -2.5;
        g[1].origin_y = 1.25;
        ready = 1;
    }
    return &g[k];
}

/* Scenarios this large or long take too long a run to fuzz well. */
#define MAX_AGENTS 400
#define MAX_TICKS 60
/* Nor do ones whose agents would take more wall-sliding substeps than
 * this in all (each agent's ticks times its class's substeps a move, at
 * most FF_SLIDE_SUBSTEPS_MAX): the coverage counters make a substep some
 * 40 times slower than in ffsim, and each input runs twice.  A scenario
 * of 921,600 substeps (120 agents of radius 0.101 at speed 110000000, 30
 * ticks) takes 0.3 s in ffsim but passed the 10 s timeout here. */
#define MAX_SUBSTEPS 100000.0

/* The substeps the agents of s would take at most, moving every tick. */
static double slide_work(const ff_scenario *s, const ff_grid *g)
{
    double work = 0;
    size_t k;

    for (k = 0; k < s->nagents; k++) {
        const ff_agent_class *c = &s->cls[s->agent[k].cls];
        double sub = 0.5 * (c->radius < g->cell_size ? c->radius : g->cell_size);
        double most = ((double)g->w + (double)g->h) * g->cell_size + 2 * c->radius;
        double move = c->max_speed * s->tick_dt, n;
        if (move > most)
            move = most;
        n = ceil(move / sub);
        if (!(n <= FF_SLIDE_SUBSTEPS_MAX))
            n = FF_SLIDE_SUBSTEPS_MAX;
        if (s->agent[k].spawn_tick <= s->ticks)
            work += n * (double)(s->ticks - s->agent[k].spawn_tick + 1);
    }
    return work;
}

static void same_agents(const ff_crowd *a, const ff_crowd *b)
{
    size_t i;

    FUZZ_CHECK(a->nagents == b->nagents && a->tick == b->tick);
    for (i = 0; i < a->nagents; i++) {
        const ff_agent *p = &a->agent[i], *q = &b->agent[i];
        FUZZ_CHECK(same_bits(p->x, q->x) && same_bits(p->y, q->y));
        FUZZ_CHECK(same_bits(p->vx, q->vx) && same_bits(p->vy, q->vy));
        FUZZ_CHECK(same_bits(p->hx, q->hx) && same_bits(p->hy, q->hy));
        FUZZ_CHECK(p->state == q->state && p->arrival_tick == q->arrival_tick);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The input's length picks the map and raw or smoothed directions. */
    const ff_grid *g = the_map((int)(size & 1));
    int smooth = (size & 2) == 0;
    ff_scenario s;
    ff_profiles pa, pb;
    ff_crowd a, b;
    ff_crowd_summary sa, sb;
    ff_error err;
    char *text;
    ff_status st;

    if (size > 4096 || memchr(data, '\0', size))
        return 0;
    text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    st = ff_scenario_parse(text, "fuzz", g, &s, &err);
    free(text);
    if (st != FF_OK)
        return 0;
    if (s.nagents > MAX_AGENTS || s.ticks > MAX_TICKS || !(slide_work(&s, g) <= MAX_SUBSTEPS) ||
        ff_profiles_init(&pa, &s, g, "fuzz", &err) != FF_OK) {
        ff_scenario_free(&s);
        return 0;
    }
    if (ff_profiles_init(&pb, &s, g, "fuzz", &err) != FF_OK)
        abort();  /* the same call just worked */
    if (ff_crowd_init_profiles(&a, &s, &pa, smooth, &err) != FF_OK) {
        ff_profiles_free(&pa);
        ff_profiles_free(&pb);
        ff_scenario_free(&s);
        return 0;
    }
    if (ff_crowd_init_profiles(&b, &s, &pb, smooth, &err) != FF_OK)
        abort();
    a.end_by_hash_min = 0;
    b.fresh_contacts = 1;
    while (a.tick < s.ticks) {
        ff_status s1 = ff_crowd_step(&a, &err), s2 = ff_crowd_step(&b, &err);
        FUZZ_CHECK(s1 == FF_OK && s2 == FF_OK);
        same_agents(&a, &b);
        FUZZ_CHECK(a.ncontacts == b.ncontacts);
        FUZZ_CHECK(a.ncontacts == 0 || memcmp(a.contact, b.contact, 2 * a.ncontacts * sizeof *a.contact) == 0);
    }
    FUZZ_CHECK(ff_crowd_summarise(&a, &sa, &err) == FF_OK && ff_crowd_summarise(&b, &sb, &err) == FF_OK);
    FUZZ_CHECK(sa.arrived == sb.arrived && sa.stats.wall_penetrations == sb.stats.wall_penetrations);
    FUZZ_CHECK(same_bits(sa.stats.max_overlap, sb.stats.max_overlap));
    FUZZ_CHECK(same_bits(sa.stats.jitter_sum, sb.stats.jitter_sum));
    ff_crowd_free(&a);
    ff_crowd_free(&b);
    ff_profiles_free(&pa);
    ff_profiles_free(&pb);
    ff_scenario_free(&s);
    return 0;
}
