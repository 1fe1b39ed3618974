/* astar.c - an agent's own A* path; see astar.h. */
#include "astar.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

ff_status ff_astar_init(ff_astar *a, const ff_grid *g, ff_error *err)
{
    (void)err;
    memset(a, 0, sizeof *a);
    a->grid = g;
    ff_astar_retarget(a);
    return FF_OK;
}

/* The per-cell arrays, at the first search: most runs never search. */
static int allocate(ff_astar *a)
{
    size_t n = (size_t)a->grid->w * (size_t)a->grid->h;
    if (a->g)
        return 0;
    a->g = malloc(n * sizeof *a->g);
    a->parent = malloc(n * sizeof *a->parent);
    a->stamp = calloc(n, sizeof *a->stamp);
    if (!a->g || !a->parent || !a->stamp) {
        free(a->g);
        free(a->parent);
        free(a->stamp);
        a->g = NULL;
        a->parent = a->stamp = NULL;
        return -1;
    }
    return 0;
}

void ff_astar_free(ff_astar *a)
{
    free(a->g);
    free(a->parent);
    free(a->stamp);
    free(a->heap);
    memset(a, 0, sizeof *a);
}

void ff_astar_retarget(ff_astar *a)
{
    const ff_grid *g = a->grid;
    size_t n = (size_t)g->w * (size_t)g->h, k;
    double least = INFINITY;

    a->gx0 = g->w;
    a->gy0 = g->h;
    a->gx1 = a->gy1 = -1;
    for (k = 0; k < g->ngoals; k++) {
        int32_t x = (int32_t)(g->goals[k] % (uint32_t)g->w), y = (int32_t)(g->goals[k] / (uint32_t)g->w);
        if (x < a->gx0) a->gx0 = x;
        if (x > a->gx1) a->gx1 = x;
        if (y < a->gy0) a->gy0 = y;
        if (y > a->gy1) a->gy1 = y;
    }
    for (k = 0; k < n; k++)
        if (ff_grid_open(g, k) && g->cost[k] < least)
            least = g->cost[k];
    a->least = isfinite(least) ? least * g->cell_size : 0;
}

/* The least cost from cell to the box x0 y0 x1 y1 (the goals', or the
 * one cell searched for). */
static double heuristic(const ff_astar *a, const int32_t *box, uint32_t cell)
{
    int32_t x = (int32_t)(cell % (uint32_t)a->grid->w), y = (int32_t)(cell / (uint32_t)a->grid->w);
    double dx = x < box[0] ? box[0] - x : (x > box[2] ? x - box[2] : 0);
    double dy = y < box[1] ? box[1] - y : (y > box[3] ? y - box[3] : 0);
    double lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;

    if (a->grid->moves == 4)
        return (dx + dy) * a->least;
    return (hi - lo + FF_SQRT2 * lo) * a->least;
}

/* Heap order: lower f; then higher g (deeper first); then lower cell. */
static int before(const struct ff_astar_node *p, const struct ff_astar_node *q)
{
    if (p->f != q->f)
        return p->f < q->f;
    if (p->g != q->g)
        return p->g > q->g;
    return p->cell < q->cell;
}

static int heap_push(ff_astar *a, double f, double g, uint32_t cell)
{
    size_t i;
    if (a->nheap == a->cap_heap) {
        struct ff_astar_node *h = ff_grow(a->heap, &a->cap_heap, a->nheap + 1, sizeof *h, 256);
        if (!h)
            return -1;
        a->heap = h;
    }
    i = a->nheap++;
    a->heap[i].f = f;
    a->heap[i].g = g;
    a->heap[i].cell = cell;
    while (i > 0 && before(&a->heap[i], &a->heap[(i - 1) / 2])) {
        struct ff_astar_node t = a->heap[i];
        a->heap[i] = a->heap[(i - 1) / 2];
        a->heap[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
    return 0;
}

static struct ff_astar_node heap_pop(ff_astar *a)
{
    struct ff_astar_node top = a->heap[0];
    size_t i = 0;

    a->heap[0] = a->heap[--a->nheap];
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < a->nheap && before(&a->heap[l], &a->heap[m]))
            m = l;
        if (r < a->nheap && before(&a->heap[r], &a->heap[m]))
            m = r;
        if (m == i)
            break;
        {
            struct ff_astar_node t = a->heap[i];
            a->heap[i] = a->heap[m];
            a->heap[m] = t;
        }
        i = m;
    }
    return top;
}

