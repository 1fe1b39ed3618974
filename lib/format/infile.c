/* infile.c - opening command-line inputs; see infile.h. */
#define _POSIX_C_SOURCE 200809L
#include "infile.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

FILE *ff_infile_open(const char *path, ff_error *err)
{
    int is_stdin = strcmp(path, "-") == 0;
    FILE *f;
    struct stat sb;

    if (!path[0]) {  /* named in the message, which would otherwise lose it */
        ff_error_set(err, FF_EINPUT, "''", 0, 0,
                     "cannot open: an empty name (name a file, or - for standard input)");
        return NULL;
    }
    f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        int e = errno;
        ff_error_set(err, ff_open_status(e), path, 0, 0, "cannot open: %s", strerror(e));
        return NULL;
    }
    if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        ff_error_set(err, FF_EINPUT, path, 0, 0, "is a folder, not a file");
        ff_infile_close(f);
        return NULL;
    }
    return f;
}

ff_status ff_open_status(int errnum)
{
    if (errnum == ENOMEM)
        return FF_ENOMEM;
    return errnum == EMFILE || errnum == ENFILE || errnum == EIO ? FF_EIO : FF_EINPUT;
}

void ff_infile_close(FILE *f)
{
    if (f && f != stdin)
        fclose(f);
}
