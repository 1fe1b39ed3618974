/* exportall.h - every field of a stream exported in one pass (ffexport
 * --all, man 1 ffexport): one channel of each field, or of the fields
 * named, into a folder, one file per field named after it.
 */
#ifndef FF_EXPORTALL_H
#define FF_EXPORTALL_H

#include "export.h"
#include "stream.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Read r once, field by field (one held at a time), and write the channel
 * channel of each field, or with nnames > 0 of each field whose name is
 * one of names, to DIR/NAME.EXT in format fmt (EXT "npy", "csv" or
 * "raw"; a field without a name is "field-N", N its place in the stream
 * from 1).  dir is created when missing (one level).  All or nothing:
 * each file is written to a temporary file beside it, and they are
 * renamed into place only when every field has read and written well.
 * Refused (FF_EINPUT, nothing written): a field without the channel, two
 * fields of one file name, a name of names that no field has, an empty
 * stream; and any error of ff_field_read.  *written: the files written. */
ff_status ff_export_all(ff_reader *r, const char *const *names, size_t nnames,
                        const char *channel, ff_export_format fmt, const char *dir,
                        size_t *written, ff_error *err);

#ifdef __cplusplus
}
#endif

#endif
