/* progress.c - a line of progress that overwrites itself; see progress.h. */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <unistd.h>

int ff_progress_wanted(FILE *f, int forced)
{
    return forced || isatty(fileno(f));
}

void ff_progress_begin(ff_progress *p, FILE *f, const char *prog, const char *what,
                       uint64_t total)
{
    p->f = f;
    p->prog = prog;
    p->what = what;
    p->total = total ? total : 1;
    p->percent = -1;
    p->width = 0;
    p->terminal = f && isatty(fileno(f));
}

void ff_progress_update(ff_progress *p, uint64_t done)
{
    int percent, n;

    if (!p->f)
        return;
    if (done > p->total)
        done = p->total;
    percent = (int)(100.0 * (double)done / (double)p->total);
    if (percent == p->percent)
        return;
    p->percent = percent;
    n = fprintf(p->f, "\r%s: %s %llu/%llu (%d%%)", p->prog, p->what, (unsigned long long)done,
                (unsigned long long)p->total, percent);
    if (n - 1 > p->width)
        p->width = n - 1;
    fflush(p->f);
}

void ff_progress_clear(ff_progress *p)
{
    if (!p->f || p->percent < 0)
        return;
    if (p->terminal)
        fprintf(p->f, "\r%*s\r", p->width, "");
    else
        putc('\n', p->f);
    fflush(p->f);
    p->percent = -1;
}

void ff_progress_end(ff_progress *p)
{
    ff_progress_clear(p);
    p->f = NULL;
}
