/* test_nearword.c - the words near an unknown one: ff_edits against a
 * breadth-first search over single edits (the definition of the
 * Damerau-Levenshtein distance: the fewest insertions, deletions,
 * substitutions and swaps of neighbours), ff_nearness's rules and the
 * hint's wording. */
#include <criterion/criterion.h>
#include <string.h>

#include "nearword.h"

/* Strings of at most LONGEST letters of "abc", coded in base 4 (a digit
 * a letter, 0 after the end). */
enum { LONGEST = 6, CODES = 4096 };

static int encode(const char *s)
{
    int code = 0, k;

    for (k = (int)strlen(s) - 1; k >= 0; k--)
        code = code * 4 + (s[k] - 'a' + 1);
    return code;
}

static void decode(int code, char *s)
{
    int n = 0;

    for (; code; code /= 4)
        s[n++] = (char)('a' + code % 4 - 1);
    s[n] = '\0';
}

/* The fewest single edits from a to every string of the search space, in
 * dist (-1: none within it). */
static void search(const char *a, int *dist)
{
    static int queue[CODES];
    int head = 0, tail = 0, k;

    for (k = 0; k < CODES; k++)
        dist[k] = -1;
    dist[encode(a)] = 0;
    queue[tail++] = encode(a);
    while (head < tail) {
        char s[LONGEST + 1], t[LONGEST + 2];
        int from = queue[head++], n, i;
        const char *c;
        decode(from, s);
        n = (int)strlen(s);
        for (i = 0; i <= n; i++) {
            int variants = 0;
            char next[8][LONGEST + 2];
            if (i < n) {  /* delete, swap */
                memcpy(next[variants], s, (size_t)i);
                strcpy(next[variants++] + i, s + i + 1);
                if (i + 1 < n) {
                    strcpy(next[variants], s);
                    next[variants][i] = s[i + 1];
                    next[variants++][i + 1] = s[i];
                }
            }
            for (c = "abc"; *c; c++) {
                if (i < n && s[i] != *c) {  /* substitute */
                    strcpy(next[variants], s);
                    next[variants++][i] = *c;
                }
                if (n < LONGEST) {  /* insert */
                    memcpy(t, s, (size_t)i);
                    t[i] = *c;
                    strcpy(t + i + 1, s + i);
                    strcpy(next[variants++], t);
                }
            }
            while (variants-- > 0) {
                int to = encode(next[variants]);
                if (dist[to] < 0) {
                    dist[to] = dist[from] + 1;
                    queue[tail++] = to;
                }
            }
        }
    }
}

Test(nearword, edits_as_the_fewest_single_edits)
{
    static int dist[CODES];
    char a[LONGEST + 1], b[LONGEST + 1];
    int from, to, pairs = 0;

    /* Every pair of strings of up to 4 letters; the search may pass
     * through strings of 6. */
    for (from = 0; from < 4 * 4 * 4 * 4; from++) {
        decode(from, a);
        if (strchr(a, '`') || strlen(a) > 4 || encode(a) != from)
            continue;
        search(a, dist);
        for (to = 0; to < CODES; to++) {
            decode(to, b);
            if (strchr(b, '`') || strlen(b) > 4 || encode(b) != to)
                continue;
            cr_assert_eq(ff_edits(a, b), dist[to], "'%s' to '%s': %d, want %d", a, b,
                         ff_edits(a, b), dist[to]);
            pairs++;
        }
    }
    cr_assert_eq(pairs, 121 * 121);
    /* A swap and an insertion in it: what a restricted count (optimal
     * string alignment) makes 3. */
    cr_expect_eq(ff_edits("ca", "abc"), 2);
    cr_expect_eq(ff_edits("thresold", "threshold"), 1);
    cr_expect_eq(ff_edits("", "seek"), 4);
}

Test(nearword, nearness)
{
    cr_expect_eq(ff_nearness("tikcs", "ticks"), 1, "a swap");
    cr_expect_eq(ff_nearness("tikcs", "tick"), 2, "a swap and a deletion");
    cr_expect_eq(ff_nearness("x", "at"), 0, "two edits, as many as 'at' has letters");
    cr_expect_eq(ff_nearness("ab", "at"), 1);
    cr_expect_eq(ff_nearness("con", "congestion-ticks"), FF_NEAR_EDITS + 1, "a prefix");
    cr_expect_eq(ff_nearness("co", "congestion"), 0, "a prefix of two letters");
    cr_expect_eq(ff_nearness("congestion-wait", "congestion"), FF_NEAR_EDITS + 1,
                 "it begins with the keyword");
    cr_expect_eq(ff_nearness("seek", "seek"), 0, "the word itself is no hint");
    cr_expect_eq(ff_nearness("walk", "tick"), 0);
}

Test(nearword, hint_wording)
{
    static const char *const words[] = { "tick", "ticks", "arrive", "arrived", "at" };
    static const char *const congestion[] = { "congestion", "congestion-weight",
                                               "congestion-ticks" };
    char buf[200], small[20];

    cr_expect_str_eq(ff_near_words("zzz", words, 5, sizeof *words, buf, sizeof buf), "");
    cr_expect_str_eq(ff_near_words("tikcs", words, 5, sizeof *words, buf, sizeof buf),
                     "did you mean 'ticks' or 'tick'?", "nearest first");
    cr_expect_str_eq(ff_near_words("ticj", words, 5, sizeof *words, buf, sizeof buf),
                     "did you mean 'tick' or 'ticks'?");
    cr_expect_str_eq(ff_near_words("arriv", words, 5, sizeof *words, buf, sizeof buf),
                     "did you mean 'arrive' or 'arrived'?");
    cr_expect_str_eq(ff_near_words("con", congestion, 3, sizeof *congestion, buf, sizeof buf),
                     "did you mean 'congestion', 'congestion-weight' or 'congestion-ticks'?");
    /* Cut short, still a string. */
    ff_near_words("con", congestion, 3, sizeof *congestion, small, sizeof small);
    cr_expect_eq(strlen(small), sizeof small - 1);
}

/* Words as a member of a table of structs: every stride-th byte. */
Test(nearword, words_in_a_table)
{
    static const struct {
        int before;
        const char *word;
        double after;
    } table[] = { { 1, "seek", 0 }, { 2, "speed", 0 }, { 3, "separate", 0 } };
    char buf[100];

    cr_expect_eq(ff_word_index("speed", &table[0].word, 3, sizeof *table), 1);
    cr_expect_eq(ff_word_index("separate", &table[0].word, 3, sizeof *table), 2);
    cr_expect_eq(ff_word_index("spee", &table[0].word, 3, sizeof *table), -1, "whole words only");
    cr_expect_str_eq(ff_near_words("sped", &table[0].word, 3, sizeof *table, buf, sizeof buf),
                     "did you mean 'speed' or 'seek'?");
}
