/* eventmap.h - the map and field an animation frame shows: the stream's
 * field with the map events of a crowd trace applied up to the frame's
 * tick (man 1 ffpng, "Animation").
 *
 * ffsim notes each map event in its trace (`# tick T close X0,Y0,X1,Y1`,
 * `open`) and each field it publishes afterwards (`# tick T field K
 * radius R id ID published`; trace.h gathers them).  From the tick of an
 * event the walls are drawn as the event left them; the field's
 * distances and directions are searched again on the changed map from
 * the tick ffsim published the field of the stream's radius, or from the
 * event's tick when the trace lists no field of that radius.
 */
#ifndef FF_EVENTMAP_H
#define FF_EVENTMAP_H

#include <stdint.h>

#include "stream.h"
#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const ff_field *stream;     /* the field as the stream holds it; not owned */
    const ff_trace_notes *notes;  /* the trace's events; not owned */
    ff_field now;               /* what the frame shows: a copy of *stream
                                   whose cost, distance and direction are
                                   the arrays below (the rest is shared) */
    float *cost;                /* w*h: the stream's costs, closed cells +inf */
    uint8_t *closed;            /* w*h: 1 for a cell an event closed */
    double *distance;           /* w*h, or NULL when the field is not redrawn */
    uint8_t *direction;         /* w*h, or NULL likewise */
    size_t next;                /* the next event to apply */
    int follow_published;       /* 1: the header lists a field of the stream's
                                   radius: search again when it is published */
} ff_eventmap;

/* FF_OK when every map event of notes is a rectangle of cells of g (x0 <=
 * x1, y0 <= y1, inside the map); FF_EINPUT naming the trace's line in
 * name otherwise. */
ff_status ff_eventmap_check(const ff_grid *g, const ff_trace_notes *notes, const char *name,
                            ff_error *err);

/* Check the notes' events against f (ff_eventmap_check) and prepare m.
 * redraw_field: the picture shows distances or directions, which are then
 * searched again; a turn-cost field's cannot be (FF_EUSAGE when there is
 * a map event).  name names the trace in messages.  FF_ENOMEM. */
ff_status ff_eventmap_init(ff_eventmap *m, const ff_field *f, const ff_trace_notes *notes,
                           int redraw_field, const char *name, ff_error *err);

/* Apply the events of ticks up to tick not yet applied; *changed is 1 when
 * the walls or the field drawn changed.  FF_ENOMEM from the search. */
ff_status ff_eventmap_advance(ff_eventmap *m, double tick, int *changed, ff_error *err);

/* The field as it is now, for ff_draw_begin: valid until the next advance
 * or ff_eventmap_free. */
const ff_field *ff_eventmap_field(const ff_eventmap *m);

void ff_eventmap_free(ff_eventmap *m);

#ifdef __cplusplus
}
#endif

#endif
