/* infile.c - opening command-line inputs; see infile.h. */
#define _POSIX_C_SOURCE 200809L
#include "infile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/vfs.h>
#endif

/* Whether the open file fd lies in a kernel file system (/proc, /sys and
 * the like), whose files say size 0 or 4096 whatever they hold and may
 * change as they are read. */
static int kernel_file(int fd)
{
#ifdef __linux__
    /* The magic numbers of linux/magic.h. */
    static const unsigned long kernel_fs[] = {
        0x9fa0,      /* proc */
        0x62656572,  /* sysfs */
        0x64626720,  /* debugfs */
        0x74726163,  /* tracefs */
        0x73636673,  /* securityfs */
        0x27e0eb,    /* cgroup */
        0x63677270,  /* cgroup2 */
    };
    struct statfs fs;
    size_t k;

    if (fstatfs(fd, &fs) != 0)
        return 0;
    for (k = 0; k < sizeof kernel_fs / sizeof kernel_fs[0]; k++)
        if ((unsigned long)fs.f_type == kernel_fs[k])
            return 1;
#else
    (void)fd;
#endif
    return 0;
}

/* What a file of mode m is, when it is not a regular file. */
static const char *kind(mode_t m)
{
    return S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" : "a device";
}

FILE *ff_file_open_regular(const char *path, ff_error *err)
{
    struct stat sb;
    int fd, flags;
    FILE *f;

    /* O_NONBLOCK: opening a FIFO with no writer (or a terminal) must not
     * wait; what is not a regular file is refused before any read. */
    fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0) {
        int e = errno;
        ff_error_set(err, ff_open_status(e), path, 0, 0, "cannot open: %s", strerror(e));
        return NULL;
    }
    if (fstat(fd, &sb) != 0) {
        int e = errno;
        ff_error_set(err, e == ENOMEM ? FF_ENOMEM : FF_EIO, path, 0, 0, "cannot open: %s",
                     strerror(e));
        close(fd);
        return NULL;
    }
    if (S_ISDIR(sb.st_mode)) {
        ff_error_set(err, FF_EINPUT, path, 0, 0, "is a folder, not a file");
        close(fd);
        return NULL;
    }
    if (!S_ISREG(sb.st_mode) || kernel_file(fd)) {
        ff_error_set(err, FF_EINPUT, path, 0, 0,
                     "not a regular file (%s)",
                     S_ISREG(sb.st_mode) ? "a /proc or /sys file" : kind(sb.st_mode));
        close(fd);
        return NULL;
    }
    if ((flags = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0 ||
        !(f = fdopen(fd, "rb"))) {
        int e = errno;
        ff_error_set(err, e == ENOMEM ? FF_ENOMEM : FF_EIO, path, 0, 0, "cannot open: %s",
                     strerror(e));
        close(fd);
        return NULL;
    }
    return f;
}

FILE *ff_infile_open(const char *path, ff_error *err)
{
    struct stat sb;

    if (!path[0]) {  /* named in the message, which would otherwise lose it */
        ff_error_set(err, FF_EINPUT, "''", 0, 0,
                     "cannot open: an empty name (name a file, or - for standard input)");
        return NULL;
    }
    if (strcmp(path, "-") != 0)
        return ff_file_open_regular(path, err);
    /* Standard input may be a pipe, a terminal or a file, never a folder. */
    if (fstat(fileno(stdin), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        ff_error_set(err, FF_EINPUT, path, 0, 0, "is a folder, not a file");
        return NULL;
    }
    return stdin;
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
