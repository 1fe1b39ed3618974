/* outfile.c - atomic output; see outfile.h. */
#define _POSIX_C_SOURCE 200809L
#include "outfile.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary files being written, for a run stopped by SIGINT, SIGTERM,
 * SIGHUP or SIGPIPE: the handler removes them, then dies of the signal as
 * it would have.  (SIGKILL cannot be caught: such a run leaves its
 * temporary file, never a half-written FILE.) */
#define PENDING_MAX 256
static _Atomic(char *) pending[PENDING_MAX];
static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;
static int handlers_set;

static void on_signal(int sig)
{
    int k;
    for (k = 0; k < PENDING_MAX; k++) {
        char *p = atomic_load(&pending[k]);
        if (p)
            unlink(p);
    }
    raise(sig);  /* the handler was reset: now the default */
}

static void install_handlers(void)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
    size_t k;

    for (k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
        struct sigaction old, sa;
        if (sigaction(sigs[k], NULL, &old) != 0 || old.sa_handler != SIG_DFL)
            continue;  /* ignored (nohup) or the caller's own: leave it */
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sa.sa_flags = SA_RESETHAND;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[k], &sa, NULL);
    }
}

/* Add tmp to the table, or take it out (gone 1).  A full table only loses
 * the clean-up of the extra files. */
static void track(char *tmp, int gone)
{
    int k;
    pthread_mutex_lock(&pending_lock);
    if (!gone && !handlers_set) {
        install_handlers();
        handlers_set = 1;
    }
    for (k = 0; k < PENDING_MAX; k++) {
        char *p = atomic_load(&pending[k]);
        if (gone ? p == tmp : p == NULL) {
            atomic_store(&pending[k], gone ? NULL : tmp);
            break;
        }
    }
    pthread_mutex_unlock(&pending_lock);
}

/* The status of an output that cannot be created, with errno errnum: a
 * name the user must fix (a missing folder, no permission, a name too
 * long) is bad input; no memory, a full or read-only disk are the
 * system's. */
static ff_status create_status(int errnum)
{
    switch (errnum) {
    case ENOENT: case ENOTDIR: case EACCES: case EPERM: case ENAMETOOLONG: case ELOOP: case EISDIR:
        return FF_EINPUT;
    case ENOMEM:
        return FF_ENOMEM;
    default:
        return FF_EIO;
    }
}

