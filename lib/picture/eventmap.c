/* eventmap.c - the map and field of an animation frame; see eventmap.h. */
#include "eventmap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "direction.h"
#include "search.h"

void ff_eventmap_free(ff_eventmap *m)
{
    free(m->cost);
    free(m->closed);
    free(m->distance);
    free(m->direction);
    memset(m, 0, sizeof *m);
}

ff_status ff_eventmap_check(const ff_grid *g, const ff_trace_notes *notes, const char *name,
                            ff_error *err)
{
    size_t k;

    for (k = 0; k < notes->nevents; k++) {
        const ff_trace_event *e = &notes->event[k];
        if (e->kind != FF_TRACE_PUBLISHED &&
            (e->x0 < 0 || e->y0 < 0 || e->x1 >= g->w || e->y1 >= g->h || e->x0 > e->x1 ||
             e->y0 > e->y1))
            return ff_error_set(err, FF_EINPUT, name, e->line, 0,
                                "map event cells %lld,%lld,%lld,%lld are not a rectangle of the "
                                "%dx%d map (was the trace made on this field?)",
                                e->x0, e->y0, e->x1, e->y1, g->w, g->h);
    }
    return FF_OK;
}

ff_status ff_eventmap_init(ff_eventmap *m, const ff_field *f, const ff_trace_notes *notes,
                           int redraw_field, const char *name, ff_error *err)
{
    const ff_grid *g = &f->grid;
    size_t cells = (size_t)g->w * (size_t)g->h, k;
    int map_events = 0;
    ff_status st;

    memset(m, 0, sizeof *m);
    m->stream = f;
    m->notes = notes;
    m->now = *f;
    if ((st = ff_eventmap_check(g, notes, name, err)) != FF_OK)
        return st;
    for (k = 0; k < notes->nevents; k++)
        map_events |= notes->event[k].kind != FF_TRACE_PUBLISHED;
    if (!map_events)
        return FF_OK;
    if (redraw_field && f->turn)
        return ff_error_set(err, FF_EUSAGE, name, 0, 0,
                            "the trace has map events and the field has turn costs, whose "
                            "distances ffpng cannot search again: draw --layer map or cost");
    for (k = 0; k < notes->nfields; k++)
        m->follow_published |= notes->field_radius[k] == g->radius;
    if (!(m->cost = malloc(cells * sizeof *m->cost)) || !(m->closed = calloc(cells, 1)) ||
        (redraw_field && (!(m->distance = malloc(cells * sizeof *m->distance)) ||
                          !(m->direction = malloc(cells))))) {
        ff_eventmap_free(m);
        return ff_error_set(err, FF_ENOMEM, name, 0, 0, "out of memory for the map events");
    }
    memcpy(m->cost, g->cost, cells * sizeof *m->cost);
    m->now.grid.cost = m->cost;
    return FF_OK;
}

/* The costs of the map as the closed cells leave it: the stream's, +inf
 * for a closed cell and, under the stream's clearance radius, for a cell
 * whose center is nearer than the radius to one. */
static void close_cells(ff_eventmap *m)
{
    const ff_grid *g = &m->stream->grid;
    size_t cells = (size_t)g->w * (size_t)g->h, i;
    int reach = g->radius > 0 ? ff_clearance_reach(g, g->radius) : 0;

    memcpy(m->cost, g->cost, cells * sizeof *m->cost);
    for (i = 0; i < cells; i++) {
        int cx = (int)(i % (size_t)g->w), cy = (int)(i / (size_t)g->w), x, y;
        if (!m->closed[i])
            continue;
        m->cost[i] = INFINITY;
        for (y = cy - reach; y <= cy + reach; y++)
            for (x = cx - reach; x <= cx + reach; x++)
                if (x >= 0 && y >= 0 && x < g->w && y < g->h &&
                    ff_grid_near_cells(g, g->radius, x, y, cx, cy, cx, cy))
                    m->cost[(size_t)y * (size_t)g->w + (size_t)x] = INFINITY;
    }
}

/* Search the field again on the map as it is now. */
static ff_status search_again(ff_eventmap *m, ff_error *err)
{
    ff_status st = ff_search(&m->now.grid, m->distance, err);

    if (st == FF_OK)
        st = ff_direction_field(&m->now.grid, m->distance, m->direction, err);
    if (st == FF_OK) {
        m->now.distance = m->stream->distance ? m->distance : NULL;
        m->now.direction = m->stream->direction ? m->direction : NULL;
    }
    return st;
}

ff_status ff_eventmap_advance(ff_eventmap *m, double tick, int *changed, ff_error *err)
{
    const ff_grid *g = &m->stream->grid;
    int walls = 0, field = 0;

    *changed = 0;
    if (!m->cost)
        return FF_OK;
    for (; m->next < m->notes->nevents && m->notes->event[m->next].tick <= tick; m->next++) {
        const ff_trace_event *e = &m->notes->event[m->next];
        long long x, y;
        if (e->kind == FF_TRACE_PUBLISHED) {
            field |= m->follow_published && e->radius == g->radius;
            continue;
        }
        for (y = e->y0; y <= e->y1; y++)
            for (x = e->x0; x <= e->x1; x++)
                m->closed[(size_t)y * (size_t)g->w + (size_t)x] = e->kind == FF_TRACE_CLOSE;
        walls = 1;
        field |= !m->follow_published;
    }
    if (walls)
        close_cells(m);
    if (field && m->distance) {
        ff_status st = search_again(m, err);
        if (st != FF_OK)
            return st;
    }
    *changed = walls || (field && m->distance);
    return FF_OK;
}

const ff_field *ff_eventmap_field(const ff_eventmap *m)
{
    return &m->now;
}
