/* fuzz_scenario.c - libFuzzer target: the ffsim scenario reader
 * (ff_scenario_read) against a fixed 10x5 map with walls, spawn tiles and
 * a goal.  There is no scenario writer to round-trip through; instead the
 * same bytes read from a string (ff_scenario_parse) must give the same
 * scenario bit for bit (the seeded spawn rules included), and a scenario
 * read must keep what scenario.h promises (goal changes too).
 * needs: lib/crowd/scenario/scenario.c
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>

#include "mapread.h"
#include "scenario.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char map_text[] =
    "ffmap 1\n"
    "legend # wall\n"
    "legend . 1\n"
    "legend S spawn 1\n"
    "legend G goal 1\n"
    "map\n"
    "##########\n"
    "#SS......#\n"
    "#SS..##..#\n"
    "#....##.G#\n"
    "##########\n";

static const ff_grid *the_map(void)
{
    static ff_grid g;
    static int ready;

    if (!ready) {
        fuzz_fixed_map(map_text, &g);
        ready = 1;
    }
    return &g;
}

static void check_scenario(const ff_scenario *s, const ff_grid *g)
{
    size_t k;
    int b;

    FUZZ_CHECK(s->tick_dt > 0 && isfinite(s->tick_dt));
    FUZZ_CHECK(s->ticks >= 0 && s->ticks <= FF_SCENARIO_TICKS_MAX);
    FUZZ_CHECK(s->arrive >= 0 && isfinite(s->arrive));
    FUZZ_CHECK(s->nagents <= FF_SCENARIO_AGENTS_MAX);
    for (k = 0; k < s->nclasses; k++) {
        const ff_agent_class *c = &s->cls[k];
        FUZZ_CHECK(memchr(c->name, '\0', sizeof c->name) != NULL);
        FUZZ_CHECK(c->radius > 0 && c->max_speed > 0 && c->max_accel > 0 && c->max_turn > 0);
        FUZZ_CHECK(c->nbehaviours >= 1 && c->nbehaviours <= FF_BEHAVIOURS_MAX);
        FUZZ_CHECK(c->ngroups >= 1 && c->ngroups <= c->nbehaviours);
        FUZZ_CHECK(c->group_start[0] == 0 && c->group_start[c->ngroups] == c->nbehaviours);
        for (b = 1; b < c->nbehaviours; b++)
            FUZZ_CHECK(c->behaviour[b - 1].priority <= c->behaviour[b].priority);
    }
    for (k = 0; k < s->ngoal_events; k++) {
        const ff_goal_event *e = &s->goal_event[k];
        FUZZ_CHECK(e->tick >= 1 && (k == 0 || s->goal_event[k - 1].tick <= e->tick));
        FUZZ_CHECK(e->cls >= 0 && (size_t)e->cls < s->nclasses);
        FUZZ_CHECK(e->ncells >= 1 && e->ncells <= FF_CLASS_GOALS_MAX);
        FUZZ_CHECK(e->agent < 0 || ((size_t)e->agent < s->nagents && e->ncells == 1 &&
                                    s->agent[e->agent].id == e->agent_id &&
                                    s->agent[e->agent].cls == e->cls));
        FUZZ_CHECK(e->agent >= 0 || s->cls[e->cls].goal_events > 0);
        for (b = 0; b < e->ncells; b++)
            FUZZ_CHECK(ff_grid_open(g, e->cell[b]) && (b == 0 || e->cell[b - 1] < e->cell[b]));
    }
    for (k = 0; k < s->nagents; k++) {
        const ff_agent_spec *a = &s->agent[k];
        FUZZ_CHECK(k == 0 || s->agent[k - 1].id < a->id);
        FUZZ_CHECK(a->cls >= 0 && (size_t)a->cls < s->nclasses);
        FUZZ_CHECK(a->x >= g->origin_x && a->x < g->origin_x + g->w * g->cell_size);
        FUZZ_CHECK(a->y >= g->origin_y && a->y < g->origin_y + g->h * g->cell_size);
        FUZZ_CHECK(a->spawn_tick >= 0);
    }
}

static void check_same(const ff_scenario *a, const ff_scenario *b)
{
    size_t k;

    FUZZ_CHECK(same_bits(a->tick_dt, b->tick_dt) && a->ticks == b->ticks);
    FUZZ_CHECK(same_bits(a->arrive, b->arrive) && a->stay == b->stay && a->passes == b->passes);
    FUZZ_CHECK(a->nclasses == b->nclasses && a->nagents == b->nagents);
    for (k = 0; k < a->nclasses; k++) {
        const ff_agent_class *x = &a->cls[k], *y = &b->cls[k];
        FUZZ_CHECK(strcmp(x->name, y->name) == 0 && x->nbehaviours == y->nbehaviours);
        FUZZ_CHECK(memcmp(x->behaviour, y->behaviour,
                          (size_t)x->nbehaviours * sizeof *x->behaviour) == 0);
    }
    for (k = 0; k < a->nagents; k++)
        FUZZ_CHECK(memcmp(&a->agent[k], &b->agent[k], sizeof a->agent[k]) == 0);
    FUZZ_CHECK(a->ngoal_events == b->ngoal_events && a->goal_change_stop == b->goal_change_stop);
    for (k = 0; k < a->ngoal_events; k++)
        FUZZ_CHECK(memcmp(&a->goal_event[k], &b->goal_event[k], sizeof a->goal_event[k]) == 0);
}

/* 1 when a line "spawn N ..." asks for more than 10000 agents.  Placing an
 * agent costs up to FF_SPAWN_TRIES draws (about 10 us without sanitizers),
 * so the 10 million agents a spawn rule may ask for take minutes to
 * place: linear, not a hang, but too slow to fuzz. */
