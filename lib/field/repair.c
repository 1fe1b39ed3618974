/* repair.c - distance fields repaired after map changes; see repair.h.
 *
 * Why the result is the full search's, bit for bit.  Write c(u,v) for the
 * cost of the step u -> v as ff_grid_step_cost() computes it (the search
 * computes it by the same operations) and fl(a + b) for a sum in doubles.
 * ff_search() gives D*, the least over the paths of the path's cost summed
 * from the goal; as fl(x + c) is monotone in x and not below x, D* is the
 * greatest D with D(goal) = 0 and D(u) <= fl(D(v) + c(u,v)) on every step
 * (a path's cost bounds D by induction from the goal).  The repair keeps
 * every value an upper bound of the new D* (a kept cell keeps a path of
 * kept cells down to a goal, of steps no dearer than before; any other
 * value is a sum along a real step) and ends with no step that would lower
 * a cell (every lowered cell relaxes the cells stepping into it; every
 * cell with a new or cheaper step, or given up, takes its best step).  An
 * upper bound of D* that satisfies the inequalities is D*.  So the order
 * of the lower phase does not change the result; Dijkstra's order only
 * makes it touch each cell about once.
 *
 * The marks of a cell (flag[]) are set during one repair and cleared at
 * its end through the touched list, so that a repair of a few cells costs
 * a few cells whatever the map's size; the per-cell arrays are allocated
 * zeroed once per map size (calloc: pages never touched cost nothing).
 */
#include "repair.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "direction.h"
#include "grow.h"
#include "minheap.h"
#include "search.h"

/* The marks of flag[]. */
enum {
    F_TOUCHED = 1,   /* on the touched list */
    F_QUEUED = 2,    /* a candidate of the raise phase */
    F_KEPT = 4,      /* the raise phase kept its distance */
    F_RAISED = 8,    /* the raise phase gave it up */
    F_MOVED = 16,    /* on the moved list */
    F_GOAL = 32,     /* a goal */
    F_PICK = 64      /* to be picked again (directions) */
};

/* The steps of a cell near a change (within one cell of a changed cell:
 * no other cell's steps can change), before and after. */
struct ff_repair_edges {
    uint32_t cell;
    uint8_t old_open;            /* 1 when it was open before */
    uint8_t old_mask, new_mask;  /* bit d: the step in direction d is legal */
    double old_cost[8], new_cost[8];
};

void ff_repair_init(ff_repair *r)
{
    memset(r, 0, sizeof *r);
}

void ff_repair_free(ff_repair *r)
{
    free(r->flag);
    free(r->slot);
    free(r->edge);
    free(r->touched);
    free(r->moved);
    if (r->queue) {
        heap_free(r->queue);
        free(r->queue);
    }
    ff_repair_init(r);
}

/* The lists of cells grow by doubling from this many. */
enum { LIST_MIN = 256 };

/* Set mark m on cell i, listing it to be cleared later; -1 when out of
 * memory. */
static int mark(ff_repair *r, size_t i, uint8_t m)
{
    if (!(r->flag[i] & F_TOUCHED)) {
        if (r->ntouched == r->touched_cap) {
            uint32_t *touched = ff_grow(r->touched, &r->touched_cap, r->ntouched + 1,
                                        sizeof *touched, LIST_MIN);
            if (!touched)
                return -1;
            r->touched = touched;
        }
        r->touched[r->ntouched++] = (uint32_t)i;
        r->flag[i] |= F_TOUCHED;
    }
    r->flag[i] |= m;
    return 0;
}

/* Clear every mark and slot of the repair, leaving the lists. */
static void clear_marks(ff_repair *r)
{
    size_t k;

    for (k = 0; k < r->ntouched; k++)
        r->flag[r->touched[k]] = 0;
    for (k = 0; k < r->nedge; k++)
        r->slot[r->edge[k].cell] = 0;
    r->ntouched = 0;
}

