/* options.h - what every program's command line shares: the version, and
 * strict parsing of option values (the whole word, finite, in range). */
#ifndef FF_OPTIONS_H
#define FF_OPTIONS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FF_VERSION "0.1.0"

/* Parse a cell, two integers "X,Y" as in -g 40,12, or "X Y" (blanks
 * between them, or around the comma); 0 on success. */
int ff_parse_cell(const char *s, long long *x, long long *y);

/* Parse a point, two finite numbers "X,Y" or "X Y" as ff_parse_cell
 * separates them (strtod's forms: 2.5,7 or 1e3 4); 0 on success. */
int ff_parse_point(const char *s, double *x, double *y);

/* Parse a finite real number; 0 on success. */
int ff_parse_real(const char *s, double *out);

/* Parse an integer in [lo, hi]; 0 on success. */
int ff_parse_int(const char *s, long long lo, long long hi, long long *out);

/* Parse a whole number in the range id of ranges.h (an ff_range_id);
 * 0 on success. */
int ff_parse_int_in(const char *s, int id, long long *out);

/* --max-cells N, shared by every reader: N in 1..2^32-1 into *out.
 * Returns 0, or prints the usage line and returns 2. */
int ff_option_max_cells(const char *prog, const char *s, uint64_t *out);

/* --max-memory SIZE: a number of bytes, 1 or more, with an optional
 * suffix K, M or G (binary: 1024, 1024^2, 1024^3; either case), below
 * 2^63, into *out.  Returns 0, or prints the usage line and returns 2. */
int ff_option_memory(const char *prog, const char *option, const char *s, uint64_t *out);

/* The value s of an output option (-o, --summary, --split): the empty
 * name is refused before any work is done.  Returns 0, or prints the
 * usage line and returns 2. */
int ff_option_output(const char *prog, const char *option, const char *s);

/* A program about to write binary (an ff stream, a PNG, .npy, doubles)
 * to out_path, NULL or "-" meaning standard output: refused when that is
 * a terminal, as gzip and zstd do.  text_option names the option that
 * writes text instead, or is NULL.  Returns 0, or prints "prog: refusing
 * to write binary to a terminal: use -o FILE or TEXT_OPTION" and returns
 * 2, before any work is done. */
int ff_option_binary_output(const char *prog, const char *out_path, const char *text_option);

/* Print one line "prog: MESSAGE (see prog --help)" to stderr, MESSAGE being
 * fmt with arg in place of its one %s; returns 2, the exit status of bad
 * usage.  MESSAGE reads "what: why", the what naming the option and its
 * value ("--moves '5': not 4 or 8"). */
int ff_usage_error(const char *prog, const char *fmt, const char *arg);

/* "prog: OPTION 'ARG': not a number RANGE (see prog --help)" for the
 * range id of ranges.h (an ff_range_id); returns 2. */
int ff_range_error(const char *prog, const char *option, const char *arg, int id);

/* After getopt_long returned c, '?' or ':' (the option string starting
 * with ':', opterr 0): one usage line "prog: -x: unknown option" or
 * "prog: -x: needs a value"; returns 2. */
int ff_bad_option(const char *prog, int c, char **argv);

/* Print "prog VERSION" to stdout (for --version); returns
 * ff_stdout_done(prog). */
int ff_print_version(const char *prog);

/* After --help or --version: flush stdout; on a write error print
 * "prog: -: write error: REASON" and return 3, else return 0. */
int ff_stdout_done(const char *prog);

#ifdef __cplusplus
}
#endif

#endif
