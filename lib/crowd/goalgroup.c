/* goalgroup.c - goal cells in 8-connected groups; see goalgroup.h. */
#include "goalgroup.h"

#include <stdlib.h>
#include <string.h>

/* Label the group of cell start (a goal cell not yet labelled) as label,
 * walking its 8-connected goal cells with the stack, and grow its box. */
static void flood(ff_goal_groups *g, const uint8_t *goal, uint32_t start, uint32_t label,
                  uint32_t *stack)
{
    int32_t *box = &g->box[4 * (label - 1)];
    size_t top = 0;

    g->group[start] = label;
    stack[top++] = start;
    box[0] = box[2] = (int32_t)(start % (uint32_t)g->w);
    box[1] = box[3] = (int32_t)(start / (uint32_t)g->w);
    while (top) {
        uint32_t i = stack[--top];
        int32_t x = (int32_t)(i % (uint32_t)g->w), y = (int32_t)(i / (uint32_t)g->w), dx, dy;
        if (x < box[0]) box[0] = x;
        if (x > box[2]) box[2] = x;
        if (y < box[1]) box[1] = y;
        if (y > box[3]) box[3] = y;
        for (dy = -1; dy <= 1; dy++)
            for (dx = -1; dx <= 1; dx++) {
                int32_t nx = x + dx, ny = y + dy;
                size_t j;
                if (nx < 0 || ny < 0 || nx >= g->w || ny >= g->h)
                    continue;
                j = (size_t)ny * (size_t)g->w + (size_t)nx;
                if (goal[j] && !g->group[j]) {
                    g->group[j] = label;
                    stack[top++] = (uint32_t)j;
                }
            }
    }
}

ff_status ff_goal_groups_init(ff_goal_groups *g, int32_t w, int32_t h,
                              const uint8_t *const *masks, size_t nmasks, ff_error *err)
{
    size_t n = (size_t)w * (size_t)h, i, k, ngoals = 0;
    uint8_t *goal = calloc(n ? n : 1, 1);
    uint32_t *stack = NULL;

    memset(g, 0, sizeof *g);
    g->w = w;
    g->h = h;
    g->group = calloc(n ? n : 1, sizeof *g->group);
    if (!goal || !g->group)
        goto nomem;
    for (k = 0; k < nmasks; k++)
        for (i = 0; i < n; i++)
            goal[i] |= masks[k][i] != 0;
    for (i = 0; i < n; i++)
        ngoals += goal[i];
    /* Each cell is pushed once (labelled when pushed): the stack and the
     * groups are at most the goal cells. */
    stack = malloc((ngoals ? ngoals : 1) * sizeof *stack);
    g->first = malloc((ngoals ? ngoals : 1) * sizeof *g->first);
    g->box = malloc((ngoals ? ngoals : 1) * 4 * sizeof *g->box);
    if (!stack || !g->first || !g->box)
        goto nomem;
    for (i = 0; i < n; i++)
        if (goal[i] && !g->group[i]) {
            g->first[g->ngroups] = (uint32_t)i;
            g->ngroups++;
            flood(g, goal, (uint32_t)i, (uint32_t)g->ngroups, stack);
        }
    free(goal);
    free(stack);
    return FF_OK;
nomem:
    free(goal);
    free(stack);
    ff_goal_groups_free(g);
    return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the goal groups");
}

void ff_goal_groups_free(ff_goal_groups *g)
{
    free(g->group);
    free(g->first);
    free(g->box);
    memset(g, 0, sizeof *g);
}