/* The legal steps of cell i on g now (bit d) and their costs. */
static unsigned steps_now(const ff_grid *g, size_t i, double cost[8])
{
    int x = (int)(i % (size_t)g->w), y = (int)(i / (size_t)g->w), d;
    unsigned m = 0;

    if (!ff_grid_open(g, i))
        return 0;
    for (d = 0; d < g->moves; d++)
        if (ff_grid_step_ok(g, x, y, d)) {
            m |= 1u << d;
            cost[d] = ff_grid_step_cost(g, i, d);
        }
    return m;
}

/* The steps of cell i before the change (old) or after it: stored for the
 * cells near a change, the grid's own elsewhere (unchanged there). */
static unsigned steps(const ff_repair *r, const ff_grid *g, size_t i, int old, double cost[8])
{
    int32_t s = r->slot[i];

    if (s) {
        const struct ff_repair_edges *e = &r->edge[s - 1];
        memcpy(cost, old ? e->old_cost : e->new_cost, 8 * sizeof *cost);
        return old ? e->old_mask : e->new_mask;
    }
    return steps_now(g, i, cost);
}

/* The step from cell i in direction d before the change (old) or after
 * it: 1 when legal, its cost in *cost. */
static int step_one(const ff_repair *r, const ff_grid *g, size_t i, int d, int old, double *cost)
{
    int32_t s = r->slot[i];

    if (s) {
        const struct ff_repair_edges *e = &r->edge[s - 1];
        *cost = old ? e->old_cost[d] : e->new_cost[d];
        return (old ? e->old_mask : e->new_mask) >> d & 1;
    }
    if (!ff_grid_step_ok(g, (int)(i % (size_t)g->w), (int)(i / (size_t)g->w), d))
        return 0;
    *cost = ff_grid_step_cost(g, i, d);
    return 1;
}

/* The cell the step from i in direction d enters. */
static inline size_t step_to(const ff_grid *g, size_t i, int d)
{
    return (size_t)((ptrdiff_t)i + (ptrdiff_t)ff_dir_dy[d] * g->w + ff_dir_dx[d]);
}

/* The cell stepping into i in direction d, or SIZE_MAX off the map. */
static inline size_t step_from(const ff_grid *g, size_t i, int d)
{
    int x = (int)(i % (size_t)g->w) - ff_dir_dx[d], y = (int)(i / (size_t)g->w) - ff_dir_dy[d];

    if (x < 0 || y < 0 || x >= g->w || y >= g->h)
        return SIZE_MAX;
    return (size_t)y * (size_t)g->w + (size_t)x;
}

/* Check the change list against g: cells inside, costs >= 0 or +inf, no
 * goal closed. */
static ff_status check_changes(const ff_grid *g, const ff_cell_change *ch, size_t nch,
                               const uint8_t *flag, ff_error *err)
{
    size_t n = (size_t)g->w * (size_t)g->h, k;

    for (k = 0; k < nch; k++) {
        uint32_t i = ch[k].cell;
        if (i >= n)
            return ff_error_set(err, FF_EINPUT, NULL, 0, 0,
                                "change of cell %lu outside the %dx%d map",
                                (unsigned long)i, g->w, g->h);
        if (!(ch[k].cost >= 0))
            return ff_error_set(err, FF_EINPUT, NULL, 0, 0,
                                "cell %u,%u: cost %g (want a number >= 0)",
                                i % (uint32_t)g->w, i / (uint32_t)g->w, (double)ch[k].cost);
        if (!(ch[k].cost <= 3.4e38f) && (flag[i] & F_GOAL))
            return ff_error_set(err, FF_EINPUT, NULL, 0, 0,
                                "cell %u,%u is a goal: a change may not close it",
                                i % (uint32_t)g->w, i / (uint32_t)g->w);
    }
    return FF_OK;
}

/* Give every cell within one cell of a changed one an edge entry with its
 * steps before the change; -1 when out of memory. */
