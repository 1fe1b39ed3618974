/* words.c - the words of a scenario line; see words.h. */
#include "words.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "options.h"

int ff_split_words(char *buf, ff_word *w, int max)
{
    char *p = buf;
    int n = 0;

    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r')
            p++;
        if (!*p || *p == '#')
            return n;
        if (n == max)
            return -1;
        w[n].text = p;
        w[n].col = (long)(p - buf) + 1;
        n++;
        while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '#')
            p++;
        if (*p == '#') {
            *p = '\0';
            return n;
        }
        if (*p)
            *p++ = '\0';
    }
}

int ff_parse_reals(const char *s, double *v, int n)
{
    int k;
    for (k = 0; k < n; k++) {
        char *end;
        errno = 0;
        v[k] = strtod(s, &end);
        if (end == s || !isfinite(v[k]))
            return 0;
        if (k + 1 < n) {
            if (*end != ',')
                return 0;
            s = end + 1;
        } else if (*end != '\0') {
            return 0;
        }
    }
    return 1;
}

int ff_take_point(const ff_word *w, int n, int k, double xy[2], char *text, size_t size)
{
    if (k < n && ff_parse_reals(w[k].text, xy, 2)) {
        snprintf(text, size, "%s", w[k].text);
        return 1;
    }
    if (k + 1 < n && ff_parse_real(w[k].text, &xy[0]) == 0 &&
        ff_parse_real(w[k + 1].text, &xy[1]) == 0) {
        snprintf(text, size, "%s %s", w[k].text, w[k + 1].text);
        return 2;
    }
    return 0;
}
