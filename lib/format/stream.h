/* stream.h - the ff stream: a map and the fields made from it, as one
 * bundle (man 5 ff).
 *
 * The field it reads and writes, its channels and their types are the
 * data model of fielddata.h; the ids it checks and writes are streamid.h's.
 * A stream may hold several fields one after another (a multi-field
 * stream); ff_field_read() reads the next one.
 */
#ifndef FF_STREAM_H
#define FF_STREAM_H

#include <stdio.h>

#include "fielddata.h"
#include "grid.h"
#include "streamid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* State of a reader over one input: a file or stdin. */
typedef struct {
    FILE *f;
    const char *name;     /* as given by the user, for messages */
    long long byte;       /* bytes consumed so far */
    long line;            /* lines consumed so far (text parts) */
    uint64_t max_cells;   /* 0 = FF_MAX_CELLS_DEFAULT */
} ff_reader;

void ff_reader_init(ff_reader *r, FILE *f, const char *name);

/* Read the next field.  Returns FF_OK, FF_ENOTFOUND at a clean end of input
 * (no byte of a new field), or an error: a malformed header, a truncated
 * payload, a bad value, or ids that do not match their channels (a channel
 * from another generation). */
ff_status ff_field_read(ff_reader *r, ff_field *f, ff_error *err);

/* Write f (ids as set by ff_field_update_ids) in the
 * binary or the text encoding.  Returns FF_EIO on a write error. */
ff_status ff_field_write(FILE *out, const ff_field *f, int text, ff_error *err);

#ifdef __cplusplus
}
#endif

#endif
