/* fferror.c - the error record; see fferror.h. */
#include "fferror.h"

#include <stdarg.h>
#include <string.h>

void ff_error_clear(ff_error *err)
{
    if (!err)
        return;
    memset(err, 0, sizeof *err);
    err->byte = -1;
}

static void set_place(ff_error *err, ff_status status, const char *file)
{
    ff_error_clear(err);
    err->status = status;
    if (file)
        snprintf(err->file, sizeof err->file, "%s", file);
}

ff_status ff_error_set(ff_error *err, ff_status status, const char *file,
                       long line, long col, const char *fmt, ...)
{
    va_list ap;

    if (!err)
        return status;
    set_place(err, status, file);
    err->line = line;
    err->col = col;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return status;
}

ff_status ff_error_at_byte(ff_error *err, ff_status status, const char *file,
                           long long byte, const char *fmt, ...)
{
    va_list ap;

    if (!err)
        return status;
    set_place(err, status, file);
    err->byte = byte;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return status;
}

/* Write s with every control byte as \xNN: a message echoes input bytes
 * (a goal's word, a file name), and an escape sequence in them must not
 * reach the terminal, nor a newline split the one line. */
static void put_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == 0x7f)
            fprintf(f, "\\x%02x", c);
        else
            putc(c, f);
    }
}

void ff_error_print(FILE *f, const char *prog, const ff_error *err)
{
    fprintf(f, "%s: ", prog);
    if (err->file[0]) {
        put_escaped(f, err->file);
        if (err->byte >= 0)
            fprintf(f, ": byte %lld", err->byte);
        else if (err->line > 0 && err->col > 0)
            fprintf(f, ":%ld:%ld", err->line, err->col);
        else if (err->line > 0)
            fprintf(f, ":%ld", err->line);
        fputs(": ", f);
    }
    put_escaped(f, err->msg[0] ? err->msg : "unknown error");
    putc('\n', f);
}

int ff_exit_status(ff_status status)
{
    switch (status) {
    case FF_OK:
        return 0;
    case FF_ENOTFOUND:
        return 1;
    case FF_EINPUT:
    case FF_EUSAGE:
        return 2;
    case FF_ENOMEM:
    case FF_EIO:
    default:
        return 3;
    }
}
