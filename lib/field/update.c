/* update.c - a field brought up to date with a change list; see update.h. */
#include "update.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Add (cell, cost) to the list *ch of *n (room *cap); -1 when out of
 * memory. */
static int add(ff_cell_change **ch, size_t *n, size_t *cap, size_t cell, float cost)
{
    if (*n == *cap) {
        size_t grown = *cap ? 2 * *cap : 64;
        ff_cell_change *p = realloc(*ch, grown * sizeof *p);
        if (!p)
            return -1;
        *ch = p;
        *cap = grown;
    }
    (*ch)[*n].cell = (uint32_t)cell;
    (*ch)[(*n)++].cost = cost;
    return 0;
}

/* 1, with err set, when the rectangle of change c leaves g. */
static int leaves(const ff_grid *g, const ff_map_change *c, const char *name, ff_error *err)
{
    if (c->x0 >= 0 && c->y0 >= 0 && c->x1 < g->w && c->y1 < g->h)
        return 0;
    ff_error_set(err, FF_EINPUT, name, c->line, c->col,
                 "rectangle %lld,%lld,%lld,%lld leaves the %dx%d map", c->x0, c->y0, c->x1, c->y1,
                 g->w, g->h);
    return 1;
}

/* The cell changes of change c on grid g into *ch; FF_EINPUT for a
 * change the field cannot take. */
static ff_status cell_changes(const ff_grid *g, const ff_map_change *c, const char *name,
                              ff_cell_change **ch, size_t *n, size_t *cap, ff_error *err)
{
    int x0 = (int)c->x0, y0 = (int)c->y0, x1 = (int)c->x1, y1 = (int)c->y1, x, y;
    int reach = c->kind == FF_CHANGE_CLOSE && g->radius > 0 ? ff_clearance_reach(g, g->radius) : 0;
    int bx0, by0, bx1, by1;

    *n = 0;
    if (leaves(g, c, name, err))
        return FF_EINPUT;
    ff_grid_clip_box(g, x0, y0, x1, y1, reach, &bx0, &by0, &bx1, &by1);
    for (y = by0; y <= by1; y++)
        for (x = bx0; x <= bx1; x++) {
            size_t i = (size_t)y * (size_t)g->w + (size_t)x;
            int inside = x >= x0 && x <= x1 && y >= y0 && y <= y1;
            if (c->kind == FF_CHANGE_COST) {
                if (g->radius > 0 && !ff_grid_open(g, i))
                    return ff_error_set(err, FF_EINPUT, name, c->line, c->col,
                                        "cell %d,%d is closed in a map cleared for radius %g: "
                                        "opening it needs the map before the clearance "
                                        "(build again from it)", x, y, g->radius);
                if (add(ch, n, cap, i, c->cost) < 0)
                    goto nomem;
                continue;
            }
            if (!inside && (!ff_grid_open(g, i) ||
                            !ff_grid_near_cells(g, g->radius, x, y, x0, y0, x1, y1)))
                continue;
            if (ff_grid_is_goal(g, (uint32_t)i))
                return ff_error_set(err, FF_EINPUT, name, c->line, c->col,
                                    "the change closes goal %d,%d%s", x, y,
                                    inside ? "" : " (by the clearance radius)");
            if (add(ch, n, cap, i, INFINITY) < 0)
                goto nomem;
        }
    return FF_OK;
nomem:
    return ff_error_set(err, FF_ENOMEM, name, c->line, 0, "out of memory for the changes");
}

/* The first goal (row-major) in x0..x1, y0..y1 of g, or SIZE_MAX.  The
 * goals are sorted: the rows are searched, or the goals walked when they
 * are fewer than the rows. */
static size_t goal_in(const ff_grid *g, int x0, int y0, int x1, int y1)
{
    size_t w = (size_t)g->w, k, lo, hi;
    int y;

    if (g->ngoals < (size_t)(y1 - y0 + 1)) {
        for (k = 0; k < g->ngoals; k++) {
            size_t x = g->goals[k] % w, gy = g->goals[k] / w;
            if (x >= (size_t)x0 && x <= (size_t)x1 && gy >= (size_t)y0 && gy <= (size_t)y1)
                return g->goals[k];
        }
        return SIZE_MAX;
    }
    for (y = y0; y <= y1; y++) {
        size_t first = (size_t)y * w + (size_t)x0;
        for (lo = 0, hi = g->ngoals; lo < hi;) {  /* the first goal >= first */
            size_t mid = lo + (hi - lo) / 2;
            if (g->goals[mid] < first)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < g->ngoals && g->goals[lo] <= (size_t)y * w + (size_t)x1)
            return g->goals[lo];
    }
    return SIZE_MAX;
}

/* The next cell at or after x of a row (its first cell row) not yet
 * painted, w when none: next[] is a forest per row, compressed as it is
 * walked. */