static int note_old_steps(ff_repair *r, const ff_grid *g, const ff_cell_change *ch, size_t nch)
{
    size_t k;
    int dx, dy;

    for (k = 0; k < nch; k++) {
        int x = (int)(ch[k].cell % (uint32_t)g->w), y = (int)(ch[k].cell / (uint32_t)g->w);
        for (dy = -1; dy <= 1; dy++)
            for (dx = -1; dx <= 1; dx++) {
                size_t i;
                struct ff_repair_edges *e, *grown;
                if (x + dx < 0 || y + dy < 0 || x + dx >= g->w || y + dy >= g->h)
                    continue;
                i = (size_t)(y + dy) * (size_t)g->w + (size_t)(x + dx);
                if (r->slot[i])
                    continue;
                if (!(grown = ff_grow(r->edge, &r->edge_cap, r->nedge + 1, sizeof *grown,
                                      LIST_MIN)))
                    return -1;
                r->edge = grown;
                e = &r->edge[r->nedge++];
                e->cell = (uint32_t)i;
                e->old_open = (uint8_t)ff_grid_open(g, i);
                e->old_mask = (uint8_t)steps_now(g, i, e->old_cost);
                r->slot[i] = (int32_t)r->nedge;
            }
    }
    return 0;
}

/* 1 when the step u -> v (of cost c, from u at distance du to v at dv) is
 * on a shortest path: the search would have reached u through it. */
static inline int tight(double du, double dv, double c)
{
    return dv + c <= du;
}

/* Queue cell i for the raise phase at its old distance. */
static int raise_push(ff_repair *r, heap *q, size_t i, double d)
{
    if (r->flag[i] & (F_QUEUED | F_GOAL))
        return 0;
    if (mark(r, i, F_QUEUED) < 0 || heap_push(q, d, (uint32_t)i) < 0)
        return -1;
    return 0;
}

/* The raise phase (see repair.h): mark F_RAISED the cells whose old
 * distance no longer holds, in ascending old distance; dist is untouched.
 * Returns the work done (cells taken), or SIZE_MAX when out of memory or
 * past budget. */
static size_t raise_phase(ff_repair *r, const ff_grid *g, const double *dist, heap *q,
                          size_t budget)
{
    size_t k, work = 0;
    int d;

    /* The seeds: cells near a change with a shortest step lost or made
     * dearer, and open cells closed. */
    for (k = 0; k < r->nedge; k++) {
        const struct ff_repair_edges *e = &r->edge[k];
        size_t u = e->cell;
        int lost = !ff_grid_open(g, u);
        if (!e->old_open || !(dist[u] < INFINITY))
            continue;
        for (d = 0; d < 8 && !lost; d++)
            if ((e->old_mask >> d & 1) &&
                tight(dist[u], dist[step_to(g, u, d)], e->old_cost[d]) &&
                (!(e->new_mask >> d & 1) || e->new_cost[d] > e->old_cost[d]))
                lost = 1;
        if (lost && raise_push(r, q, u, dist[u]) < 0)
            return SIZE_MAX;
    }
    while (q->n > 0) {
        heap_item it = heap_pop(q);
        size_t u = it.cell;
        double du = dist[u], oc[8], nc[8];
        unsigned om = steps(r, g, u, 1, oc), nm;
        int kept = 0;
        /* Away from the changes a cell's steps are what they were. */
        if (r->slot[u])
            nm = steps(r, g, u, 0, nc);
        else {
            nm = om;
            memcpy(nc, oc, sizeof nc);
        }
        if (++work > budget)
            return SIZE_MAX;
        for (d = 0; d < 8 && !kept; d++) {
            size_t v;
            if (!(om >> d & 1) || !(nm >> d & 1) || nc[d] > oc[d])
                continue;
            v = step_to(g, u, d);
            if ((r->flag[v] & F_RAISED) || !tight(du, dist[v], oc[d]))
                continue;
            /* Support from a lower cell is final (it was taken before u,
             * or never needed to be); from a cell of the same distance
             * only once the phase has kept it. */
            kept = dist[v] < du || (r->flag[v] & F_KEPT);
        }
        if (kept) {
            r->flag[u] |= F_KEPT;
            continue;
        }
        r->flag[u] |= F_RAISED;
        /* The cells whose shortest steps enter u are candidates now. */
        for (d = 0; d < 8; d++) {
            size_t p = step_from(g, u, d);
            double pc;
            if (p == SIZE_MAX || !(dist[p] < INFINITY) || (r->flag[p] & (F_QUEUED | F_GOAL)))
                continue;
            if (step_one(r, g, p, d, 1, &pc) && tight(dist[p], du, pc) &&
                raise_push(r, q, p, dist[p]) < 0)
                return SIZE_MAX;
        }
    }
    return work;
}

