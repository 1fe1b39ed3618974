/* update.c - a field brought up to date with a change list; see update.h. */
#include "update.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "search.h"

/* Add (cell, cost) to the list *ch of *n (room *cap); -1 when out of
 * memory. */
static int add(ff_cell_change **ch, size_t *n, size_t *cap, size_t cell, float cost)
{
    if (*n == *cap) {
        ff_cell_change *p = ff_grow(*ch, cap, *n + 1, sizeof *p, 64);
        if (!p)
            return -1;
        *ch = p;
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

/* The first goal of g among cells first..last (sorted goals: a binary
 * search), or SIZE_MAX. */
static size_t goal_between(const ff_grid *g, size_t first, size_t last)
{
    size_t lo = ff_grid_goal_lower_bound(g, 0, first);

    return lo < g->ngoals && g->goals[lo] <= last ? g->goals[lo] : SIZE_MAX;
}

/* The first goal (row-major) in x0..x1, y0..y1 of g, or SIZE_MAX: the
 * rows searched, or the goals walked when they are fewer than the rows. */
static size_t goal_in(const ff_grid *g, int x0, int y0, int x1, int y1)
{
    size_t w = (size_t)g->w, k, goal;
    int y;

    if (g->ngoals < (size_t)(y1 - y0 + 1)) {
        for (k = 0; k < g->ngoals; k++) {
            size_t x = g->goals[k] % w, gy = g->goals[k] / w;
            if (x >= (size_t)x0 && x <= (size_t)x1 && gy >= (size_t)y0 && gy <= (size_t)y1)
                return g->goals[k];
        }
        return SIZE_MAX;
    }
    for (y = y0; y <= y1; y++)
        if ((goal = goal_between(g, (size_t)y * w + (size_t)x0, (size_t)y * w + (size_t)x1)) != SIZE_MAX)
            return goal;
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

/* Paint cells x0..x1 of the row starting at cell row with now, those not
 * painted yet, marking them painted. */
static void paint_row(float *cost, uint32_t *next, size_t row, uint32_t x0, uint32_t x1,
                      uint32_t w, float now)
{
    uint32_t x;

    for (x = unpainted(next, row, x0, w); x <= x1; x = unpainted(next, row, x + 1, w)) {
        cost[row + x] = now;
        next[row + x] = x + 1;
    }
}

/* Paint the changes of l from the last back (only the cost changes when
 * costs_only), each cell not yet painted taking the first that covers
 * it: the last in the file's order. */
static void paint_from_last(const ff_change_list *l, float *cost, uint32_t *next, uint32_t w,
                            int costs_only)
{
    size_t k;

    for (k = l->n; k-- > 0;) {
        const ff_map_change *c = &l->change[k];
        long long y;
        if (costs_only && c->kind != FF_CHANGE_COST)
            continue;
        for (y = c->y0; y <= c->y1; y++)
            paint_row(cost, next, (size_t)y * w, (uint32_t)c->x0, (uint32_t)c->x1, w,
                      c->kind == FF_CHANGE_CLOSE ? INFINITY : c->cost);
    }
}

/* A count of closed cells by rectangle that takes cells as they close:
 * a two-dimensional Fenwick tree (t[y * w + x] over the usual ranges). */
typedef struct {
    uint32_t *t;
    uint32_t w, h;
} closed_count;

static int closed_count_init(closed_count *c, const float *cost, uint32_t w, uint32_t h)
{
    uint32_t x, y;

    c->w = w;
    c->h = h;
    if (!(c->t = malloc((size_t)w * h * sizeof *c->t)))
        return -1;
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
            c->t[(size_t)y * w + x] = !(cost[(size_t)y * w + x] <= 3.4e38f);
    /* Built in place, row by row and then column by column. */
    for (y = 0; y < h; y++)
        for (x = 1; x <= w; x++)
            if (x + (x & -x) <= w)
                c->t[(size_t)y * w + x + (x & -x) - 1] += c->t[(size_t)y * w + x - 1];
    for (y = 1; y <= h; y++)
        if (y + (y & -y) <= h)
            for (x = 0; x < w; x++)
                c->t[(size_t)(y + (y & -y) - 1) * w + x] += c->t[(size_t)(y - 1) * w + x];
    return 0;
}

static void closed_count_add(closed_count *c, uint32_t x, uint32_t y)
{
    uint32_t i, j;

    for (i = y + 1; i <= c->h; i += i & -i)
        for (j = x + 1; j <= c->w; j += j & -j)
            c->t[(size_t)(i - 1) * c->w + j - 1]++;
}

/* Closed cells in columns < x, rows < y. */
static uint64_t closed_before(const closed_count *c, uint32_t x, uint32_t y)
{
    uint64_t sum = 0;
    uint32_t i, j;

    for (i = y; i > 0; i -= i & -i)
        for (j = x; j > 0; j -= j & -j)
            sum += c->t[(size_t)(i - 1) * c->w + j - 1];
    return sum;
}

static uint64_t closed_in(const closed_count *c, const ff_map_change *ch)
{
    uint32_t x0 = (uint32_t)ch->x0, y0 = (uint32_t)ch->y0, x1 = (uint32_t)ch->x1 + 1,
             y1 = (uint32_t)ch->y1 + 1;

    return closed_before(c, x1, y1) - closed_before(c, x0, y1) - closed_before(c, x1, y0) +
           closed_before(c, x0, y0);
}

/* The costs the list l leaves on g, without a clearance radius (nothing
 * then depends on the changes before: a change is refused for its own
 * cells alone), into cost (g's costs on entry).  The changes are checked
 * in order, then painted from the last, each cell once: work is the map's
 * cells and the changes' rows, however many changes cover a cell. */
static ff_status paint_plain(const ff_grid *g, const ff_change_list *l, const char *name,
                             float *cost, ff_error *err)
{
    size_t ncells = (size_t)g->w * (size_t)g->h, i, k, goal;
    uint32_t *next;

    for (k = 0; k < l->n; k++) {
        const ff_map_change *c = &l->change[k];
        if (leaves(g, c, name, err))
            return FF_EINPUT;
        if (c->kind == FF_CHANGE_CLOSE &&
            (goal = goal_in(g, (int)c->x0, (int)c->y0, (int)c->x1, (int)c->y1)) != SIZE_MAX)
            return ff_error_set(err, FF_EINPUT, name, c->line, c->col, "the change closes goal %zu,%zu",
                                goal % (size_t)g->w, goal / (size_t)g->w);
    }
    if (!(next = malloc((ncells ? ncells : 1) * sizeof *next)))
        return ff_error_set(err, FF_ENOMEM, name, 0, 0, "out of memory for the changes");
    for (i = 0; i < ncells; i++)
        next[i] = (uint32_t)(i % (size_t)g->w);
    paint_from_last(l, cost, next, (uint32_t)g->w, 0);
    free(next);
    return FF_OK;
}

/* The cells a closed rectangle closes besides its own in a map cleared
 * for radius: ext[dy] is the most cells beside the rectangle, on a row dy
 * rows above or below it, whose centers are nearer than the radius to it
 * (-1: none), dy from 0 to *rows.  NULL when out of memory. */
static int *clearance_extents(const ff_grid *g, int *rows)
{
    int64_t reach = ff_clearance_reach(g, g->radius);
    int d = (int)(reach < g->w ? reach : g->w), dy, *ext;

    *rows = (int)(reach < g->h ? reach : g->h);
    if (!(ext = malloc(((size_t)*rows + 1) * sizeof *ext)))
        return NULL;
    for (dy = 0; dy <= *rows; dy++) {
        /* Nearness depends on the cells between: the rectangle 0,0,0,0. */
        while (d >= 0 && !ff_grid_near_cells(g, g->radius, -d, -dy, 0, 0, 0, 0))
            d--;
        ext[dy] = d;
    }
    return ext;
}

/* The costs the list l leaves on g, cleared for a radius, into cost (g's
 * costs on entry).  A closed cell stays closed (a cost for it is
 * refused), so each change is checked against the cells closed so far,
 * counted by rectangle; a close closes the rows of its rectangle grown by
 * the radius (ext: clearance_extents), each cell once; then the costs are
 * painted from the last change back on the cells left open.  Work: the
 * map's cells and the changes' rows, each with a search of the goals. */
static ff_status paint_cleared(const ff_grid *g, const ff_change_list *l, const char *name,
                               float *cost, ff_error *err)
{
    uint32_t w = (uint32_t)g->w;
    size_t ncells = (size_t)g->w * (size_t)g->h, i, k, goal;
    closed_count closed = { NULL, 0, 0 };
    uint32_t *next = malloc((ncells ? ncells : 1) * sizeof *next);
    int rows, *ext = clearance_extents(g, &rows);
    ff_status st = FF_OK;

    if (!next || !ext || closed_count_init(&closed, cost, w, (uint32_t)g->h) < 0) {
        st = ff_error_set(err, FF_ENOMEM, name, 0, 0, "out of memory for the changes");
        goto done;
    }
    for (i = 0; i < ncells; i++)  /* a closed cell counts as painted */
        next[i] = (uint32_t)(i % w) + !ff_grid_open(g, i);
    for (k = 0; k < l->n && st == FF_OK; k++) {
        const ff_map_change *c = &l->change[k];
        int bx0, by0, bx1, by1, y;
        if (leaves(g, c, name, err)) {
            st = FF_EINPUT;
            break;
        }
        if (c->kind == FF_CHANGE_COST) {
            if (closed_in(&closed, c) > 0) {
                /* The first closed cell, as a walk of the rectangle finds
                 * it: once, since it ends the list. */
                for (i = (size_t)c->y0 * w + (size_t)c->x0; cost[i] <= 3.4e38f;)
                    i = (int64_t)(i % w) < c->x1 ? i + 1 : (i / w + 1) * w + (size_t)c->x0;
                st = ff_error_set(err, FF_EINPUT, name, c->line, c->col,
                                  "cell %zu,%zu is closed in a map cleared for radius %g: opening it "
                                  "needs the map before the clearance (build again from it)",
                                  i % w, i / w, g->radius);
            }
            continue;
        }
        ff_grid_clip_box(g, c->x0, c->y0, c->x1, c->y1, rows, &bx0, &by0, &bx1, &by1);
        for (y = by0; y <= by1 && st == FF_OK; y++) {
            int dy = y < c->y0 ? (int)c->y0 - y : y > c->y1 ? y - (int)c->y1 : 0;
            int64_t ex0 = c->x0 - ext[dy], ex1 = c->x1 + ext[dy];
            size_t row = (size_t)y * w;
            if (ext[dy] < 0 && dy > 0)
                continue;
            ex0 = ex0 < 0 ? 0 : ex0;
            ex1 = ex1 >= g->w ? g->w - 1 : ex1;
            if ((goal = goal_between(g, row + (size_t)ex0, row + (size_t)ex1)) != SIZE_MAX) {
                int inside = dy == 0 && (int64_t)(goal - row) >= c->x0 && (int64_t)(goal - row) <= c->x1;
                st = ff_error_set(err, FF_EINPUT, name, c->line, c->col,
                                  "the change closes goal %zu,%d%s", goal - row, y,
                                  inside ? "" : " (by the clearance radius)");
                break;
            }
            for (i = unpainted(next, row, (uint32_t)ex0, w); i <= (size_t)ex1;
                 i = unpainted(next, row, (uint32_t)i + 1, w)) {
                cost[row + i] = INFINITY;
                next[row + i] = (uint32_t)i + 1;
                closed_count_add(&closed, (uint32_t)i, (uint32_t)y);
            }
        }
    }
    if (st == FF_OK)
        paint_from_last(l, cost, next, w, 1);
done:
    free(closed.t);
    free(ext);
    free(next);
    return st;
}

/* The list's region is most of the map (more cells changed than a repair
 * may touch before it gives up, a sixteenth: repair.h): the costs taken
 * whole and the field searched whole, without the repair's lists of the
 * steps before. */
static ff_status rebuild(ff_field *f, float *cost, size_t nchanged, ff_repair_stats *s,
                         ff_error *err)
{
    free(f->grid.cost);
    f->grid.cost = cost;
    memset(s, 0, sizeof *s);
    s->changed = nchanged;
    s->rebuilt = 1;
    return ff_search(&f->grid, f->distance, err);
}

ff_status ff_field_apply_changes(ff_field *f, const ff_change_list *l, const char *name,
                                 ff_repair *r, ff_repair_stats *total, ff_error *err)
{
    ff_grid *g = &f->grid;
    float *cost;
    size_t ncells = (size_t)g->w * (size_t)g->h, cap = 0, nmerged = 0, nchanged = 0, i;
    ff_cell_change *ch = NULL;
    ff_repair_stats s;
    ff_status st = FF_OK;

    /* The list's costs on a working copy (each cell painted once), then
     * one repair of the cells whose cost differs at the end: n changes of
     * the whole map cost one repair, not n; and one search of the whole
     * map when they cover more of it than a repair would touch. */
    if (!(cost = malloc((ncells ? ncells : 1) * sizeof *cost)))
        return ff_error_set(err, FF_ENOMEM, name, 0, 0, "out of memory for the changes");
    memcpy(cost, g->cost, ncells * sizeof *cost);
    st = g->radius > 0 ? paint_cleared(g, l, name, cost, err)
                       : paint_plain(g, l, name, cost, err);
    for (i = 0; st == FF_OK && i < ncells; i++)
        nchanged += memcmp(&cost[i], &g->cost[i], sizeof *cost) != 0;
    if (st == FF_OK && nchanged > ncells / 16 + 64) {
        st = rebuild(f, cost, nchanged, &s, err);
        cost = NULL;
    } else if (st == FF_OK) {
        for (i = 0; st == FF_OK && i < ncells; i++)
            if (memcmp(&cost[i], &g->cost[i], sizeof *cost) != 0 &&
                add(&ch, &nmerged, &cap, i, cost[i]) < 0)
                st = ff_error_set(err, FF_ENOMEM, name, 0, 0, "out of memory for the changes");
        if (st == FF_OK)
            st = ff_repair_field(r, g, f->distance, ch, nmerged, &s, err);
    }
    if (st != FF_OK && err && !err->file[0]) {
        char msg[sizeof err->msg];
        memcpy(msg, err->msg, sizeof msg);
        ff_error_set(err, st, name, 0, 0, "%s", msg);
    }
    free(cost);
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
