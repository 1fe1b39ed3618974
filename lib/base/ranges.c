/* ranges.c - the table of ranges; see ranges.h. */
#include "ranges.h"

#include <math.h>

/* A closed range [min, max]; ROPEN: (min, max].  The texts are the
 * numbers as written here. */
#define R(key, min, max, integer, page) \
    { key, min, max, 0, integer, #min, #max, "from " #min " to " #max, page }
#define ROPEN(key, min, max, integer, page) \
    { key, min, max, 1, integer, #min, #max, "from " #min " (excluded) to " #max, page }

const ff_range ff_ranges[FF_RANGE_COUNT] = {
    [FF_RANGE_CELL] = R("cell", 1e-6, 1e6, 0, "ff.5"),
    [FF_RANGE_ORIGIN] = R("origin", -1e12, 1e12, 0, "ff.5"),
    [FF_RANGE_RADIUS] = R("radius", 0, 1e12, 0, "ff.5"),
    [FF_RANGE_COST] = R("cost", 0, 3.4e38, 0, "ff.5"),
    [FF_RANGE_TURN_COST] = R("turn-cost", 0, 3.4e38, 0, "ff.5"),
    [FF_RANGE_PNG_SCALE] = ROPEN("--png-scale", 0, 1e36, 0, "ffbuild.1"),
    [FF_RANGE_TICK] = ROPEN("tick", 0, 3600, 0, "ffsim.5"),
    [FF_RANGE_TICKS] = R("ticks", 0, 100000000, 1, "ffsim.5"),
    [FF_RANGE_EVENT_TICK] = R("at", 1, 100000000, 1, "ffsim.5"),
    [FF_RANGE_SPEED] = ROPEN("speed", 0, 1e12, 0, "ffsim.5"),
    [FF_RANGE_ACCEL] = ROPEN("accel", 0, 1e12, 0, "ffsim.5"),
    [FF_RANGE_TURN] = ROPEN("turn", 0, 1e12, 0, "ffsim.5"),
    [FF_RANGE_ANGULAR_ACCEL] = ROPEN("angular-accel", 0, 1e12, 0, "ffsim.5"),
    [FF_RANGE_THRESHOLD] = R("threshold", 0, 1e12, 0, "ffsim.5"),
    [FF_RANGE_PRIORITY] = R("priority", -1000000, 1000000, 1, "ffsim.5"),
    [FF_RANGE_PASSES] = R("passes", 0, 64, 1, "ffsim.5"),
    [FF_RANGE_WAIT_LIMIT] = R("wait-limit", 1, 1000000, 1, "ffsim.5"),
    [FF_RANGE_STUCK_AFTER] = ROPEN("stuck-after", 0, 1e12, 0, "ffsim.5"),
    [FF_RANGE_REBUILD_TICKS] = R("rebuild-ticks", 0, 100000000, 1, "ffsim.5"),
    [FF_RANGE_CONGESTION_TICKS] = R("congestion-ticks", 1, 100000000, 1, "ffsim.5"),
    [FF_RANGE_CONGESTION_WEIGHT] = ROPEN("congestion-weight", 0, 1e12, 0, "ffsim.5"),
    [FF_RANGE_CONGESTION_THRESHOLD] = R("congestion-threshold", 0, 1e12, 0, "ffsim.5"),
    [FF_RANGE_JOBS] = R("--jobs", 1, 1024, 1, "ffbuild.1"),
    [FF_RANGE_MAX_CELLS] = R("--max-cells", 1, 4294967295, 1, "ffbuild.1"),
    [FF_RANGE_FUNNEL_RADIUS] = R("--radius", 0, 1e150, 0, "fffunnel.1"),
    [FF_RANGE_PNG_PIXELS] = R("--scale", 1, 2147483647, 1, "ffpng.1"),
    [FF_RANGE_PNG_GRID] = R("--grid", 1, 2147483647, 1, "ffpng.1"),
    [FF_RANGE_PNG_EVERY] = R("--every", 1, 2147483647, 1, "ffpng.1"),
    [FF_RANGE_PNG_FPS] = R("--fps", 1, 1000, 1, "ffpng.1"),
    [FF_RANGE_SIM_EVERY] = R("--every", 1, 1000000000, 1, "ffsim.1"),
};

int ff_range_ok(ff_range_id id, double v)
{
    const ff_range *r = &ff_ranges[id];

    if (!(r->min_open ? v > r->min : v >= r->min) || !(v <= r->max))
        return 0;
    return !r->integer || v == floor(v);
}

const char *ff_range_text(ff_range_id id)
{
    return ff_ranges[id].text;
}