/* Note that cell i's distance changed; -1 when out of memory. */
static int moved(ff_repair *r, size_t i)
{
    uint32_t *moved;

    if (r->flag[i] & F_MOVED)
        return 0;
    if (r->nmoved == r->moved_cap) {
        if (!(moved = ff_grow(r->moved, &r->moved_cap, r->nmoved + 1, sizeof *moved, LIST_MIN)))
            return -1;
        r->moved = moved;
    }
    r->moved[r->nmoved++] = (uint32_t)i;
    return mark(r, i, F_MOVED);
}

/* Cell u (open, not a goal) takes the best of its steps on the changed
 * map, and is queued when that lowers it. */
static int take_best_step(ff_repair *r, const ff_grid *g, double *dist, heap *q, size_t u)
{
    double c[8], best = dist[u];
    unsigned m = steps_now(g, u, c);
    int d;

    for (d = 0; d < 8; d++)
        if (m >> d & 1) {
            double to = dist[step_to(g, u, d)] + c[d];
            if (to < best)
                best = to;
        }
    if (!(best < dist[u]))
        return 0;
    dist[u] = best;
    if (moved(r, u) < 0 || heap_push(q, best, (uint32_t)u) < 0)
        return -1;
    return 0;
}

/* The lower phase: Dijkstra's algorithm over the changed map from the
 * cells queued.  Returns the cells settled, or SIZE_MAX when out of
 * memory or past budget. */
static size_t lower_phase(ff_repair *r, const ff_grid *g, double *dist, heap *q, size_t budget)
{
    size_t work = 0;
    int d;

    while (q->n > 0) {
        heap_item it = heap_pop(q);
        size_t v = it.cell;
        double dv = dist[v];
        if (it.key > dv)
            continue;  /* lowered again since */
        if (++work > budget)
            return SIZE_MAX;
        for (d = 0; d < g->moves; d++) {
            size_t p = step_from(g, v, d);
            double to;
            if (p == SIZE_MAX || !ff_grid_open(g, p) ||
                !ff_grid_step_ok(g, (int)(p % (size_t)g->w), (int)(p / (size_t)g->w), d))
                continue;
            to = dv + ff_grid_step_cost(g, p, d);
            if (!(to < dist[p]))
                continue;
            dist[p] = to;
            if (moved(r, p) < 0 || heap_push(q, to, (uint32_t)p) < 0)
                return SIZE_MAX;
        }
    }
    return work;
}

/* The per-cell arrays for a map of n cells. */
static ff_status ensure_cells(ff_repair *r, size_t n, ff_error *err)
{
    if (r->ncells == n && r->flag)
        return FF_OK;
    free(r->flag);
    free(r->slot);
    r->flag = calloc(n, 1);
    r->slot = calloc(n, sizeof *r->slot);
    r->ncells = r->flag && r->slot ? n : 0;
    if (!r->ncells)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for a repair of %zu cells",
                            n);
    if (!r->queue && !(r->queue = calloc(1, sizeof(heap))))
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for a repair");
    return FF_OK;
}

