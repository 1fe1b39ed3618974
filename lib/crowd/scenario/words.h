/* words.h - the words of a scenario line (man 5 ffsim): a line split
 * into words with their columns, and the numbers and points a word or
 * two hold (one number: options.h's ff_parse_real and ff_parse_int).
 * Shared by the scenario's readers (scenario.c, goalevent.c).
 */
#ifndef FF_WORDS_H
#define FF_WORDS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A word of a scenario line: its text and its column (from 1). */
typedef struct {
    const char *text;
    long col;
} ff_word;

/* Split buf (a line without its newline, changed in place) into at most
 * max words w; '#' starts a comment.  Returns the count, or -1 when there
 * are more. */
int ff_split_words(char *buf, ff_word *w, int max);

/* 1 when s is n finite reals separated by commas ("a,b", "a,b,c,d"),
 * into v[0..n). */
int ff_parse_reals(const char *s, double *v, int n);

/* A point at w[k] of the n words: one word X,Y or two words X Y.
 * Returns how many words it took (0: none there), its text in text of
 * size bytes (for messages). */
int ff_take_point(const ff_word *w, int n, int k, double xy[2], char *text, size_t size);

#ifdef __cplusplus
}
#endif

#endif