ff_status ff_outfile_open(ff_outfile *o, const char *path, ff_error *err)
{
    const char *slash;
    size_t dirlen;
    mode_t mask;
    int fd;

    struct stat sb;
    int exists;

    memset(o, 0, sizeof *o);
    if (!path || strcmp(path, "-") == 0) {
        o->f = stdout;
        return FF_OK;
    }
    if (!path[0])
        return ff_error_set(err, FF_EUSAGE, "''", 0, 0, "an empty file name");
    exists = stat(path, &sb) == 0;
    if (exists && S_ISDIR(sb.st_mode))
        return ff_error_set(err, FF_EUSAGE, path, 0, 0, "is a folder: name a file to write");
    /* A device or a FIFO (-o /dev/null, a pipe) is written in place: a
     * rename would replace the device with a plain file. */
    {
        if (exists && !S_ISREG(sb.st_mode)) {
            o->f = fopen(path, "wb");
            if (!o->f)
                return ff_error_set(err, create_status(errno), path, 0, 0, "cannot open: %s",
                                    strerror(errno));
            o->path = strdup(path);
            if (!o->path) {
                fclose(o->f);
                o->f = NULL;
                return ff_error_set(err, FF_ENOMEM, path, 0, 0, "out of memory");
            }
            return FF_OK;
        }
    }
    slash = strrchr(path, '/');
    dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    o->path = strdup(path);
    o->tmp = malloc(strlen(path) + 16);
    if (!o->path || !o->tmp) {
        ff_outfile_abort(o);
        return ff_error_set(err, FF_ENOMEM, path, 0, 0, "out of memory");
    }
    /* DIR/.NAME.XXXXXX: same folder, so the rename is atomic; DIR/.ff.XXXXXX
     * when that is too long a name for the folder's file system (a legal
     * NAME of 250 bytes). */
    memcpy(o->tmp, path, dirlen);
    sprintf(o->tmp + dirlen, ".%s.XXXXXX", path + dirlen);
    fd = mkstemp(o->tmp);
    if (fd < 0 && errno == ENAMETOOLONG) {
        strcpy(o->tmp + dirlen, ".ff.XXXXXX");
        fd = mkstemp(o->tmp);
    }
    if (fd < 0) {
        ff_status st = ff_error_set(err, create_status(errno), path, 0, 0,
                                    "cannot create a file beside it: %s", strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        ff_outfile_abort(o);
        return st;
    }
    track(o->tmp, 0);
    /* The file replaced keeps its permissions (a private 0600 file stays
     * private); a new one gets 0666 less the umask, as open(2) gives. */
    if (exists) {
        fchmod(fd, sb.st_mode & 07777);
    } else {
        mask = umask(0);
        umask(mask);
        fchmod(fd, 0666 & ~mask);
    }
    o->f = fdopen(fd, "wb");
    if (!o->f) {
        close(fd);
        ff_outfile_abort(o);
        return ff_error_set(err, FF_EIO, path, 0, 0, "cannot open: %s", strerror(errno));
    }
    return FF_OK;
}

/* The folder of path (its name up to the last slash, or ".") stat'ed
 * into sb; 0 on success. */
static int stat_folder(const char *path, struct stat *sb)
{
    const char *slash = strrchr(path, '/');
    char *dir;
    int r;

    if (!slash)
        return stat(".", sb);
    if (!(dir = malloc((size_t)(slash - path) + 2)))
        return -1;
    memcpy(dir, path, (size_t)(slash - path) + 1);
    dir[slash - path + 1] = '\0';
    r = stat(dir, sb);
    free(dir);
    return r;
}

int ff_outfile_same(const char *a, const char *b)
{
    struct stat sa, sb;
    int has_a, has_b;
    const char *base_a, *base_b;

    if (!a || !b || strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
        return 0;
    has_a = stat(a, &sa) == 0;
    has_b = stat(b, &sb) == 0;
    if ((has_a && !S_ISREG(sa.st_mode)) || (has_b && !S_ISREG(sb.st_mode)))
        return 0;  /* a device, a FIFO: written in place */
    if (strcmp(a, b) == 0)
        return 1;
    if (has_a && has_b)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (has_a || has_b)
        return 0;
    /* Neither exists yet: one name in one folder. */
    base_a = strrchr(a, '/') ? strrchr(a, '/') + 1 : a;
    base_b = strrchr(b, '/') ? strrchr(b, '/') + 1 : b;
    return strcmp(base_a, base_b) == 0 && stat_folder(a, &sa) == 0 && stat_folder(b, &sb) == 0 &&
           sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

ff_status ff_outfile_finish(ff_outfile *o, ff_error *err)
{
    int bad;

    if (!o->f)
        return FF_OK;  /* finished already */
    if (!o->path) {
        /* Close stdout and check it, as OpenBSD's cat does: a full disk
         * behind a redirection is an error too. */
        bad = fflush(o->f) != 0 || ferror(o->f);
        if (fclose(o->f) != 0)
            bad = 1;
        o->f = NULL;
        if (bad)
            return ff_error_set(err, FF_EIO, "-", 0, 0, "write error: %s", strerror(errno));
        return FF_OK;
    }
    bad = fflush(o->f) != 0 || ferror(o->f) || (o->tmp && fsync(fileno(o->f)) != 0);
    if (fclose(o->f) != 0)
        bad = 1;
    o->f = NULL;
    if (bad) {
        ff_status st = ff_error_set(err, FF_EIO, o->path, 0, 0, "write error: %s", strerror(errno));
        ff_outfile_abort(o);
        return st;
    }
    return FF_OK;
}

ff_status ff_outfile_commit(ff_outfile *o, ff_error *err)
{
    ff_status st;

    if (!o->path && !o->f)
        return FF_OK;  /* stdout, finished */
    if ((st = ff_outfile_finish(o, err)) != FF_OK)
        return st;
    if (o->tmp && rename(o->tmp, o->path) != 0) {
        st = ff_error_set(err, create_status(errno), o->path, 0, 0, "write error: %s", strerror(errno));
        ff_outfile_abort(o);
        return st;
    }
    if (o->tmp)
        track(o->tmp, 1);
    free(o->tmp);
    free(o->path);
    o->tmp = o->path = NULL;
    return FF_OK;
}

void ff_outfile_abort(ff_outfile *o)
{
    if (o->f && o->path)
        fclose(o->f);
    o->f = NULL;
    if (o->tmp) {
        unlink(o->tmp);
        track(o->tmp, 1);
    }
    free(o->tmp);
    free(o->path);
    o->tmp = o->path = NULL;
}

ff_status ff_outfile_folder(const char *dir, ff_error *err)
{
    struct stat sb;

    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return ff_error_set(err, create_status(errno), dir, 0, 0,
                            "cannot create the folder: %s", strerror(errno));
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return ff_error_set(err, FF_EINPUT, dir, 0, 0, "not a folder");
    return FF_OK;
}