/* Search the whole map (when a repair would cost more). */
static ff_status rebuild(ff_repair *r, const ff_grid *g, double *dist, ff_error *err)
{
    r->rebuilt = 1;
    r->nmoved = 0;
    return ff_search(g, dist, err);
}

ff_status ff_repair_field(ff_repair *r, ff_grid *g, double *dist, const ff_cell_change *ch,
                          size_t nch, ff_repair_stats *stats, ff_error *err)
{
    size_t n = (size_t)g->w * (size_t)g->h, k, budget = n / 16 + 64, work, nchanged = 0;
    ff_repair_stats local;
    heap *q;
    ff_status st;

    if (!stats)
        stats = &local;
    memset(stats, 0, sizeof *stats);
    r->nedge = r->nmoved = 0;
    r->rebuilt = 0;
    if ((st = ensure_cells(r, n, err)) != FF_OK)
        return st;
    q = r->queue;
    q->n = 0;
    for (k = 0; k < g->ngoals; k++)
        r->flag[g->goals[k]] = F_GOAL;  /* not on the touched list: cleared below */
    st = check_changes(g, ch, nch, r->flag, err);
    if (st == FF_OK && note_old_steps(r, g, ch, nch) < 0)
        st = ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for a repair");
    if (st != FF_OK)
        goto done;
    for (k = 0; k < nch; k++) {
        float old = g->cost[ch[k].cell];
        g->cost[ch[k].cell] = ch[k].cost;
        if (memcmp(&old, &ch[k].cost, sizeof old) != 0)
            nchanged++;
    }
    stats->changed = nchanged;
    for (k = 0; k < r->nedge; k++) {
        struct ff_repair_edges *e = &r->edge[k];
        e->new_mask = (uint8_t)steps_now(g, e->cell, e->new_cost);
    }
    if (nchanged == 0)
        goto done;
    if ((work = raise_phase(r, g, dist, q, budget)) == SIZE_MAX) {
        st = rebuild(r, g, dist, err);
        goto done;
    }
    q->n = 0;
    /* Give up the raised cells, and every cell opened or closed (a closed
     * cell's distance is never read, an opened one's starts at +inf). */
    for (k = 0; k < r->ntouched; k++) {
        size_t i = r->touched[k];
        if ((r->flag[i] & F_RAISED) && dist[i] < INFINITY) {
            stats->raised++;
            dist[i] = INFINITY;
            if (moved(r, i) < 0)
                goto nomem;
        }
    }
    for (k = 0; k < r->nedge; k++) {
        size_t i = r->edge[k].cell;
        if ((!ff_grid_open(g, i) || !r->edge[k].old_open) && dist[i] != INFINITY &&
            !(r->flag[i] & F_GOAL)) {
            dist[i] = INFINITY;
            if (moved(r, i) < 0)
                goto nomem;
        }
    }
    for (k = 0; k < r->nmoved; k++) {
        size_t u = r->moved[k];
        if (ff_grid_open(g, u) && take_best_step(r, g, dist, q, u) < 0)
            goto nomem;
    }
    for (k = 0; k < r->nedge; k++) {
        size_t u = r->edge[k].cell;
        if (ff_grid_open(g, u) && !(r->flag[u] & F_GOAL) &&
            take_best_step(r, g, dist, q, u) < 0)
            goto nomem;
    }
    stats->settled = lower_phase(r, g, dist, q, budget - work);
    if (stats->settled == SIZE_MAX) {
        stats->settled = 0;
        st = rebuild(r, g, dist, err);
    }
    goto done;
nomem:
    st = rebuild(r, g, dist, err);
done:
    q->n = 0;
    clear_marks(r);
    for (k = 0; k < g->ngoals; k++)
        r->flag[g->goals[k]] = 0;
    /* A moved cell whose distance came back to what it was (raised, then
     * lowered to the same value) stays listed: the list is what to look
     * at again, not a diff. */
    stats->moved = r->nmoved;
    stats->rebuilt = r->rebuilt;
    return st;
}

