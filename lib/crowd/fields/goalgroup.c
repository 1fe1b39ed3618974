/* goalgroup.c - goal cells in 8-connected groups; see goalgroup.h. */
#include "goalgroup.h"

#include <stdlib.h>
#include <string.h>

/* The index of cell in g->cell, or -1. */
static long find(const ff_goal_groups *g, uint32_t cell)
{
    size_t lo = 0, hi = g->ncells;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (g->cell[mid] < cell)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->ncells && g->cell[lo] == cell ? (long)lo : -1;
}

long ff_goal_group_of(const ff_goal_groups *g, uint32_t cell)
{
    long k = find(g, cell);
    return k < 0 ? -1 : (long)g->group[k];
}

/* Give goal cell k (not yet grouped) and its 8-connected goal cells group
 * label, walking them with the stack, and set the group's box. */
static void flood(ff_goal_groups *g, size_t k, uint32_t label, uint32_t *stack)
{
    int32_t *box = &g->box[4 * label];
    size_t top = 0;

    g->group[k] = label;
    stack[top++] = (uint32_t)k;
    box[0] = box[2] = (int32_t)(g->cell[k] % (uint32_t)g->w);
    box[1] = box[3] = (int32_t)(g->cell[k] / (uint32_t)g->w);
    while (top) {
        uint32_t i = g->cell[stack[--top]];
        int32_t x = (int32_t)(i % (uint32_t)g->w), y = (int32_t)(i / (uint32_t)g->w), dx, dy;
        if (x < box[0]) box[0] = x;
        if (x > box[2]) box[2] = x;
        if (y < box[1]) box[1] = y;
        if (y > box[3]) box[3] = y;
        for (dy = -1; dy <= 1; dy++)
            for (dx = -1; dx <= 1; dx++) {
                int32_t nx = x + dx, ny = y + dy;
                long j;
                if (nx < 0 || ny < 0 || nx >= g->w || ny >= g->h)
                    continue;
                j = find(g, (uint32_t)ny * (uint32_t)g->w + (uint32_t)nx);
                if (j >= 0 && g->group[j] == UINT32_MAX) {
                    g->group[j] = label;
                    stack[top++] = (uint32_t)j;
                }
            }
    }
}

ff_status ff_goal_groups_init(ff_goal_groups *g, int32_t w, int32_t h,
                              const uint8_t *const *masks, size_t nmasks, ff_error *err)
{
    size_t n = (size_t)w * (size_t)h, i, k, m;
    uint32_t *stack = NULL;

    memset(g, 0, sizeof *g);
    g->w = w;
    g->h = h;
    for (i = 0; i < n; i++)
        for (k = 0; k < nmasks; k++)
            if (masks[k][i]) {
                g->ncells++;
                break;
            }
    m = g->ncells ? g->ncells : 1;
    g->cell = malloc(m * sizeof *g->cell);
    g->group = malloc(m * sizeof *g->group);
    g->box = malloc(4 * m * sizeof *g->box);
    stack = malloc(m * sizeof *stack);  /* each cell is pushed once */
    if (!g->cell || !g->group || !g->box || !stack) {
        free(stack);
        ff_goal_groups_free(g);
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the goal groups");
    }
    for (i = 0, m = 0; i < n; i++)
        for (k = 0; k < nmasks; k++)
            if (masks[k][i]) {
                g->cell[m] = (uint32_t)i;
                g->group[m++] = UINT32_MAX;
                break;
            }
    for (k = 0; k < g->ncells; k++)
        if (g->group[k] == UINT32_MAX)
            flood(g, k, (uint32_t)g->ngroups++, stack);
    free(stack);
    return FF_OK;
}

void ff_goal_groups_free(ff_goal_groups *g)
{
    free(g->cell);
    free(g->group);
    free(g->box);
    memset(g, 0, sizeof *g);
}
