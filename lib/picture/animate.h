/* animate.h - a crowd trace as an animated PNG: one frame per kept tick,
 * the map, field, paths and key drawn once as the background, the agents
 * as discs coloured by state with short trails, the goals and points
 * above them (man 1 ffpng, "Animation").
 *
 * Two passes over the trace: the first checks every line and counts the
 * frames (APNG states the count first), fills the density and the
 * states the key shows, and gathers the map events; the second draws.  A trace that cannot seek
 * (a pipe) is copied to a temporary file first.  Memory: the background
 * picture, one row, the agents' last positions; frames are streamed.
 */
#ifndef FF_ANIMATE_H
#define FF_ANIMATE_H

#include <stdint.h>
#include <stdio.h>

#include "draw.h"
#include "progress.h"
#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Positions a trail keeps, at most. */
#define FF_ANIMATE_TRAIL_MAX 16

typedef struct {
    FILE *trace;          /* the trace, positioned at its start (owned when spooled) */
    int spooled;          /* 1: trace is a temporary copy, closed by ff_animation_free */
    long start;           /* offset of the trace's first byte */
    const char *name;     /* for messages */
    uint64_t every;       /* ticks kept: the first of every `every` */
    uint64_t frames;      /* kept ticks */
    size_t agents;        /* agents seen */
    ff_trace_notes notes; /* the trace's map events, fields published and
                             tick length (trace.h) */
} ff_animation;

/* The first pass over the trace on f (name for messages): every line is
 * checked as ff_overlay_read_trace would (positions in the map's pixels
 * at ov's scale), the kept ticks and the agents counted, ov->states_seen
 * set, ov's density counted when it was asked for, and the map events
 * gathered and checked against ov's grid (eventmap.h).  FF_EINPUT for a
 * malformed line, a map event outside the map or a trace without a line,
 * FF_EIO, FF_ENOMEM. */
ff_status ff_animation_scan(ff_animation *a, FILE *f, const char *name, uint64_t every,
                            ff_overlay *ov, ff_error *err);

typedef struct {
    uint16_t fps;         /* frames per second, 1..1000 */
    int trail;            /* positions of a trail, 1..FF_ANIMATE_TRAIL_MAX */
    int label;            /* 1: each frame's tick and time at the map's
                             top left */
    ff_progress *progress; /* told the frames written, or NULL; borrowed */
} ff_animate_options;

/* The second pass: write the animation to out (out_name for messages).
 * bg is a drawing begun with opt.background = 1 and not yet drawn from;
 * ov holds its points (drawn above the goals on every frame).  The
 * background is drawn again from the tick of each map event of the trace
 * (eventmap.h), the whole frame then. */
ff_status ff_animation_write(ff_animation *a, ff_drawing *bg, const ff_overlay *ov,
                             const ff_animate_options *opt, FILE *out, const char *out_name,
                             ff_error *err);

void ff_animation_free(ff_animation *a);

#ifdef __cplusplus
}
#endif

#endif
