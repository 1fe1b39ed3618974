/* goalevent.c - the scenario's goal changes; see goalevent.h. */
#include "goalevent.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "options.h"

int ff_goal_insert(uint32_t *goals, int *n, uint32_t cell)
{
    int j;

    for (j = *n; j > 0 && goals[j - 1] > cell; j--)
        ;
    if (j > 0 && goals[j - 1] == cell)
        return 0;
    memmove(&goals[j + 1], &goals[j], (size_t)(*n - j) * sizeof *goals);
    goals[j] = cell;
    (*n)++;
    return 1;
}

/* The cell of word w, X,Y in whole numbers inside g and open, into
 * *cell.  FF_EINPUT. */
static ff_status want_cell(const ff_word *w, const ff_grid *g, const char *name, long line,
                           uint32_t *cell, ff_error *err)
{
    double xy[2];

    if (!ff_parse_reals(w->text, xy, 2) || xy[0] != floor(xy[0]) || xy[1] != floor(xy[1]))
        return ff_error_set(err, FF_EINPUT, name, line, w->col,
                            "goal '%.40s' is not one cell X,Y (whole numbers)", w->text);
    if (xy[0] < 0 || xy[1] < 0 || xy[0] >= g->w || xy[1] >= g->h)
        return ff_error_set(err, FF_EINPUT, name, line, w->col,
                            "goal %.40s is outside the map (%dx%d cells)", w->text, (int)g->w,
                            (int)g->h);
    *cell = (uint32_t)xy[1] * (uint32_t)g->w + (uint32_t)xy[0];
    if (!ff_grid_open(g, *cell))
        return ff_error_set(err, FF_EINPUT, name, line, w->col, "goal %.40s is on a wall", w->text);
    return FF_OK;
}

ff_status ff_goal_event_read(const ff_word *w, int n, long long tick, int32_t cls,
                             const ff_grid *g, const char *name, long line, ff_goal_event *e,
                             ff_error *err)
{
    int agent = cls < 0, k;
    long long id;
    ff_status st;

    memset(e, 0, sizeof *e);
    e->tick = tick;
    e->line = line;
    e->cls = cls;
    e->agent = -1;
    if (n < (agent ? 6 : 5))
        return ff_error_set(err, FF_EINPUT, name, line, w[0].col,
                            "at TICK goal needs CLASS X,Y [X,Y ...] or agent ID X,Y");
    if (agent) {
        if (ff_parse_int(w[4].text, 0, UINT32_MAX, &id) != 0)
            return ff_error_set(err, FF_EINPUT, name, line, w[4].col,
                                "agent id '%.40s' is not an integer in 0..4294967295", w[4].text);
        e->agent = 0;  /* (found once every agent is read) */
        e->agent_id = (uint32_t)id;
        e->col = w[4].col;
        if (n > 6)
            return ff_error_set(err, FF_EINPUT, name, line, w[6].col, "an agent has one goal cell");
    }
    for (k = agent ? 5 : 4; k < n; k++) {
        uint32_t cell = 0;
        if (e->ncells == FF_CLASS_GOALS_MAX)
            return ff_error_set(err, FF_EINPUT, name, line, w[k].col, "more than %d goals",
                                FF_CLASS_GOALS_MAX);
        if ((st = want_cell(&w[k], g, name, line, &cell, err)) != FF_OK)
            return st;
        if (!ff_goal_insert(e->cell, &e->ncells, cell))
            return ff_error_set(err, FF_EINPUT, name, line, w[k].col, "goal %.40s given twice",
                                w[k].text);
    }
    return FF_OK;
}

ff_status ff_goal_event_add(ff_goal_event **events, size_t *n, size_t *cap,
                            const ff_goal_event *e, const char *name, ff_error *err)
{
    size_t k;

    if (*n == *cap) {
        ff_goal_event *q = ff_grow(*events, cap, *n + 1, sizeof *q, 4);
        if (!q)
            return ff_error_set(err, FF_ENOMEM, name, e->line, 0, "out of memory for goal changes");
        *events = q;
    }
    /* Insertion keeps ascending ticks and line order within a tick. */
    for (k = *n; k > 0 && (*events)[k - 1].tick > e->tick; k--)
        (*events)[k] = (*events)[k - 1];
    (*events)[k] = *e;
    (*n)++;
    return FF_OK;
}

/* 1 when change e's cells are cells[0..n). */
static int same_cells(const ff_goal_event *e, const uint32_t *cells, size_t n)
{
    return (size_t)e->ncells == n && memcmp(e->cell, cells, n * sizeof *cells) == 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

ff_status ff_goal_events_version(ff_goal_event *events, size_t n, int32_t cls,
                                 const uint32_t *start, size_t nstart, ff_error *err)
{
    uint32_t *first = malloc((nstart ? nstart : 1) * sizeof *first), top = 0;
    size_t k, j;

    if (!first)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for goal changes");
    /* The goals it starts with as a set, ascending as a change's cells. */
    if (nstart)
        memcpy(first, start, nstart * sizeof *first);
    qsort(first, nstart, sizeof *first, cmp_u32);
    for (k = 0; k < n; k++) {
        ff_goal_event *e = &events[k];
        if (e->agent >= 0 || e->cls != cls)
            continue;
        if (same_cells(e, first, nstart)) {
            e->version = 0;
            continue;
        }
        /* The version of the first change to the same cells, or a new one. */
        for (j = 0; j < k; j++)
            if (events[j].agent < 0 && events[j].cls == cls &&
                same_cells(&events[j], e->cell, (size_t)e->ncells))
                break;
        e->version = j < k ? events[j].version : ++top;
    }
    free(first);
    return FF_OK;
}

uint8_t *ff_goal_events_mask(const ff_goal_event *events, size_t n, size_t cells)
{
    uint8_t *mask = calloc(cells + 1, 1);
    size_t k;
    int j;

    for (k = 0; mask && k < n; k++)
        for (j = 0; events[k].agent < 0 && j < events[k].ncells; j++)
            mask[events[k].cell[j]] = 1;
    return mask;
}
