/* export.h - one channel of a field written for other tools (man 1
 * ffexport): numpy's .npy format (version 1.0), CSV rows `x,y,value`, or
 * the raw values, little-endian.  Every byte is written in a declared
 * order, so the output is the same on every host.
 */
#ifndef FF_EXPORT_H
#define FF_EXPORT_H

#include <stdio.h>

#include "chanview.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { FF_EXPORT_NPY = 0, FF_EXPORT_CSV, FF_EXPORT_RAW } ff_export_format;

/* The format that a file name's extension names: ".npy", ".csv" or ".raw"
 * (any case) into *out; returns 1, or 0 for any other name. */
int ff_export_format_of(const char *path, ff_export_format *out);

/* The numpy dtype of a channel type: "|u1", "<u2", "<u4", "<i4", "<f4" or
 * "<f8". */
const char *ff_npy_descr(ff_type t);

/* Write the channel ch of a w x h field to out in format fmt:
 * - NPY: the magic "\x93NUMPY", version 1.0, the header dict {'descr':
 *   DTYPE, 'fortran_order': False, 'shape': (h, w)} ((h, w, 8) for an x8
 *   channel, (h, w, 2) for an x2 one) padded with blanks to end in a newline at a multiple of 64
 *   bytes, then the values in cell order, little-endian;
 * - CSV: a line "x,y,value" ("x,y,lane,value" for an x8 or x2 channel), then
 *   one line per value in cell order, the value as ff_format_value
 *   writes it (the fewest digits that read back to the same bits, inf for
 *   +inf);
 * - RAW: the values alone, in cell order, little-endian (w*h*lanes times
 *   the type's size bytes).
 * Returns FF_OK, FF_ENOMEM, or FF_EIO for a write error (err without a
 * file: the caller names it). */
ff_status ff_export_channel(FILE *out, const ff_channel_view *ch, int32_t w, int32_t h,
                            ff_export_format fmt, ff_error *err);

#ifdef __cplusplus
}
#endif

#endif
