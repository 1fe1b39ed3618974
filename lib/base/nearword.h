/* nearword.h - the words of a list near one that is not in it, for the
 * hint of an unknown keyword's message: "did you mean 'threshold'?".
 */
#ifndef FF_NEARWORD_H
#define FF_NEARWORD_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    FF_NEAR_EDITS = 2,    /* a word this many edits from another is near it */
    FF_NEAR_PREFIX = 3,   /* as is one that begins as it does over at least
                             this many letters (one a prefix of the other) */
    FF_NEAR_LETTERS = 40  /* longer words are near by their prefix only */
};

/* The Damerau-Levenshtein distance of a and b, each of at most
 * FF_NEAR_LETTERS bytes: the fewest insertions, deletions, substitutions
 * and swaps of two neighbours that make b of a, each one edit. */
int ff_edits(const char *a, const char *b);

/* How near word is to the known word k: its edits when 1 to
 * FF_NEAR_EDITS and fewer than k has letters (so that a short word is not
 * near every other short word), FF_NEAR_EDITS + 1 when farther but one is
 * a prefix of the other over FF_NEAR_PREFIX letters or more, 0 when it is
 * not near (k itself included). */
int ff_nearness(const char *word, const char *k);

/* The known words are n strings, the first at known and each stride
 * bytes after the one before: an array of strings (stride sizeof (char
 * *)), or a member of an array of structs (stride the struct's size). */

/* The index of word among the known words, or -1. */
long ff_word_index(const char *word, const char *const *known, size_t n, size_t stride);

/* The hint for an unknown word: the known words near it, nearest first and
 * then in their order, as "did you mean 'a', 'b' or 'c'?" in buf (of size
 * bytes, cut short if need be); "" when none is near.  Returns buf. */
const char *ff_near_words(const char *word, const char *const *known, size_t n, size_t stride,
                          char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
