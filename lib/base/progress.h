/* progress.h - progress of a long run on standard error (ffsim's ticks,
 * ffbuild --goal-sets' fields, ffpng --animate's frames): one line,
 * "prog: WHAT DONE/TOTAL (P%)", that overwrites itself (carriage return)
 * and is erased at the end, so that what follows on the terminal starts
 * on a clean line (not a terminal, a file: ended with a newline, so that
 * what follows is a line of its own).  Written when the stream is a
 * terminal or when asked (--progress), never otherwise.  The line is rewritten when its percent
 * changes, at most 101 times a run however long: the work done decides,
 * never the clock, so the bytes written are the same on every run.
 */
#ifndef FF_PROGRESS_H
#define FF_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    FILE *f;            /* where the line goes; NULL: nowhere */
    const char *prog;   /* the program's name, borrowed */
    const char *what;   /* what is counted ("tick", "field"), borrowed */
    uint64_t total;     /* the count at the end, >= 1 */
    int percent;        /* of the line shown; -1 before the first */
    int width;          /* its length, to erase it */
    int terminal;       /* 1: f is a terminal (erased), else ended */
} ff_progress;

/* Whether to show progress on f: asked for (forced), or f a terminal. */
int ff_progress_wanted(FILE *f, int forced);

/* Begin: f NULL (or not wanted) shows nothing; the first update shows
 * the line. */
void ff_progress_begin(ff_progress *p, FILE *f, const char *prog, const char *what,
                       uint64_t total);

/* done of total: the line rewritten when its percent changed. */
void ff_progress_update(ff_progress *p, uint64_t done);

/* Erase the line (blanks over it, then a carriage return; a newline when
 * f is not a terminal) before another message; the next update shows it
 * again. */
void ff_progress_clear(ff_progress *p);

/* Erase the line and show no more. */
void ff_progress_end(ff_progress *p);

#ifdef __cplusplus
}
#endif

#endif
