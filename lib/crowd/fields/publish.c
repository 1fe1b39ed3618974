/* publish.c - a profile's published field and the one awaiting
 * publication; see profilesint.h. */
#include <string.h>

#include "profilesint.h"

/* 1 when next_* is a field awaiting publication (then it is the latest;
 * else the published one is). */
int ff_profile_pending(const ff_profile *f)
{
    return f->publish_tick >= 0;
}

/* Make next_* the latest field (a copy of the published one unless a
 * field awaits publication there). */
void ff_profile_latest_to_next(ff_profile *f, size_t n)
{
    if (ff_profile_pending(f))
        return;
    memcpy(f->next_distance, f->distance, n * sizeof *f->distance);
    memcpy(f->next_direction, f->direction, n);
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
}
