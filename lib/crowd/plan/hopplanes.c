/* hopplanes.c - whole planes of hop counts to goals; see hopplanes.h. */
#include "hopplanes.h"

#include <stdlib.h>
#include <string.h>

int ff_hopplanes_init(ff_hopplanes *c, uint32_t w, uint32_t h, size_t nkeys, size_t max_bytes)
{
    size_t cells = (size_t)w * (size_t)h, k;

    memset(c, 0, sizeof *c);
    if (w == 0 || h == 0 || cells >= FF_HOPPLANE_UNREACHED || nkeys == 0 || nkeys > UINT32_MAX)
        return -1;
    c->cap = max_bytes / (cells * sizeof *c->plane);
    if (c->cap > nkeys)
        c->cap = nkeys;
    if (c->cap == 0)
        return -1;
    c->plane = malloc(c->cap * cells * sizeof *c->plane);
    c->plane_of = malloc(nkeys * sizeof *c->plane_of);
    c->queue = malloc(cells * sizeof *c->queue);
    c->into = malloc(cells);
    if (!c->plane || !c->plane_of || !c->queue || !c->into) {
        ff_hopplanes_free(c);
        return -1;
    }
    for (k = 0; k < nkeys; k++)
        c->plane_of[k] = UINT32_MAX;
    c->w = w;
    c->h = h;
    c->cells = cells;
    c->nkeys = nkeys;
    return 0;
}

/* The steps into each cell by step_mask (a legal step stays in the map:
 * no coordinates). */
static void make_into(ff_hopplanes *c, const uint8_t *step_mask)
{
    const ptrdiff_t off[4] = { -(ptrdiff_t)c->w, 1, (ptrdiff_t)c->w, -1 };
    size_t u;
    memset(c->into, 0, c->cells);
    for (u = 0; u < c->cells; u++) {
        unsigned b;
        for (b = step_mask[u] & 15u; b; b &= b - 1) {
            int d = __builtin_ctz(b);
            c->into[(size_t)((ptrdiff_t)u + off[d])] |= (uint8_t)(1u << d);
        }
    }
    c->into_of = step_mask;
}

/* Breadth first from goal backwards: a cell u is one more step from the
 * goal than v when u steps into v and was not reached before (Moore
 * 1959). */
static void make_plane(const ff_hopplanes *c, uint16_t *hop, uint32_t goal)
{
    const ptrdiff_t off[4] = { -(ptrdiff_t)c->w, 1, (ptrdiff_t)c->w, -1 };
    size_t head = 0, tail = 0;

    memset(hop, 0xff, c->cells * sizeof *hop);
    if (goal >= c->cells)
        return;
    hop[goal] = 0;
    c->queue[tail++] = goal;
    while (head < tail) {
        uint32_t v = c->queue[head++];
        uint16_t next = (uint16_t)(hop[v] + 1);
        unsigned b;
        for (b = c->into[v]; b; b &= b - 1) {
            uint32_t u = (uint32_t)((ptrdiff_t)v - off[__builtin_ctz(b)]);
            if (hop[u] == FF_HOPPLANE_UNREACHED) {
                hop[u] = next;
                c->queue[tail++] = u;
            }
        }
    }
}

const uint16_t *ff_hopplanes_get(ff_hopplanes *c, uint32_t key, const uint8_t *step_mask, uint32_t goal)
{
    uint16_t *hop;
    if (key >= c->nkeys)
        return NULL;
    if (c->plane_of[key] != UINT32_MAX)
        return c->plane + (size_t)c->plane_of[key] * c->cells;
    if (c->used == c->cap)
        return NULL;
    hop = c->plane + c->used * c->cells;
    if (c->into_of != step_mask)
        make_into(c, step_mask);
    make_plane(c, hop, goal);
    c->plane_of[key] = (uint32_t)c->used++;
    return hop;
}

void ff_hopplanes_free(ff_hopplanes *c)
{
    free(c->plane);
    free(c->plane_of);
    free(c->queue);
    free(c->into);
    memset(c, 0, sizeof *c);
}
