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

/* A map event or a field published, as ffsim's trace notes them in
 * comment lines before the tick's lines (man 1 ffsim, TRACE):
 * `# tick T close X0,Y0,X1,Y1`, `# tick T open X0,Y0,X1,Y1` and
 * `# tick T field K radius R id ID published`. */
typedef enum { FF_TRACE_CLOSE = 0, FF_TRACE_OPEN, FF_TRACE_PUBLISHED } ff_trace_event_kind;

typedef struct {
    double tick;            /* as written */
    ff_trace_event_kind kind;
    long long x0, y0, x1, y1;  /* CLOSE, OPEN: the cells, inclusive, as written */
    double radius;          /* PUBLISHED: the field's radius, world units */
    long line;              /* the comment's line, for messages */
} ff_trace_event;

/* What the comments of a trace say about its run, gathered as it is read:
 * the events in the order of the trace, the tick length (the header's
 * `# tick_dt D`; 0 when there is none) and the radii of the fields the
 * header lists (`# field K radius R id ID`).  Zero-initialise; owns its
 * arrays (ff_trace_notes_free). */
typedef struct {
    ff_trace_event *event;
    size_t nevents, cap;
    double tick_dt;         /* seconds a tick, 0 unknown */
    double *field_radius;   /* the header's fields' radii */
    size_t nfields, field_cap;
} ff_trace_notes;

void ff_trace_notes_free(ff_trace_notes *n);

typedef struct {
    ff_records rec;         /* the lines, with their numbers */
    ff_trace_notes *notes;  /* NULL, or gathers the comments' events and
                               tick length (set after ff_trace_init) */
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
 * on lines of ticks thinned out.  With t->notes, a comment `# tick T close
 * ...` or `open` whose tick or cells are not numbers is refused too, and
 * the comments of every tick, kept or not, are gathered; FF_ENOMEM. */
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