static uint32_t unpainted(uint32_t *next, size_t row, uint32_t x, uint32_t w)
{
    uint32_t root = x, up;

    while (root < w && next[row + root] != root)
        root = next[row + root];
    while (x < w && next[row + x] != x) {
        up = next[row + x];
        next[row + x] = root;
        x = up;
    }
    return root;
}

/* The costs the list l leaves on g, without a clearance radius (nothing
 * then depends on the changes before: a change is refused for its own
 * cells alone), into cost (g's costs on entry).  The changes are checked
 * in order, then painted from the last, each cell once: work is the map's
 * cells and the changes' rows, however many changes cover a cell. */
static ff_status paint_plain(const ff_grid *g, const ff_change_list *l, const char *name,
                             float *cost, ff_error *err)
{
    uint32_t w = (uint32_t)g->w, x;
    size_t ncells = (size_t)g->w * (size_t)g->h, i, k;
    uint32_t *next;

    for (k = 0; k < l->n; k++) {
        const ff_map_change *c = &l->change[k];
        size_t goal;
        if (leaves(g, c, name, err))
            return FF_EINPUT;
        if (c->kind == FF_CHANGE_CLOSE &&
            (goal = goal_in(g, (int)c->x0, (int)c->y0, (int)c->x1, (int)c->y1)) != SIZE_MAX)
            return ff_error_set(err, FF_EINPUT, name, c->line, c->col, "the change closes goal %zu,%zu",
                                goal % w, goal / w);
    }
    if (!(next = malloc((ncells ? ncells : 1) * sizeof *next)))
        return ff_error_set(err, FF_ENOMEM, name, 0, 0, "out of memory for the changes");
    for (i = 0; i < ncells; i++)
        next[i] = (uint32_t)(i % w);
    for (k = l->n; k-- > 0;) {
        const ff_map_change *c = &l->change[k];
        float now = c->kind == FF_CHANGE_CLOSE ? INFINITY : c->cost;
        long long y;
        for (y = c->y0; y <= c->y1; y++) {
            size_t row = (size_t)y * w;
            for (x = unpainted(next, row, (uint32_t)c->x0, w); x <= (uint32_t)c->x1;
                 x = unpainted(next, row, x + 1, w)) {
                cost[row + x] = now;
                next[row + x] = x + 1;
            }
        }
    }
    free(next);
    return FF_OK;
}

ff_status ff_field_apply_changes(ff_field *f, const ff_change_list *l, const char *name,
                                 ff_repair *r, ff_repair_stats *total, ff_error *err)
{
    ff_grid *g = &f->grid, work = *g;
    size_t ncells = (size_t)g->w * (size_t)g->h, n = 0, cap = 0, nmerged = 0, i, k;
    ff_cell_change *ch = NULL;
    ff_repair_stats s;
    ff_status st = FF_OK;

    /* The list's costs on a working copy, then one repair of the cells
     * whose cost differs at the end: n changes of the whole map cost one
     * repair (or one rebuild), not n.  With a clearance radius each change
     * is checked against the map the changes before it left, and walked
     * (its rectangle grown by the radius, clipped to the map); without
     * one, each cell is painted once. */
    if (!(work.cost = malloc((ncells ? ncells : 1) * sizeof *work.cost)))
        return ff_error_set(err, FF_ENOMEM, name, 0, 0, "out of memory for the changes");
    memcpy(work.cost, g->cost, ncells * sizeof *work.cost);
    if (!(g->radius > 0))
        st = paint_plain(g, l, name, work.cost, err);
    for (k = 0; g->radius > 0 && k < l->n && st == FF_OK; k++) {
        size_t j;
        if ((st = cell_changes(&work, &l->change[k], name, &ch, &n, &cap, err)) != FF_OK)
            break;
        for (j = 0; j < n; j++)
            work.cost[ch[j].cell] = ch[j].cost;
    }
    for (i = 0; st == FF_OK && i < ncells; i++)
        if (memcmp(&work.cost[i], &g->cost[i], sizeof *work.cost) != 0 &&
            add(&ch, &nmerged, &cap, i, work.cost[i]) < 0)
            st = ff_error_set(err, FF_ENOMEM, name, 0, 0, "out of memory for the changes");
    free(work.cost);
    if (st == FF_OK && (st = ff_repair_field(r, g, f->distance, ch, nmerged, &s, err)) != FF_OK &&
        err && !err->file[0]) {
        char msg[sizeof err->msg];
        memcpy(msg, err->msg, sizeof msg);
        ff_error_set(err, st, name, 0, 0, "%s", msg);
    }
    if (st == FF_OK && total) {
        total->changed += s.changed;
        total->raised += s.raised;
        total->settled += s.settled;
        total->moved += s.moved;
        total->rebuilt += s.rebuilt;
    }
    free(ch);
    if (st == FF_OK)
        ff_field_update_ids(f);
    return st;
}
