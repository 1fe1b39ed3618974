/* blend.h - the one rule that blends a class's behaviours by priority
 * groups (man 5 ffsim, "BEHAVIOURS"): the steering (steer.c) follows it,
 * and a caller may ask it of any proposals.
 */
#ifndef FF_BLEND_H
#define FF_BLEND_H

#include "scenario.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Blend the behaviours' proposals of class cls (indexed as
 * cls->behaviour), their linear parts px[k], py[k] and angular parts
 * pw[k], by priority group: each group's weighted sum is tried in
 * ascending priority and the first whose linear length or angular
 * magnitude exceeds the threshold wins; when none does, the last group's
 * sum is used.  Writes the result to *ox, *oy, *ow and returns the
 * winning group's index, or -1 for the fallback to the last group.  pw
 * NULL: no angular parts (a class without angular behaviours); ow NULL:
 * the angular sum is not wanted.  The simulation uses the same code. */
int ff_crowd_blend(const ff_agent_class *cls, const double *px, const double *py, const double *pw,
                   double *ox, double *oy, double *ow);

#ifdef __cplusplus
}
#endif

#endif
