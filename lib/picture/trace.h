/* trace.h - reading ffsim's crowd trace for pictures (man 1 ffpng,
 * "Input formats"; man 1 ffsim, TRACE).
 *
 * A trace is lines `tick id x y ...`, '#' comments and blank lines
 * skipped.  A comment naming the columns, `# ffsim trace: tick id x y vx
 * vy heading radius state` (one word a column from `tick id x y` on),
 * points out the radius and state columns.  Lines of one tick follow each
 * other; a tick is a run of lines with the same tick value.  The reader can
 * thin the ticks, keeping the first of every `every`.
 */
#ifndef FF_TRACE_H
#define FF_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "records.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What an agent is doing, as the key shows it: ffsim's states in five
 * groups.  moving, escaping and fallback are MOVING; waiting-field is
 * WAITING; a line without a state column is MOVING. */
typedef enum {
    FF_TRACE_MOVING = 0,
    FF_TRACE_WAITING,
    FF_TRACE_STUCK,
    FF_TRACE_DEADLOCKED,
    FF_TRACE_ARRIVED,
    FF_TRACE_STATES
} ff_trace_state;

/* "moving", "waiting", "stuck", "deadlocked", "arrived". */
const char *ff_trace_state_name(ff_trace_state s);

/* One line of a trace. */
typedef struct {
    double tick;            /* as written */
    int64_t id;             /* the agent */
    double x, y;            /* position, world units */
    double radius;          /* world units, > 0; 0 when no column names it */
    ff_trace_state state;
    uint64_t frame;         /* index of the kept tick, from 0 */
} ff_trace_record;

typedef struct {
    ff_records rec;         /* the lines, with their numbers */
    int radius_col, state_col;  /* columns after `tick`, or -1 */
    uint64_t every;         /* keep the first tick of every `every`, >= 1 */
    uint64_t ticks;         /* ticks seen so far (kept or not) */
    uint64_t frames;        /* ticks kept so far */
    double last_tick;       /* tick of the last line */
    int keeping;            /* the current tick is kept */
} ff_trace_reader;

/* Read the trace on f (name for messages, "-" stdin), keeping the first
 * tick of every `every` (>= 1). */
void ff_trace_init(ff_trace_reader *t, FILE *f, const char *name, uint64_t every);

/* The next line of a kept tick.  FF_ENOTFOUND at the end of input; FF_EINPUT
 * naming the line and column of a malformed line (a tick, x or y that is
 * not a finite number, an id that is not an integer, a radius <= 0), also
 * on lines of ticks thinned out. */
ff_status ff_trace_next(ff_trace_reader *t, ff_trace_record *r, ff_error *err);

/* Agents' ids to dense indexes 0, 1, ... in the order they first appear:
 * an open-addressing table.  Zero-initialise; owns its arrays. */
typedef struct {
    int64_t *id;        /* by index */
    size_t n, cap;
    uint32_t *slot;     /* index + 1, 0 empty */
    size_t nslot;       /* power of two, > 2n */
} ff_trace_ids;

/* The index of id, added as the next one if new (*added set to 1 then);
 * FF_ENOMEM past memory or UINT32_MAX - 1 agents. */
ff_status ff_trace_ids_find(ff_trace_ids *t, int64_t id, size_t *index, int *added, ff_error *err);

void ff_trace_ids_free(ff_trace_ids *t);

#ifdef __cplusplus
}
#endif

#endif