ff_status ff_repair_directions(ff_repair *r, const ff_grid *g, const double *dist,
                               uint8_t *dir, int *flat, ff_error *err)
{
    size_t k, n = (size_t)g->w * (size_t)g->h;
    uint32_t *pick = NULL;
    size_t npick = 0, cap = 0;
    int any_flat = 0, dx, dy;
    ff_status st = FF_OK;

    if (*flat || r->rebuilt || r->ncells != n)
        return ff_direction_field_flat(g, dist, dir, flat, err);
    for (k = 0; k < r->nmoved + r->nedge && st == FF_OK; k++) {
        size_t c = k < r->nmoved ? r->moved[k] : r->edge[k - r->nmoved].cell;
        int x = (int)(c % (size_t)g->w), y = (int)(c / (size_t)g->w);
        /* A cell's pick reads its own steps and distance and its
         * neighbours' distances. */
        for (dy = -1; dy <= 1; dy++)
            for (dx = -1; dx <= 1; dx++) {
                size_t i;
                uint32_t *grown;
                if (x + dx < 0 || y + dy < 0 || x + dx >= g->w || y + dy >= g->h)
                    continue;
                i = (size_t)(y + dy) * (size_t)g->w + (size_t)(x + dx);
                if (r->flag[i] & F_PICK)
                    continue;
                if (mark(r, i, F_PICK) < 0 ||
                    !(grown = ff_grow(pick, &cap, npick + 1, sizeof *grown, LIST_MIN))) {
                    st = ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for directions");
                    break;
                }
                pick = grown;
                pick[npick++] = (uint32_t)i;
            }
    }
    for (k = 0; k < r->ntouched; k++)
        r->flag[r->touched[k]] = 0;
    r->ntouched = 0;
    if (st == FF_OK) {
        any_flat = ff_direction_cells(g, dist, pick, npick, dir);
        if (any_flat)
            st = ff_direction_field_flat(g, dist, dir, flat, err);
        else
            *flat = 0;
    }
    free(pick);
    return st;
}

ff_status ff_repair_cleared_changes(ff_repair *r, const ff_grid *map, double radius,
                                    const ff_grid *cleared, const uint32_t *cells,
                                    size_t ncells, ff_cell_change **out, size_t *nout,
                                    size_t *cap, ff_error *err)
{
    size_t n = (size_t)map->w * (size_t)map->h, k;
    int reach = ff_clearance_reach(map, radius), bx0, by0, bx1, by1, bx, by;
    ff_status st;

    *nout = 0;
    if ((st = ensure_cells(r, n, err)) != FF_OK)
        return st;
    for (k = 0; k < ncells; k++) {
        int x = (int)(cells[k] % (uint32_t)map->w), y = (int)(cells[k] / (uint32_t)map->w);
        ff_grid_clip_box(map, x, y, x, y, reach, &bx0, &by0, &bx1, &by1);
        for (by = by0; by <= by1; by++)
            for (bx = bx0; bx <= bx1; bx++) {
                size_t i = (size_t)by * (size_t)map->w + (size_t)bx;
                float c;
                ff_cell_change *grown;
                if (r->flag[i] & F_PICK)
                    continue;
                if (mark(r, i, F_PICK) < 0)
                    goto nomem;
                c = radius > 0 && ff_grid_cleared_at(map, radius, bx, by) ? INFINITY : map->cost[i];
                if (memcmp(&c, &cleared->cost[i], sizeof c) == 0)
                    continue;
                if (!(grown = ff_grow(*out, cap, *nout + 1, sizeof *grown, LIST_MIN)))
                    goto nomem;
                *out = grown;
                (*out)[*nout].cell = (uint32_t)i;
                (*out)[(*nout)++].cost = c;
            }
    }
    clear_marks(r);
    return FF_OK;
nomem:
    clear_marks(r);
    return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the clearance's changes");
}
