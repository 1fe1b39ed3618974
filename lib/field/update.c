/* update.c - a field brought up to date with a change list; see update.h. */
#include "update.h"

#include <math.h>
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

/* The cell changes of change c on grid g into *ch; FF_EINPUT for a
 * change the field cannot take. */
static ff_status cell_changes(const ff_grid *g, const ff_map_change *c, const char *name,
                              ff_cell_change **ch, size_t *n, size_t *cap, ff_error *err)
{
    int x0 = (int)c->x0, y0 = (int)c->y0, x1 = (int)c->x1, y1 = (int)c->y1, x, y;
    int reach = c->kind == FF_CHANGE_CLOSE && g->radius > 0 ? ff_clearance_reach(g, g->radius) : 0;
    int bx0, by0, bx1, by1;

    *n = 0;
    if (c->x0 < 0 || c->y0 < 0 || c->x1 >= g->w || c->y1 >= g->h)
        return ff_error_set(err, FF_EINPUT, name, c->line, c->col,
                            "rectangle %lld,%lld,%lld,%lld leaves the %dx%d map", c->x0, c->y0,
                            c->x1, c->y1, g->w, g->h);
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

ff_status ff_field_apply_changes(ff_field *f, const ff_change_list *l, const char *name,
                                 ff_repair *r, ff_repair_stats *total, ff_error *err)
{
    ff_grid *g = &f->grid, work = *g;
    size_t ncells = (size_t)g->w * (size_t)g->h, n = 0, cap = 0, nmerged = 0, i, k;
    ff_cell_change *ch = NULL;
    ff_repair_stats s;
    ff_status st = FF_OK;

    /* Each change is checked against the map as the changes before it
     * left it (a working copy of the costs), then the list is one repair
     * of the cells whose cost differs at the end: n changes of the whole
     * map cost one repair (or one rebuild), not n. */
    if (!(work.cost = malloc((ncells ? ncells : 1) * sizeof *work.cost)))
        return ff_error_set(err, FF_ENOMEM, name, 0, 0, "out of memory for the changes");
    memcpy(work.cost, g->cost, ncells * sizeof *work.cost);
    for (k = 0; k < l->n && st == FF_OK; k++) {
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
