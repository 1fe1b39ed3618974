/* footprint.c - the sweep of a disk between two cells' centers; see
 * footprint.h. */
#include "footprint.h"

int ff_footprint_sweep_measured(const ff_walls *w, uint32_t from, uint32_t to, double r)
{
    const ff_grid *g = w->grid;
    double x, y, dx, dy, d0, d1;

    x = cell_center_x(g, from);
    y = cell_center_y(g, from);
    dx = cell_center_x(g, to) - x;
    dy = cell_center_y(g, to) - y;
    if (ff_walls_far(w, x, y, r + sqrt(dx * dx + dy * dy)))
        return 1;
    d0 = ff_walls_nearest(w, x, y, r, NULL, NULL);
    if (ff_walls_slide(w, r, &x, &y, dx, dy))
        return 0;
    d1 = ff_walls_nearest(w, x, y, r, NULL, NULL);
    return d1 >= r || d1 > d0;
}
