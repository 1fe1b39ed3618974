/* crowdcheck.c - why an agent did not arrive; see crowdcheck.h. */
#include "crowdcheck.h"
#include "crowdint.h"
#include "standoff.h"

ff_miss ff_crowd_agent_miss(const ff_crowd *c, size_t k)
{
    const ff_agent *a = &c->agent[k];

    switch (a->state) {
    case FF_AGENT_ARRIVED:
    case FF_AGENT_GONE: return FF_MISS_NONE;
    case FF_AGENT_UNBORN: return FF_MISS_OUT_OF_TICKS;
    case FF_AGENT_STUCK: return ff_standoff_jammed(c, k) ? FF_MISS_JAMMED : FF_MISS_UNREACHABLE;
    case FF_AGENT_DEADLOCKED: return FF_MISS_DEADLOCKED;
    default: break;
    }
    return a->x == a->x0 && a->y == a->y0 ? FF_MISS_STUCK : FF_MISS_OUT_OF_TICKS;
}

const char *ff_miss_name(ff_miss m)
{
    static const char *const names[] = { "arrived", "unreachable", "deadlocked", "stuck",
                                         "out of ticks", "stuck" };
    return names[m];
}

const char *ff_miss_why(ff_miss m)
{
    static const char *const why[] = {
        "it reached a goal",
        "no way to a goal from where it stands",
        "it waits on a cycle of agents waiting on each other",
        "it did not move in the last tick",
        "still on its way (or not yet entered) at the last tick",
        "no way made toward its goal for stuck-after seconds: a jam",
    };
    return why[m];
}
