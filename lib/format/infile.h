/* infile.h - opening an input named on the command line: a file, or "-"
 * for standard input.  A name that cannot be opened, a folder, and
 * anything else that is not a regular file (a FIFO, a device, a socket,
 * a file of /proc or /sys) is bad input (exit status 2), said in one
 * sentence naming the file; only a failure of the system itself (no
 * memory, too many open files) is FF_EIO.  Standard input may be a pipe.
 */
#ifndef FF_INFILE_H
#define FF_INFILE_H

#include <stdio.h>

#include "fferror.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Open path ("-": stdin) for reading in binary mode.  Returns the stream,
 * or NULL with err set: "cannot open: REASON", "is a folder, not a
 * file" (standard input redirected from a folder included) or "not a
 * regular file (WHAT)" for a named path. */
FILE *ff_infile_open(const char *path, ff_error *err);

/* Open the named file path (never "-") for reading: opened without
 * blocking (a FIFO with no writer does not hang), fstat'ed, refused unless
 * a regular file outside /proc and /sys.  Returns the stream, or NULL with
 * err set as ff_infile_open says (err->file is path). */
FILE *ff_file_open_regular(const char *path, ff_error *err);

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
