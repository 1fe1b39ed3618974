/* crowdout.c - the crowd's trace and summary writers (man 1 ffsim). */
#include <math.h>
#include <string.h>

#include "crowd.h"
#include "crowdint.h"
#include "realfmt.h"

/* ---- output ---- */

/* What ends a run early, for the trace's last line. */
static const char *over_why(int over)
{
    switch (over) {
    case FF_OVER_ARRIVED: return "every agent arrived";
    case FF_OVER_STOPPED: return "every agent arrived or has no way to a goal";
    case FF_OVER_STANDOFF: return "every agent arrived, is stuck or is deadlocked";
    default: return "no sequence of moves brings the agents away to their goals";
    }
}

ff_status ff_crowd_write_over(FILE *f, const ff_crowd *c, ff_error *err)
{
    if (!c->over)
        return FF_OK;
    fprintf(f, "# tick %lld over: %s\n", c->tick, over_why(c->over));
    if (ferror(f))
        return ff_error_set(err, FF_EIO, NULL, 0, 0, "write error");
    return FF_OK;
}

/* Round to the printed precision so that -0.00001 prints as 0.0000. */
static double tidy(double v, double unit)
{
    return fabs(v) < 0.5 * unit ? 0 : v;
}

ff_status ff_crowd_write_header(FILE *f, const ff_crowd *c, ff_error *err)
{
    fprintf(f, "# ffsim trace: tick id x y vx vy heading radius state\n");
    fprintf(f, "# tick_dt %.9g ticks %lld direction %s agents %zu\n", c->scenario->tick_dt,
            c->scenario->ticks, c->smooth ? "smooth" : "raw", c->nagents);
    if (c->profiles && (c->scenario->profiles || c->scenario->nevents || c->scenario->move ||
                        c->scenario->ngoal_events)) {
        size_t k;
        for (k = 0; k < c->profiles->nprofiles; k++)
            fprintf(f, "# field %zu radius %.9g id %016llx\n", k, c->profiles->profile[k].radius,
                    (unsigned long long)c->profiles->profile[k].id);
    }
    if (c->congested)
        fprintf(f, "# congestion weight %.9g threshold %.9g ticks %lld\n", c->congestion.weight,
                c->congestion.threshold, c->congestion.period);
    if (ferror(f))
        return ff_error_set(err, FF_EIO, NULL, 0, 0, "write error");
    return FF_OK;
}

/* The trace's line of goal change e: "# tick T goal CLASS X,Y ..." or
 * "# tick T goal agent ID X,Y", as the scenario says it. */
static void write_goal_event(FILE *f, const ff_scenario *s, uint32_t grid_w,
                             const ff_goal_event *e)
{
    int j;

    if (e->agent >= 0)
        fprintf(f, "# tick %lld goal agent %u", e->tick, e->agent_id);
    else
        fprintf(f, "# tick %lld goal %s", e->tick, s->cls[e->cls].name);
    for (j = 0; j < e->ncells; j++)
        fprintf(f, " %u,%u", e->cell[j] % grid_w, e->cell[j] / grid_w);
    fputc('\n', f);
}

/* Append the decimal digits of v at p; returns the end. */
static char *put_uint(char *p, unsigned long long v)
{
    char digits[24];
    int n = 0;

    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0);
    while (n > 0)
        *p++ = digits[--n];
    return p;
}

/* Append " " and v with prec (up to 4) decimals, as printf's " %.Nf"
 * (realfmt.h): at most FF_FIXED_TEXT_MAX bytes. */
static char *put_fixed(char *p, double v, int prec)
{
    *p++ = ' ';
    return p + ff_format_fixed(v, prec, p, FF_FIXED_TEXT_MAX);
}

