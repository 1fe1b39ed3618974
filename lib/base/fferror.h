/* fferror.h - status codes and the error record that every libff call fills.
 *
 * The library never prints and never exits: a failing call returns one of
 * the codes below and, when it is given an ff_error, describes the failure
 * there (file, place, sentence).  Programs print the record with
 * ff_error_print() and exit with ff_exit_status().
 */
#ifndef FF_ERROR_H
#define FF_ERROR_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    FF_OK = 0,
    FF_EINPUT = 1,   /* malformed or refused input (exit status 2) */
    FF_EUSAGE = 2,   /* bad option or argument (exit status 2) */
    FF_ENOMEM = 3,   /* out of memory (exit status 3) */
    FF_EIO = 4,      /* read or write failed (exit status 3) */
    FF_ENOTFOUND = 5 /* a negative answer that is not an error (exit 1) */
} ff_status;

/* Where a failure happened.  line and col count from 1; 0 means unknown.
 * byte >= 0 is an offset into a binary payload (used instead of line:col). */
typedef struct {
    ff_status status;
    char file[256];  /* input name as the user gave it; "-" is stdin */
    long line;
    long col;
    long long byte;  /* -1 when not a binary offset */
    char msg[512];
} ff_error;

/* Reset a record (status FF_OK, no place). */
void ff_error_clear(ff_error *err);

/* Fill a record and return status.  err may be NULL.  file may be NULL. */
ff_status ff_error_set(ff_error *err, ff_status status, const char *file,
                       long line, long col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* As ff_error_set, for a byte offset into binary input. */
ff_status ff_error_at_byte(ff_error *err, ff_status status, const char *file,
                           long long byte, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Print "prog: file:line:col: msg" (or "prog: file: byte N: msg") on one
 * line to f. */
void ff_error_print(FILE *f, const char *prog, const ff_error *err);

/* The process exit status of a status code, as each program's man page
 * gives it (EXIT STATUS): 0 FF_OK, 1 FF_ENOTFOUND, 2 bad input or usage,
 * 3 a system fault. */
int ff_exit_status(ff_status status);

#ifdef __cplusplus
}
#endif

#endif
