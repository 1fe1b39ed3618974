/* fieldbudget.c - the fields of an ffsim run, counted before any is
 * built; see fieldbudget.h. */
#include "fieldbudget.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "goalchange.h"
#include "goalfield.h"
#include "profiles.h"

/* a * b, UINT64_MAX when that overflows. */
static uint64_t times(uint64_t a, uint64_t b)
{
    return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

static int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

/* The own goal fields: distinct (profile, goal cell) of the agents with
 * their own goal that enter by the last tick. */
static ff_status count_own_goals(const ff_scenario *s, const int32_t *class_profile,
                                 uint64_t *count, ff_error *err)
{
    uint64_t *key;
    size_t k, n = 0, distinct = 0;

    for (k = 0; k < s->nagents; k++)
        n += s->agent[k].goal >= 0 && s->agent[k].spawn_tick <= s->ticks;
    for (k = 0; k < s->ngoal_events; k++)
        n += s->goal_event[k].agent >= 0 && s->goal_event[k].tick <= s->ticks;
    *count = 0;
    if (n == 0)
        return FF_OK;
    if (!(key = malloc(n * sizeof *key)))
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory counting the goal fields");
    for (k = n = 0; k < s->nagents; k++)
        if (s->agent[k].goal >= 0 && s->agent[k].spawn_tick <= s->ticks)
            key[n++] = (uint64_t)(uint32_t)class_profile[s->agent[k].cls] << 32 |
                       (uint64_t)s->agent[k].goal;
    for (k = 0; k < s->ngoal_events; k++)  /* (an agent's goal changes) */
        if (s->goal_event[k].agent >= 0 && s->goal_event[k].tick <= s->ticks)
            key[n++] = (uint64_t)(uint32_t)class_profile[s->goal_event[k].cls] << 32 |
                       (uint64_t)s->goal_event[k].cell[0];
    qsort(key, n, sizeof *key, cmp_u64);
    for (k = 0; k < n; k++)
        distinct += k == 0 || key[k] != key[k - 1];
    free(key);
    *count = distinct;
    return FF_OK;
}

/* The fields the goal caches of s's classes may keep (goalchange.h): a
 * class's goal versions, at most FF_GOAL_CACHE_FIELDS (a turn-cost
 * field's headings counted as a field). */
static uint64_t goal_caches(const ff_scenario *s)
{
    uint64_t n = 0;
    size_t k, j;

    for (k = 0; k < s->nclasses; k++) {
        uint32_t versions = 1;  /* (0: the goals it starts with) */
        for (j = 0; j < s->ngoal_events; j++)
            if (s->goal_event[j].agent < 0 && s->goal_event[j].cls == (int32_t)k &&
                s->goal_event[j].version >= versions)
                versions = s->goal_event[j].version + 1;
        if (s->cls[k].goal_events)
            n += versions < FF_GOAL_CACHE_FIELDS ? versions : FF_GOAL_CACHE_FIELDS;
    }
    return n;
}

ff_status ff_field_budget_count(ff_field_budget *b, const ff_scenario *s, const ff_grid *stream,
                                int turn, ff_error *err)
{
    int32_t *class_profile = malloc((s->nclasses ? s->nclasses : 1) * sizeof *class_profile);
    size_t nprofiles = 0;
    ff_status st;

    memset(b, 0, sizeof *b);
    if (!class_profile)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory counting the fields");
    if ((st = ff_profiles_plan(s, stream, class_profile, &nprofiles, err)) != FF_OK ||
        (st = count_own_goals(s, class_profile, &b->own_goals, err)) != FF_OK) {
        free(class_profile);
        return st;
    }
    free(class_profile);
    b->w = stream->w;
    b->h = stream->h;
    b->field_cells = (uint64_t)stream->w * (uint64_t)stream->h;
    b->stream = turn ? 9 : 1;
    b->profiles = nprofiles;
    b->caches = s->nevents && !s->rebuild_full && !turn ? nprofiles : 0;
    b->caches += goal_caches(s);
    b->headings = turn ? 8 * (uint64_t)nprofiles + 8 : 0;
    b->congestion = s->congestion ? nprofiles + 1 : 0;
    b->fields = b->stream + b->profiles + b->caches + b->headings + b->own_goals + b->congestion;
    b->cells = times(b->fields, b->field_cells);
    b->own_goal_bytes = s->nevents ? times(b->field_cells, sizeof(double) + 1) : ff_goalfields_field_bytes(stream);
    {
        uint64_t rest = times(times(b->fields - b->own_goals, b->field_cells), FF_FIELD_CELL_BYTES);
        uint64_t own = times(b->own_goals, b->own_goal_bytes);
        b->bytes = own > UINT64_MAX - rest ? UINT64_MAX : rest + own;
    }
    return FF_OK;
}

/* Append ", NAME N" to the list at text when n is not 0. */
static void part(char *text, size_t size, const char *name, uint64_t n)
{
    size_t used = strlen(text);
    if (n && used < size)
        snprintf(text + used, size - used, "%s%s %llu", used ? ", " : "", name,
                 (unsigned long long)n);
}

ff_status ff_field_budget_check(const ff_field_budget *b, uint64_t max_bytes,
                                const char *scen_name, ff_error *err)
{
    char parts[256] = "", own[64] = "";

    if (max_bytes == 0)
        max_bytes = FF_SIM_MAX_MEMORY_DEFAULT;
    if (b->bytes <= max_bytes)
        return FF_OK;
    part(parts, sizeof parts, "stream", b->stream);
    part(parts, sizeof parts, "profiles", b->profiles);
    part(parts, sizeof parts, "caches", b->caches);
    part(parts, sizeof parts, "headings", b->headings);
    part(parts, sizeof parts, "own goals", b->own_goals);
    part(parts, sizeof parts, "congestion", b->congestion);
    if (b->own_goals)
        snprintf(own, sizeof own, ", own goals' %llu a field", (unsigned long long)b->own_goal_bytes);
    return ff_error_set(err, FF_EINPUT, scen_name, 0, 0,
                        "the run would build %llu fields of %dx%d cells (%s): %llu cells, %llu "
                        "bytes (%d a cell%s), over --max-memory %llu",
                        (unsigned long long)b->fields, (int)b->w, (int)b->h, parts,
                        (unsigned long long)b->cells, (unsigned long long)b->bytes,
                        FF_FIELD_CELL_BYTES, own, (unsigned long long)max_bytes);
}