ff_status ff_crowd_write_tick(FILE *f, const ff_crowd *c, ff_error *err)
{
    size_t k;

    if (c->profiles) {
        const ff_scenario *s = c->scenario;
        for (k = 0; k < s->nevents; k++)
            if (s->event[k].tick == c->tick)
                fprintf(f, "# tick %lld %s %d,%d,%d,%d\n", c->tick, s->event[k].close ? "close" : "open",
                        (int)s->event[k].x0, (int)s->event[k].y0, (int)s->event[k].x1, (int)s->event[k].y1);
        for (k = 0; k < s->ngoal_events; k++)
            if (s->goal_event[k].tick == c->tick)
                write_goal_event(f, s, (uint32_t)c->grid->w, &s->goal_event[k]);
        for (k = 0; k < c->profiles->nprofiles; k++) {
            const ff_profile *p = &c->profiles->profile[k];
            if (c->tick > 0 && p->published_tick == c->tick)
                fprintf(f, "# tick %lld field %zu radius %.9g id %016llx published\n", c->tick, k,
                        p->radius, (unsigned long long)p->id);
        }
    }
    for (k = 0; k < c->nagents; k++) {
        /* "%lld %u %.4f %.4f %.4f %.4f %.2f %.4f %s\n", put together
         * without printf (a tenth of its time): the tick, the id, x, y,
         * vx, vy, the heading, the radius, the state. */
        char line[64 + 7 * FF_FIXED_TEXT_MAX], *p = line;
        const ff_agent *a = &c->agent[k];
        const char *state;
        double heading;
        size_t len;
        if (!present(a) && !(a->state == FF_AGENT_GONE && a->arrival_tick == c->tick))
            continue;
        heading = atan2(a->hy, a->hx) * (180 / PI);
        if (heading < 0)
            heading += 360;
        if (heading >= 359.995)
            heading = 0;
        if (c->tick < 0)
            *p++ = '-';
        p = put_uint(p, c->tick < 0 ? 0 - (unsigned long long)c->tick : (unsigned long long)c->tick);
        *p++ = ' ';
        p = put_uint(p, a->id);
        p = put_fixed(p, tidy(a->x, 1e-4), 4);
        p = put_fixed(p, tidy(a->y, 1e-4), 4);
        p = put_fixed(p, tidy(a->vx, 1e-4), 4);
        p = put_fixed(p, tidy(a->vy, 1e-4), 4);
        p = put_fixed(p, tidy(heading, 1e-2), 2);
        p = put_fixed(p, c->scenario->cls[a->cls].radius, 4);
        *p++ = ' ';
        state = ff_agent_state_name(a->state);
        len = strlen(state);
        memcpy(p, state, len);
        p += len;
        *p++ = '\n';
        fwrite(line, 1, (size_t)(p - line), f);
    }
    if (ferror(f))
        return ff_error_set(err, FF_EIO, NULL, 0, 0, "write error");
    return FF_OK;
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

ff_status ff_crowd_summarise(const ff_crowd *c, ff_crowd_summary *sum, ff_error *err)
{
    long long *ticks = malloc((c->nagents ? c->nagents : 1) * sizeof *ticks);
    size_t k, n = 0;

    if (!ticks)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the summary");
    memset(sum, 0, sizeof *sum);
    sum->ngoal_groups = c->goal_groups.ngroups;
    sum->group_arrived = c->group_arrived;
    sum->group_box = c->goal_groups.box;
    if (c->congested) {
        sum->congestion_refreshes = c->congestion.refreshes;
        sum->congestion_seconds = c->congestion.seconds;
    }
    sum->agents = c->nagents;
    sum->stats = c->stats;
    sum->ticks = c->tick < 0 ? 0 : c->tick;
    sum->unreachable = c->unreachable;
    sum->makespan = c->makespan;
    sum->over = c->over ? c->tick : -1;
    sum->sum_of_costs = -1;
    if (c->nagents && c->on_goal == c->nagents) {
        sum->sum_of_costs = 0;
        for (k = 0; k < c->nagents; k++)
            sum->sum_of_costs += c->agent[k].arrival_tick;
    }
    if (c->profiles) {
        sum->field_builds = c->profiles->builds + c->goals.builds;
        sum->field_bytes = c->profiles->build_bytes + c->goals.build_bytes;
        sum->field_cache_hits = c->profiles->cache_hits;
        sum->goal_changes = c->goalchanges.changes + c->own_goal_changes;
        sum->goal_cache_hits = c->goalchanges.cache_hits + c->own_goal_hits;
        sum->rebuild_seconds = c->profiles->rebuild_seconds_max;
    }
    for (k = 0; k < c->nagents; k++) {
        const ff_agent *a = &c->agent[k];
        if (a->state != FF_AGENT_UNBORN)
            sum->spawned++;
        if (a->arrival_tick >= 0)
            ticks[n++] = a->arrival_tick;
        else if (a->state == FF_AGENT_STUCK)
            sum->stuck++;
        else if (a->state == FF_AGENT_DEADLOCKED)
            sum->deadlocked++;
        else if (present(a))
            sum->remaining++;
    }
    sum->arrived = n;
    qsort(ticks, n, sizeof *ticks, cmp_ll);
    if (n == 0) {
        sum->arrival_median = NAN;
        sum->arrival_p95 = -1;
    } else {
        size_t rank = (95 * n + 99) / 100;  /* nearest rank: ceil(0.95 n) */
        sum->arrival_median = n % 2 ? (double)ticks[n / 2]
                                    : 0.5 * ((double)ticks[n / 2 - 1] + (double)ticks[n / 2]);
        sum->arrival_p95 = ticks[rank - 1];
    }
    free(ticks);
    return FF_OK;
}

/* The summary's writer: "key value" lines, or one JSON object of the
 * same keys in the same order (numbers as numbers, "-" as null). */
typedef struct {
    FILE *f;
    int json;
    int keys;   /* written so far */
} summary_out;

static void put_key(summary_out *o, const char *name)
{
    if (o->json)
        fprintf(o->f, "%s\"%s\": ", o->keys ? ",\n  " : "{\n  ", name);
    else
        fprintf(o->f, "%s ", name);
    o->keys++;
}

static void put_end(summary_out *o)
{
    if (!o->json)
        putc('\n', o->f);
}

static void put_count(summary_out *o, const char *name, unsigned long long v)
{
    put_key(o, name);
    fprintf(o->f, "%llu", v);
    put_end(o);
}

static void put_tick(summary_out *o, const char *name, long long v)
{
    put_key(o, name);
    fprintf(o->f, "%lld", v);
    put_end(o);
}

/* A value there is none of: "-", null. */
static void put_none(summary_out *o, const char *name)
{
    put_key(o, name);
    fputs(o->json ? "null" : "-", o->f);
    put_end(o);
}

/* v with decimals places (none when it is not finite). */
static void put_real(summary_out *o, const char *name, int decimals, double v)
{
    if (!isfinite(v)) {
        put_none(o, name);
        return;
    }
    put_key(o, name);
    fprintf(o->f, "%.*f", decimals, v);
    put_end(o);
}

static ff_status write_summary(FILE *f, const ff_crowd_summary *sum, double steps_per_second,
                               int json, ff_error *err)
{
    const ff_crowd_stats *st = &sum->stats;
    summary_out o = { f, json, 0 };
    size_t k;

    put_count(&o, "agents", sum->agents);
    put_count(&o, "spawned", sum->spawned);
    put_count(&o, "arrived", sum->arrived);
    if (json)
        put_key(&o, "goal_arrivals");
    for (k = 0; k < sum->ngoal_groups; k++) {
        const int32_t *b = &sum->group_box[4 * k];
        if (json)
            fprintf(f, "%s{\"box\": [%d, %d, %d, %d], \"arrived\": %zu}", k ? ", " : "[",
                    (int)b[0], (int)b[1], (int)b[2], (int)b[3], sum->group_arrived[k]);
        else
            fprintf(f, "goal_arrivals %d,%d,%d,%d %zu\n", (int)b[0], (int)b[1], (int)b[2],
                    (int)b[3], sum->group_arrived[k]);
    }
    if (json)
        fputs(sum->ngoal_groups ? "]" : "[]", f);
    if (sum->arrived) {
        put_real(&o, "arrival_tick_median", 1, sum->arrival_median);
        put_tick(&o, "arrival_tick_p95", sum->arrival_p95);
    } else {
        put_none(&o, "arrival_tick_median");
        put_none(&o, "arrival_tick_p95");
    }
    put_count(&o, "stuck", sum->stuck);
    put_count(&o, "remaining", sum->remaining);
    put_count(&o, "unreachable", sum->unreachable);
    put_count(&o, "wall_penetrations", st->wall_penetrations);
    put_real(&o, "max_overlap", 4, st->max_overlap);
    put_real(&o, "heading_jitter", 4,
             st->jitter_moves ? st->jitter_sum / (double)st->jitter_moves : 0.0);
    put_count(&o, "group_fallbacks", st->group_fallbacks);
    put_count(&o, "escapes", st->escapes);
    put_count(&o, "field_builds", sum->field_builds);
    put_count(&o, "field_bytes", sum->field_bytes);
    put_count(&o, "field_cache_hits", sum->field_cache_hits);
    put_count(&o, "goal_changes", sum->goal_changes);
    put_count(&o, "goal_cache_hits", sum->goal_cache_hits);
    put_count(&o, "congestion_refreshes", sum->congestion_refreshes);
    put_count(&o, "stale_ticks", st->stale_ticks);
    put_count(&o, "fallbacks", st->fallbacks);
    put_count(&o, "reservation_waits", st->reservation_waits);
    put_count(&o, "deadlocks", st->deadlocks);
    put_count(&o, "deadlocked", sum->deadlocked);
    put_count(&o, "sweep_failures", st->sweep_failures);
    put_count(&o, "queue_wait", st->queue_wait);
    put_count(&o, "complement_searches", st->complement_searches);
    put_count(&o, "complement_failures", st->complement_failures);
    put_count(&o, "complement_nodes", st->complement_nodes);
    put_count(&o, "complement_ticks", st->complement_ticks);
    put_real(&o, "direction_lookups", 4,
             sum->agents ? (double)st->direction_lookups / (double)sum->agents : 0.0);
    put_tick(&o, "makespan", sum->makespan);
    put_tick(&o, "sum_of_costs", sum->sum_of_costs);
    put_count(&o, "tick_overruns", sum->tick_overruns);
    put_tick(&o, "ticks", sum->ticks);
    put_tick(&o, "over", sum->over);
    put_count(&o, "agent_steps", st->agent_steps);
    if (steps_per_second >= 0) {
        put_real(&o, "rebuild_seconds", 6, sum->rebuild_seconds);
        put_real(&o, "congestion_seconds", 6, sum->congestion_seconds);
        put_real(&o, "run_seconds", 6, sum->run_seconds);
        put_real(&o, "agent_steps_per_second", 0, steps_per_second);
    }
    if (json)
        fputs("\n}\n", f);
    if (ferror(f))
        return ff_error_set(err, FF_EIO, NULL, 0, 0, "write error");
    return FF_OK;
}

ff_status ff_crowd_write_summary(FILE *f, const ff_crowd_summary *sum,
                                 double steps_per_second, ff_error *err)
{
    return write_summary(f, sum, steps_per_second, 0, err);
}

ff_status ff_crowd_write_summary_json(FILE *f, const ff_crowd_summary *sum,
                                      double steps_per_second, ff_error *err)
{
    return write_summary(f, sum, steps_per_second, 1, err);
}
