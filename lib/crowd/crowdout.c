/* crowdout.c - the crowd's trace and summary writers (man 1 ffsim). */
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
    if (c->profiles && (c->scenario->profiles || c->scenario->nevents || c->scenario->move)) {
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

ff_status ff_crowd_write_summary(FILE *f, const ff_crowd_summary *sum,
                                 double steps_per_second, ff_error *err)
{
    const ff_crowd_stats *st = &sum->stats;
    size_t k;

    fprintf(f, "agents %zu\n", sum->agents);
    fprintf(f, "spawned %zu\n", sum->spawned);
    fprintf(f, "arrived %zu\n", sum->arrived);
    for (k = 0; k < sum->ngoal_groups; k++) {
        const int32_t *b = &sum->group_box[4 * k];
        fprintf(f, "goal_arrivals %d,%d,%d,%d %zu\n", (int)b[0], (int)b[1], (int)b[2], (int)b[3],
                sum->group_arrived[k]);
    }
    if (sum->arrived) {
        fprintf(f, "arrival_tick_median %.1f\n", sum->arrival_median);
        fprintf(f, "arrival_tick_p95 %lld\n", sum->arrival_p95);
    } else {
        fprintf(f, "arrival_tick_median -\n");
        fprintf(f, "arrival_tick_p95 -\n");
    }
    fprintf(f, "stuck %zu\n", sum->stuck);
    fprintf(f, "remaining %zu\n", sum->remaining);
    fprintf(f, "unreachable %zu\n", sum->unreachable);
    fprintf(f, "wall_penetrations %llu\n", st->wall_penetrations);
    fprintf(f, "max_overlap %.4f\n", st->max_overlap);
    fprintf(f, "heading_jitter %.4f\n", st->jitter_moves ? st->jitter_sum / (double)st->jitter_moves : 0.0);
    fprintf(f, "group_fallbacks %llu\n", st->group_fallbacks);
    fprintf(f, "escapes %llu\n", st->escapes);
    fprintf(f, "field_builds %llu\n", sum->field_builds);
    fprintf(f, "field_bytes %llu\n", sum->field_bytes);
    fprintf(f, "field_cache_hits %llu\n", sum->field_cache_hits);
    fprintf(f, "congestion_refreshes %llu\n", sum->congestion_refreshes);
    fprintf(f, "stale_ticks %llu\n", st->stale_ticks);
    fprintf(f, "fallbacks %llu\n", st->fallbacks);
    fprintf(f, "reservation_waits %llu\n", st->reservation_waits);
    fprintf(f, "deadlocks %llu\n", st->deadlocks);
    fprintf(f, "deadlocked %zu\n", sum->deadlocked);
    fprintf(f, "sweep_failures %llu\n", st->sweep_failures);
    fprintf(f, "queue_wait %llu\n", st->queue_wait);
    fprintf(f, "complement_searches %llu\n", st->complement_searches);
    fprintf(f, "complement_failures %llu\n", st->complement_failures);
    fprintf(f, "complement_nodes %llu\n", st->complement_nodes);
    fprintf(f, "complement_ticks %llu\n", st->complement_ticks);
    fprintf(f, "direction_lookups %.4f\n",
            sum->agents ? (double)st->direction_lookups / (double)sum->agents : 0.0);
    fprintf(f, "makespan %lld\n", sum->makespan);
    fprintf(f, "sum_of_costs %lld\n", sum->sum_of_costs);
    fprintf(f, "tick_overruns %llu\n", sum->tick_overruns);
    fprintf(f, "ticks %lld\n", sum->ticks);
    fprintf(f, "over %lld\n", sum->over);
    fprintf(f, "agent_steps %llu\n", st->agent_steps);
    if (steps_per_second >= 0) {
        fprintf(f, "rebuild_seconds %.6f\n", sum->rebuild_seconds);
        fprintf(f, "congestion_seconds %.6f\n", sum->congestion_seconds);
        fprintf(f, "run_seconds %.6f\n", sum->run_seconds);
        fprintf(f, "agent_steps_per_second %.0f\n", steps_per_second);
    }
    if (ferror(f))
        return ff_error_set(err, FF_EIO, NULL, 0, 0, "write error");
    return FF_OK;
}
