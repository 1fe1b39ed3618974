/* outfile.h - atomic output: -o FILE is written to a temporary file in the
 * same folder and renamed over FILE only after a successful, flushed,
 * closed write, so a failed run never leaves a half-written or truncated
 * file and an earlier FILE survives whole.  A FILE that exists and is not
 * a regular file (a device such as /dev/null, a FIFO) is written in place.
 * A run stopped by SIGINT, SIGTERM, SIGHUP or SIGPIPE while a temporary
 * file is open removes it first (handlers installed at the first open,
 * for signals whose disposition is still the default).
 */
#ifndef FF_OUTFILE_H
#define FF_OUTFILE_H

#include <stdio.h>

#include "fferror.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    FILE *f;       /* where to write */
    char *path;    /* the final name, or NULL for stdout */
    char *tmp;     /* the temporary name, or NULL for stdout and devices */
} ff_outfile;

/* Open path for writing (NULL or "-" means standard output). */
ff_status ff_outfile_open(ff_outfile *o, const char *path, ff_error *err);

/* Finish: flush, check, close and rename into place (for stdout: flush and
 * check).  On failure the temporary file is removed. */
ff_status ff_outfile_commit(ff_outfile *o, ff_error *err);

/* The first half of a commit: flush, check, sync and close, but do not
 * rename yet (a program with two outputs finishes both, then commits
 * both, so that a write error in either leaves neither).  On failure the
 * temporary file is removed. */
ff_status ff_outfile_finish(ff_outfile *o, ff_error *err);

/* 1 when output names a and b (NULL or "-": standard output, never the
 * same) would write one file, so that the second rename would replace the
 * first: the same name, the same existing regular file under two names
 * (links, ./ and the like), or one name in one folder reached by two
 * paths.  A device or FIFO (written in place, not renamed) is never the
 * same. */
int ff_outfile_same(const char *a, const char *b);

/* Give up: close and remove the temporary file (stdout is left alone). */
void ff_outfile_abort(ff_outfile *o);

/* Make sure dir is a folder to write files in (ffbuild --split, ffexport
 * --all), creating it when it is missing (one level).  FF_EIO when it
 * cannot be created, FF_EINPUT when dir is something else. */
ff_status ff_outfile_folder(const char *dir, ff_error *err);

#ifdef __cplusplus
}
#endif

#endif