static int asks_for_a_big_crowd(const uint8_t *data, size_t size)
{
    size_t i = 0;

    while (i < size) {
        size_t end = i;
        while (end < size && data[end] != '\n')
            end++;
        {
            size_t k = i;
            while (k < end && (data[k] == ' ' || data[k] == '\t'))
                k++;
            if (end - k > 6 && memcmp(data + k, "spawn", 5) == 0 &&
                (data[k + 5] == ' ' || data[k + 5] == '\t')) {
                char num[32];
                size_t n = 0;
                k += 5;
                while (k < end && (data[k] == ' ' || data[k] == '\t'))
                    k++;
                while (k < end && n + 1 < sizeof num && data[k] != ' ' && data[k] != '\t')
                    num[n++] = (char)data[k++];
                num[n] = '\0';
                if (strtod(num, NULL) > 10000)
                    return 1;
            }
        }
        i = end + 1;
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const ff_grid *g = the_map();
    FILE *f;
    ff_scenario s, t;
    ff_error err, err2;
    ff_status st, st2;
    char *text;

    if (asks_for_a_big_crowd(data, size))
        return 0;
    f = open_bytes(data, size);
    if (!f)
        abort();
    ff_error_clear(&err);
    st = ff_scenario_read(f, "fuzz", g, &s, &err);
    fclose(f);
    if (st != FF_OK) {
        FUZZ_CHECK(st == FF_EINPUT);
        FUZZ_CHECK(err.msg[0] != '\0' && !strchr(err.msg, '\n'));
    } else {
        check_scenario(&s, g);
    }
    /* A string cannot hold a NUL: compare the two readers without one. */
    if (!memchr(data, '\0', size)) {
        text = malloc(size + 1);
        if (!text)
            abort();
        memcpy(text, data, size);
        text[size] = '\0';
        ff_error_clear(&err2);
        st2 = ff_scenario_parse(text, "fuzz", g, &t, &err2);
        FUZZ_CHECK(st2 == st);
        if (st == FF_OK) {
            check_same(&s, &t);
            ff_scenario_free(&t);
        } else {
            if (strcmp(err.msg, err2.msg) != 0 || err.line != err2.line || err.col != err2.col)
                fprintf(stderr, "read: %ld:%ld: %s\nparse: %ld:%ld: %s\n", err.line, err.col,
                        err.msg, err2.line, err2.col, err2.msg);
            FUZZ_CHECK(strcmp(err.msg, err2.msg) == 0 && err.line == err2.line &&
                       err.col == err2.col);
        }
        free(text);
    }
    if (st == FF_OK)
        ff_scenario_free(&s);
    return 0;
}
