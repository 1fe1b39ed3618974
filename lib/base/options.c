/* options.c - command-line value parsing; see options.h. */
#define _POSIX_C_SOURCE 200809L
#include "options.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ranges.h"

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* The start of the second number of a pair whose first ends at s: after
 * a comma, blanks, or a comma between blanks; NULL when there is none. */
static const char *second_of_pair(const char *s)
{
    const char *start = s;

    while (is_blank(*s))
        s++;
    if (*s == ',')
        for (s++; is_blank(*s); s++)
            ;
    return s == start ? NULL : s;
}

/* Whether only blanks follow s. */
static int only_blanks(const char *s)
{
    while (is_blank(*s))
        s++;
    return !*s;
}

int ff_parse_cell(const char *s, long long *x, long long *y)
{
    char *end;

    errno = 0;
    *x = strtoll(s, &end, 10);
    if (end == s || errno || !(s = second_of_pair(end)))
        return -1;
    *y = strtoll(s, &end, 10);
    return end == s || errno || !only_blanks(end) ? -1 : 0;
}

int ff_parse_point(const char *s, double *x, double *y)
{
    char *end;

    *x = strtod(s, &end);
    if (end == s || !isfinite(*x) || !(s = second_of_pair(end)))
        return -1;
    *y = strtod(s, &end);
    return end == s || !isfinite(*y) || !only_blanks(end) ? -1 : 0;
}

int ff_parse_real(const char *s, double *out)
{
    char *end;

    errno = 0;
    *out = strtod(s, &end);
    return end == s || *end || !isfinite(*out) ? -1 : 0;
}

int ff_parse_int(const char *s, long long lo, long long hi, long long *out)
{
    char *end;

    errno = 0;
    *out = strtoll(s, &end, 10);
    return end == s || *end || errno || *out < lo || *out > hi ? -1 : 0;
}

int ff_usage_error(const char *prog, const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: ", prog);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see %s --help)\n", prog);
    return 2;
}

int ff_range_error(const char *prog, const char *option, const char *arg, int id)
{
    fprintf(stderr, "%s: %s '%s': not a number %s (see %s --help)\n", prog, option, arg,
            ff_range_text((ff_range_id)id), prog);
    return 2;
}

int ff_parse_int_in(const char *s, int id, long long *out)
{
    const ff_range *r = &ff_ranges[id];

    return ff_parse_int(s, (long long)r->min, (long long)r->max, out);
}

int ff_option_max_cells(const char *prog, const char *s, uint64_t *out)
{
    long long v;

    if (ff_parse_int_in(s, FF_RANGE_MAX_CELLS, &v))
        return ff_usage_error(prog, "--max-cells '%s': not a whole number 1 to 4294967295", s);
    *out = (uint64_t)v;
    return 0;
}

int ff_option_memory(const char *prog, const char *option, const char *s, uint64_t *out)
{
    static const char suffix[] = "kmg";
    const char *p = s, *at;
    uint64_t v = 0, unit = 1;
    int digits = 0;

    for (; *p >= '0' && *p <= '9'; p++, digits++) {
        if (v > (UINT64_MAX - 9) / 10)
            break;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    if (*p && !p[1] && (at = strchr(suffix, *p | 0x20)) != NULL) {
        unit = (uint64_t)1 << (10 * (at - suffix + 1));
        p++;
    }
    if (!digits || *p || v == 0 || v > (((uint64_t)1 << 63) - 1) / unit) {
        fprintf(stderr, "%s: %s '%s': not a size in bytes, 1 or more, below 2^63, with "
                "an optional K, M or G (see %s --help)\n", prog, option, s, prog);
        return 2;
    }
    *out = v * unit;
    return 0;
}

int ff_option_output(const char *prog, const char *option, const char *s)
{
    if (s[0] == '\0')
        return ff_usage_error(prog, "%s '': an empty name", option);
    return 0;
}

int ff_option_binary_output(const char *prog, const char *out_path, const char *text_option)
{
    if ((out_path && strcmp(out_path, "-") != 0) || !isatty(STDOUT_FILENO))
        return 0;
    fprintf(stderr, "%s: refusing to write binary to a terminal: use -o FILE%s%s\n", prog,
            text_option ? " or " : "", text_option ? text_option : "");
    return 2;
}

int ff_bad_option(const char *prog, int c, char **argv)
{
    const char *word = optind > 0 ? argv[optind - 1] : "?";
    char flag[3] = { '-', 0, 0 };
    char name[64];
    size_t n;

    /* A short option (perhaps inside a group like -xq) is named by optopt;
     * a long one by the word getopt stopped at, up to any '='. */
    if (optopt > 0 && optopt < 128 && strncmp(word, "--", 2) != 0) {
        flag[1] = (char)optopt;
        word = flag;
    }
    for (n = 0; word[n] && word[n] != '=' && n + 1 < sizeof name; n++)
        name[n] = word[n];
    name[n] = '\0';
    if (c == ':')
        return ff_usage_error(prog, "%s: needs a value", name);
    return ff_usage_error(prog, "%s: unknown option", name);
}

int ff_print_version(const char *prog)
{
    printf("%s (fftools) %s\n", prog, FF_VERSION);
    return ff_stdout_done(prog);
}

int ff_stdout_done(const char *prog)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    fprintf(stderr, "%s: -: write error: %s\n", prog, errno ? strerror(errno) : "short write");
    return 3;
}
