/* publish.c - a profile's published field and the one awaiting
 * publication; see profilesint.h.
 *
 * The two planes of each channel are swapped at publication, never
 * copied whole: the profile lists the cells where they differ (those a
 * change made), and making next_* the latest again copies only those. */
#include <string.h>

#include "grow.h"
#include "profilesint.h"

int ff_profile_pending(const ff_profile *f)
{
    return f->publish_tick >= 0;
}

void ff_profile_differ(ff_profile *f, const uint32_t *cells, size_t n, size_t ncells)
{
    uint32_t *grown;

    if (f->differ_all)
        return;
    /* Past the map's size a list is no cheaper than every cell. */
    if (!cells || n > ncells - f->ndiffer ||
        !(grown = ff_grow(f->differ, &f->differ_cap, f->ndiffer + n, sizeof *grown, 256))) {
        f->differ_all = 1;
        f->ndiffer = 0;
        return;
    }
    f->differ = grown;
    memcpy(f->differ + f->ndiffer, cells, n * sizeof *cells);
    f->ndiffer += n;
}

void ff_profile_latest_to_next(ff_profile *f, size_t n)
{
    size_t k;

    if (ff_profile_pending(f))
        return;
    if (f->differ_all) {
        memcpy(f->next_distance, f->distance, n * sizeof *f->distance);
        memcpy(f->next_direction, f->direction, n);
    } else {
        for (k = 0; k < f->ndiffer; k++) {
            f->next_distance[f->differ[k]] = f->distance[f->differ[k]];
            f->next_direction[f->differ[k]] = f->direction[f->differ[k]];
        }
    }
    f->differ_all = 0;
    f->ndiffer = 0;
}

void ff_profile_publish(ff_profile *f, long long t)
{
    double *d = f->distance;
    uint8_t *dir = f->direction;

    f->distance = f->next_distance;
    f->direction = f->next_direction;
    f->next_distance = d;
    f->next_direction = dir;
    dir = f->heading_direction;
    f->heading_direction = f->next_heading_direction;
    f->next_heading_direction = dir;
    f->id = f->next_id;
    f->stale = 0;
    f->publish_tick = -1;
    f->published_tick = t;
    f->published_again = f->again;
    f->again = 0;
}
