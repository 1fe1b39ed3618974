/* crowdcheck.h - after a run, whether each agent arrived and, if not, why
 * (ffsim --check, man 1 ffsim): so that a crowd that cannot reach its
 * goals fails a CI job.
 */
#ifndef FF_CROWDCHECK_H
#define FF_CROWDCHECK_H

#include "crowd.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    FF_MISS_NONE = 0,      /* arrived (and stayed, or left) */
    FF_MISS_UNREACHABLE,   /* stopped where its field has no way to a goal */
    FF_MISS_DEADLOCKED,    /* on a wait-for cycle at the last tick */
    FF_MISS_STUCK,         /* on its way, but it did not move in the last tick */
    FF_MISS_OUT_OF_TICKS,  /* still moving at the last tick, or not yet entered */
    FF_MISS_JAMMED         /* steering: no way made for stuck-after seconds */
} ff_miss;

/* Why agent k (as ff_crowd_agent counts) of crowd c, whose run is over,
 * did not arrive (FF_MISS_NONE when it did), from its state and its last
 * tick's move. */
ff_miss ff_crowd_agent_miss(const ff_crowd *c, size_t k);

/* The word of a miss ("unreachable", "deadlocked", "stuck", "out of
 * ticks"; "arrived" for FF_MISS_NONE) and a few words of why. */
const char *ff_miss_name(ff_miss m);
const char *ff_miss_why(ff_miss m);

#ifdef __cplusplus
}
#endif

#endif
