/* hash.h - the 64-bit content hash behind the stream's ids (man 5 ff).
 *
 * The message is taken as 8-byte little-endian words, the last one padded
 * with zero bytes.  Starting from h = 0xcbf29ce484222325, each word w does
 * h = (h ^ w) * 0x100000001b3; h ^= h >> 32.  The total length in bytes is
 * then mixed in as one more word.  Not cryptographic: it tells generations
 * of a field apart, it does not resist forgery.
 */
#ifndef FF_HASH_H
#define FF_HASH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint64_t h;
    uint64_t length;     /* bytes hashed so far */
    uint8_t pending[8];  /* bytes of an incomplete word */
    unsigned npending;
} ff_hash;

/* The starting value and one word's step of the hash, for a caller that
 * hashes several messages of whole words side by side (tilehash.c):
 * start at FF_HASH_START, mix each word, then mix the length in bytes. */
#define FF_HASH_START 0xcbf29ce484222325ULL
static inline uint64_t ff_hash_mix(uint64_t h, uint64_t w)
{
    h = (h ^ w) * 0x100000001b3ULL;
    return h ^ (h >> 32);
}

void ff_hash_init(ff_hash *s);
void ff_hash_bytes(ff_hash *s, const void *data, size_t n);
void ff_hash_u32(ff_hash *s, uint32_t v);   /* 4 bytes, little-endian */
void ff_hash_u64(ff_hash *s, uint64_t v);   /* 8 bytes, little-endian */
void ff_hash_f32s(ff_hash *s, const float *v, size_t n);   /* IEEE bits, LE */
void ff_hash_f64s(ff_hash *s, const double *v, size_t n);  /* IEEE bits, LE */
uint64_t ff_hash_final(ff_hash *s);

#ifdef __cplusplus
}
#endif

#endif
