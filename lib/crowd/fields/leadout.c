/* leadout.c - the cells a profile's clearance closes on an open map, led
 * back into its room; see profilesint.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "direction.h"
#include "profilesint.h"

/* Cells open on the map but closed by the profile's clearance have no
 * direction of their own; an agent standing there (placed near a wall,
 * or pushed) must not stop.  They get, layer by layer outward from the
 * cells that have one, a direction toward the neighbour of an earlier
 * layer (a legal step on the map) that is nearest to a goal; ties go to
 * the first direction code.  So they lead back into the profile's room,
 * never deeper into a passage it does not fit.  Two layers hold every
 * cell an agent clear of the walls by its radius can stand in (its cell's
 * center is at most 0.71 cell from it); more would chain along the walls
 * into rooms the profile cannot reach.
 *
 * A cell's layer depends only on its neighbours' (layer 1: a step to a
 * cell with a field direction; layer 2: else a step to a layer-1 cell),
 * so the layers can be made for a few cells as well as for all, in place:
 * lead_layer[] says which cells are led out, and in which layer. */
#define FF_LEAD_OUT_LAYERS 2

/* 1 when cell i, open on the map, is closed for the profile. */
int ff_led_out_cell(const ff_profiles *p, const ff_profile *f, size_t i)
{
    return ff_grid_open(&p->map, i) && !ff_grid_open(&f->grid, i);
}

/* Lead cell i out in layer (1 or 2) into dir/dist from its neighbours of
 * the layer before (0: a field direction); 1 when it found one. */
static int lead_cell(const ff_profiles *p, const ff_profile *f, size_t i, int layer,
                     uint8_t *dir, double *dist)
{
    const ff_grid *m = &p->map;
    int x = (int)(i % (size_t)m->w), y = (int)(i / (size_t)m->w), d, best = -1;
    double best_dist = INFINITY;

    for (d = 0; d < 8; d++) {
        size_t j;
        int source;
        if (!ff_grid_step_ok(m, x, y, d))
            continue;
        j = (size_t)(y + ff_dir_dy[d]) * (size_t)m->w + (size_t)(x + ff_dir_dx[d]);
        source = layer == 1 ? ff_grid_open(&f->grid, j) && dir[j] != FF_DIR_NONE
                            : f->lead_layer[j] == 1;
        if (source && (best < 0 || dist[j] < best_dist)) {
            best = d;
            best_dist = dist[j];
        }
    }
    if (best < 0)
        return 0;
    dir[i] = (uint8_t)best;
    dist[i] = best_dist + ff_grid_step_cost(m, i, best);
    f->lead_layer[i] = (uint8_t)layer;
    return 1;
}

/* The layers of lead-out, in order, for cells[0..n) (or the first n
 * cells, cells NULL) that are not led out yet. */
void ff_lead_layers(ff_profiles *p, ff_profile *f, const uint32_t *cells, size_t n,
                        uint8_t *dir, double *dist)
{
    size_t k;
    int layer;

    for (layer = 1; layer <= FF_LEAD_OUT_LAYERS; layer++)
        for (k = 0; k < n; k++) {
            size_t i = cells ? cells[k] : k;
            if (!f->lead_layer[i] && dir[i] == FF_DIR_NONE && ff_led_out_cell(p, f, i))
                lead_cell(p, f, i, layer, dir, dist);
        }
}

/* Make the lead-out of cells[0..ncells) (or of every cell, cells NULL)
 * again in dir/dist, the field's own directions and distances being set:
 * every cell listed loses its old lead-out, then the layers are made in
 * order.  The other cells' lead-out must not depend on the listed ones
 * (list every cell within FF_LEAD_OUT_LAYERS + 1 of what changed).  *changed
 * is set to 1 when a listed cell's direction, distance or layer changed. */
ff_status ff_lead_out(ff_profiles *p, ff_profile *f, const uint32_t *cells, size_t ncells,
                          uint8_t *dir, double *dist, int *changed, ff_error *err)
{
    size_t n = cells ? ncells : (size_t)p->map.w * (size_t)p->map.h, k;
    uint8_t *old_dir = malloc(n ? n : 1), *old_layer = malloc(n ? n : 1);
    double *old_dist = malloc((n ? n : 1) * sizeof *old_dist);

    if (!old_dir || !old_layer || !old_dist) {
        free(old_dir);
        free(old_layer);
        free(old_dist);
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for the lead-out");
    }
    for (k = 0; k < n; k++) {
        size_t i = cells ? cells[k] : k;
        old_dir[k] = dir[i];
        old_dist[k] = dist[i];
        old_layer[k] = f->lead_layer[i];
        if (f->lead_layer[i]) {
            f->lead_layer[i] = 0;
            if (!ff_grid_open(&f->grid, i)) {
                dir[i] = FF_DIR_NONE;
                dist[i] = INFINITY;
            }
        }
    }
    ff_lead_layers(p, f, cells, n, dir, dist);
    *changed = 0;
    for (k = 0; k < n && !*changed; k++) {
        size_t i = cells ? cells[k] : k;
        *changed = old_dir[k] != dir[i] || old_layer[k] != f->lead_layer[i] ||
                   memcmp(&old_dist[k], &dist[i], sizeof dist[i]) != 0;
    }
    free(old_dir);
    free(old_layer);
    free(old_dist);
    return FF_OK;
}
