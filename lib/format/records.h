/* records.h - the text formats for points, paths, goals and portals: one
 * record a line, numbers separated by spaces or tabs, '#' starts a comment,
 * blank lines are skipped (man 1 ffbuild, --goals; man 1 ffpull, fffunnel and
 * ffpng, the formats of their inputs).
 */
#ifndef FF_RECORDS_H
#define FF_RECORDS_H

#include <stdio.h>

#include "fferror.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FF_RECORD_MAX 16         /* most numbers in one record */
#define FF_RECORD_LINE_MAX 4096  /* longest accepted line, bytes */

typedef struct {
    FILE *f;
    const char *name;  /* for messages; "-" is stdin */
    long line;         /* number of the line last read */
    unsigned integers; /* after ff_records_next: bit k set when number k
                          of the record was written as an integer (an
                          optional sign and digits only, no point or
                          exponent): ffquery tells a cell from a world
                          position by it */
} ff_records;

void ff_records_init(ff_records *r, FILE *f, const char *name);

/* Whether the number text from s to end is an integer as records are told
 * apart by (ff_records.integers): an optional sign and digits only. */
int ff_integer_text(const char *s, const char *end);

/* Read the next line, without its newline, into buf (FF_RECORD_LINE_MAX
 * bytes); a NUL byte becomes byte 1.  Returns 1 on a line, 0 at the end
 * of input, -1 on error (a line too long, a read error).  For formats whose
 * lines are not all numbers (ffsim's trace). */
int ff_records_line(ff_records *r, char *buf, ff_error *err);

/* Read the next record of finite numbers.  Its count must lie in
 * [min, max] (max <= FF_RECORD_MAX).  Returns FF_OK with *count set,
 * FF_ENOTFOUND at the end of input, or FF_EINPUT naming the line and
 * column of the bad value. */
ff_status ff_records_next(ff_records *r, double *value, int min, int max,
                         int *count, ff_error *err);

#ifdef __cplusplus
}
#endif

#endif
