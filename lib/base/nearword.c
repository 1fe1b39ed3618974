/* nearword.c - the words near an unknown one; see nearword.h. */
#include "nearword.h"

#include <stdio.h>
#include <string.h>

static int least(int a, int b)
{
    return a < b ? a : b;
}

/* Lowrance and Wagner's algorithm: row i + 1, column j + 1 of d hold the
 * distance of a's first i bytes and b's first j; last_row[c] is the last
 * row whose byte of a is c, a swap reaching back to it. */
int ff_edits(const char *a, const char *b)
{
    int d[FF_NEAR_LETTERS + 2][FF_NEAR_LETTERS + 2], last_row[256] = { 0 };
    int la = (int)strlen(a), lb = (int)strlen(b), far = la + lb, i, j;

    d[0][0] = far;
    for (i = 0; i <= la; i++) {
        d[i + 1][0] = far;
        d[i + 1][1] = i;
    }
    for (j = 0; j <= lb; j++) {
        d[0][j + 1] = far;
        d[1][j + 1] = j;
    }
    for (i = 1; i <= la; i++) {
        int last_col = 0;
        for (j = 1; j <= lb; j++) {
            int i1 = last_row[(unsigned char)b[j - 1]], j1 = last_col, cost = 1;
            if (a[i - 1] == b[j - 1]) {
                cost = 0;
                last_col = j;
            }
            d[i + 1][j + 1] = least(least(d[i][j] + cost, d[i + 1][j] + 1),
                                    least(d[i][j + 1] + 1,
                                          d[i1][j1] + (i - i1 - 1) + 1 + (j - j1 - 1)));
        }
        last_row[(unsigned char)a[i - 1]] = i;
    }
    return d[la + 1][lb + 1];
}

int ff_nearness(const char *word, const char *k)
{
    size_t lw = strlen(word), lk = strlen(k);
    int d;

    if (strcmp(word, k) == 0)
        return 0;
    d = lw > FF_NEAR_LETTERS || lk > FF_NEAR_LETTERS ? FF_NEAR_EDITS + 1 : ff_edits(word, k);

    if (d <= FF_NEAR_EDITS && (size_t)d < lk)
        return d;
    if (lw >= FF_NEAR_PREFIX && lk >= FF_NEAR_PREFIX &&
        strncmp(word, k, lw < lk ? lw : lk) == 0)
        return FF_NEAR_EDITS + 1;
    return 0;
}

/* Known word k. */
static const char *known_word(const char *const *known, size_t k, size_t stride)
{
    return *(const char *const *)(const void *)((const char *)known + k * stride);
}

long ff_word_index(const char *word, const char *const *known, size_t n, size_t stride)
{
    size_t k;

    for (k = 0; k < n; k++)
        if (strcmp(word, known_word(known, k, stride)) == 0)
            return (long)k;
    return -1;
}

const char *ff_near_words(const char *word, const char *const *known, size_t n, size_t stride,
                          char *buf, size_t size)
{
    size_t k, found = 0, shown = 0, len;
    int near;

    buf[0] = '\0';
    for (k = 0; k < n; k++)
        found += ff_nearness(word, known_word(known, k, stride)) > 0;
    if (found == 0 || size == 0)
        return buf;
    len = (size_t)snprintf(buf, size, "did you mean");
    for (near = 1; near <= FF_NEAR_EDITS + 1; near++)
        for (k = 0; k < n && len < size; k++)
            if (ff_nearness(word, known_word(known, k, stride)) == near) {
                shown++;
                len += (size_t)snprintf(buf + len, size - len, "%s'%s'%s",
                                        shown == 1 ? " " : shown == found ? " or " : ", ",
                                        known_word(known, k, stride), shown == found ? "?" : "");
            }
    return buf;
}
