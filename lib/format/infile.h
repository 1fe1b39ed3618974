/* infile.h - opening an input named on the command line: a file, or "-"
 * for standard input.  A name that cannot be opened or that is a folder is
 * bad input (exit status 2), said in one sentence naming the file; only a
 * failure of the system itself (no memory, too many open files) is
 * FF_EIO.
 */
#ifndef FF_INFILE_H
#define FF_INFILE_H

#include <stdio.h>

#include "fferror.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Open path ("-": stdin) for reading in binary mode.  Returns the stream,
 * or NULL with err set: "cannot open: REASON" or "is a folder, not a
 * file" (standard input redirected from a folder included). */
FILE *ff_infile_open(const char *path, ff_error *err);

/* The status of a failed open with errno errnum: FF_ENOMEM for no
 * memory, FF_EIO for the system's other faults (too many open files, an
 * I/O error), FF_EINPUT for the rest (a missing, unreadable or badly named
 * file, the user's to fix). */
ff_status ff_open_status(int errnum);

/* Close what ff_infile_open returned (stdin is left open); NULL is
 * allowed. */
void ff_infile_close(FILE *f);

#ifdef __cplusplus
}
#endif

#endif
