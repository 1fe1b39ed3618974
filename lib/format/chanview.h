/* chanview.h - the channels of a field as one list, whatever their home in
 * ff_field (the grid's cost, oneway and class, the distance, direction and
 * heading channels, the extra channels): name, type, lanes, values and id,
 * in the order the stream writes them (man 5 ff).  For the programs that
 * describe or export any channel by name (ffinfo, ffexport).
 */
#ifndef FF_CHANVIEW_H
#define FF_CHANVIEW_H

#include "stream.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const char *name;  /* the channel's name; the field's or a constant */
    ff_type type;
    int lanes;         /* values per cell: 1, 2 (TYPEx2) or 8 (TYPEx8) */
    const void *data;  /* w*h*lanes values, cell-major, native byte order;
                          borrowed from the field */
    int has_id;        /* 1: the stream has an 'id NAME' for the channel */
    uint64_t id;       /* with has_id: that id (as checked by the reader) */
} ff_channel_view;

/* How many channels f has (at least 1, the cost). */
size_t ff_field_channel_count(const ff_field *f);

/* Fill out[0 .. ff_field_channel_count(f) - 1] with f's channels, in
 * stream order.  The views point into f: they live as long as it does. */
void ff_field_channels(const ff_field *f, ff_channel_view *out);

/* The channel of f named name into *out; returns 1, or 0 when f has none
 * so named. */
int ff_field_find_channel(const ff_field *f, const char *name, ff_channel_view *out);

/* The names of f's channels, "cost, distance, ...", into buf (cap bytes,
 * at least 48) for a message; a list that does not fit ends in "...". */
void ff_field_channel_names(const ff_field *f, char *buf, size_t cap);

/* Value k (0 .. w*h*lanes - 1) of the channel, as a double (exact for
 * every type). */
double ff_channel_value(const ff_channel_view *v, size_t k);

/* Write value, a value of type t, into buf (cap bytes, at least
 * FF_REAL_TEXT_MAX): an integer type in decimal, an f32 or f64 with the
 * fewest digits that read back to the same bits (realfmt.h), +inf as
 * "inf".  Returns the length. */
size_t ff_format_value(ff_type t, double value, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
