/* fieldsel.h - one field out of a multi-field stream, chosen by its `name`
 * (ffbuild --goal-sets writes such streams; ffquery and ffpng read one
 * field with --name NAME), and the list of the names (--list).
 *
 * Both read the whole input, one field at a time, so that an ambiguous
 * choice (two fields of the same name, or several fields and no name
 * asked for) is refused rather than settled by position.  At most two
 * fields are held at once.
 */
#ifndef FF_FIELDSEL_H
#define FF_FIELDSEL_H

#include <stdio.h>

#include "stream.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Read every field of r and keep in *out the one whose name is name; with
 * name NULL, the only field of the stream, named or not.  Refuses
 * (FF_EINPUT, naming r's input): no field named so (the message lists the
 * names there are), two fields of that name, several fields and no name
 * asked for (the message lists the names), an empty input; and passes on
 * any error of ff_field_read.  On success *out is the caller's to release
 * with ff_field_free; on failure it is empty. */
ff_status ff_field_select(ff_reader *r, const char *name, ff_field *out, ff_error *err);

/* Read every field of r and write its name to out, one a line, in stream
 * order; a field without a name is written as `-`.  Returns FF_OK, an
 * error of ff_field_read, FF_EINPUT for an empty input, or FF_EIO when
 * writing fails. */
ff_status ff_field_list(ff_reader *r, FILE *out, ff_error *err);

/* --list of a program: the names of the fields of the stream at path ("-":
 * stdin; at most max_cells cells a field, 0 for the default) written to
 * out_path (NULL or "-": stdout) atomically, as ff_field_list.  Returns
 * FF_OK or the failure, with err naming the file. */
ff_status ff_field_list_file(const char *path, uint64_t max_cells, const char *out_path,
                             ff_error *err);

#ifdef __cplusplus
}
#endif

#endif
