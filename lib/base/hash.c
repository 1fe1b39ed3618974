/* hash.c - the content hash; see hash.h. */
#include "hash.h"

#include <string.h>


static inline uint64_t load_le64(const uint8_t *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
           (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
           (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

void ff_hash_init(ff_hash *s)
{
    memset(s, 0, sizeof *s);
    s->h = FF_HASH_START;
}

void ff_hash_bytes(ff_hash *s, const void *data, size_t n)
{
    const uint8_t *p = data;

    s->length += n;
    while (n > 0 && s->npending > 0) {
        s->pending[s->npending++] = *p++;
        n--;
        if (s->npending == 8) {
            s->h = ff_hash_mix(s->h, load_le64(s->pending));
            s->npending = 0;
        }
    }
    for (; n >= 8; n -= 8, p += 8)
        s->h = ff_hash_mix(s->h, load_le64(p));
    while (n-- > 0)
        s->pending[s->npending++] = *p++;
}

void ff_hash_u32(ff_hash *s, uint32_t v)
{
    uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
    ff_hash_bytes(s, b, 4);
}

void ff_hash_u64(ff_hash *s, uint64_t v)
{
    uint8_t b[8];
    int k;

    for (k = 0; k < 8; k++)
        b[k] = (uint8_t)(v >> (8 * k));
    ff_hash_bytes(s, b, 8);
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define NATIVE_LE 1
#else
#define NATIVE_LE 0
#endif

void ff_hash_f32s(ff_hash *s, const float *v, size_t n)
{
    size_t k;

    if (NATIVE_LE) {
        ff_hash_bytes(s, v, n * 4);
        return;
    }
    for (k = 0; k < n; k++) {
        uint32_t bits;
        memcpy(&bits, &v[k], 4);
        ff_hash_u32(s, bits);
    }
}

void ff_hash_f64s(ff_hash *s, const double *v, size_t n)
{
    size_t k;

    if (NATIVE_LE) {
        ff_hash_bytes(s, v, n * 8);
        return;
    }
    for (k = 0; k < n; k++) {
        uint64_t bits;
        memcpy(&bits, &v[k], 8);
        ff_hash_u64(s, bits);
    }
}

uint64_t ff_hash_final(ff_hash *s)
{
    uint64_t h = s->h;

    if (s->npending > 0) {
        memset(s->pending + s->npending, 0, 8 - s->npending);
        h = ff_hash_mix(h, load_le64(s->pending));
    }
    return ff_hash_mix(h, s->length);
}