/* 1 when cell ends the search: it is target, or with target
 * FF_ASTAR_GOALS one of the grid's goals. */
static inline int is_end(const ff_grid *g, uint32_t target, uint32_t cell)
{
    return target == FF_ASTAR_GOALS ? ff_grid_is_goal(g, cell) : cell == target;
}

/* ff_astar_path_to's search (target FF_ASTAR_GOALS: ff_astar_path's). */
static int search(ff_astar *a, uint32_t start, uint32_t target, const uint8_t *avoid, const ff_astar_filter *filter,
                  uint32_t **path, uint32_t *len)
{
    const ff_grid *g = a->grid;
    uint32_t w = (uint32_t)g->w, found = UINT32_MAX, n, c;
    uint64_t budget = a->max_expand;
    int32_t box[4];

    *path = NULL;
    *len = 0;
    if (is_end(g, target, start))
        return 1;
    if ((target == FF_ASTAR_GOALS ? g->ngoals == 0 : !ff_grid_open(g, target)) || !ff_grid_open(g, start))
        return 0;
    if (target == FF_ASTAR_GOALS) {
        box[0] = a->gx0;
        box[1] = a->gy0;
        box[2] = a->gx1;
        box[3] = a->gy1;
    } else {
        box[0] = box[2] = (int32_t)(target % w);
        box[1] = box[3] = (int32_t)(target / w);
    }
    if (allocate(a) < 0)
        return -1;
    if (++a->generation == 0) {
        memset(a->stamp, 0, (size_t)g->w * (size_t)g->h * sizeof *a->stamp);
        a->generation = 1;
    }
    a->nheap = 0;
    a->stamp[start] = a->generation;
    a->g[start] = 0;
    a->parent[start] = start;
    if (heap_push(a, heuristic(a, box, start), 0, start) < 0)
        return -1;
    while (a->nheap > 0) {
        struct ff_astar_node top = heap_pop(a);
        int d;
        if (top.g > a->g[top.cell])
            continue;  /* a stale entry */
        if (is_end(g, target, top.cell)) {
            found = top.cell;
            break;
        }
        a->expanded++;
        if (budget && --budget == 0)
            break;
        for (d = 0; d < 8; d++) {
            int x = (int)(top.cell % w), y = (int)(top.cell / w);
            uint32_t next;
            double ng;
            if (a->step_mask ? !(a->step_mask[top.cell] >> d & 1) : !ff_grid_step_ok(g, x, y, d))
                continue;
            next = (uint32_t)((y + ff_dir_dy[d]) * (int)w + x + ff_dir_dx[d]);
            if ((avoid && avoid[next]) || (filter && !filter->step_ok(filter->ctx, top.cell, next)))
                continue;
            ng = top.g + ff_grid_step_cost(g, top.cell, d);
            if (a->stamp[next] == a->generation && !(ng < a->g[next]))
                continue;
            a->stamp[next] = a->generation;
            a->g[next] = ng;
            a->parent[next] = top.cell;
            if (heap_push(a, ng + heuristic(a, box, next), ng, next) < 0)
                return -1;
        }
    }
    if (found == UINT32_MAX)
        return 0;
    for (n = 0, c = found; c != start; c = a->parent[c])
        n++;
    if (!(*path = malloc(n * sizeof **path)))
        return -1;
    *len = n;
    for (c = found; c != start; c = a->parent[c])
        (*path)[--n] = c;
    return 1;
}

int ff_astar_path(ff_astar *a, uint32_t start, const uint8_t *avoid, uint32_t **path, uint32_t *len)
{
    return search(a, start, FF_ASTAR_GOALS, avoid, NULL, path, len);
}

int ff_astar_path_to(ff_astar *a, uint32_t start, uint32_t target, const uint8_t *avoid,
                     const ff_astar_filter *filter, uint32_t **path, uint32_t *len)
{
    return search(a, start, target, avoid, filter, path, len);
}
