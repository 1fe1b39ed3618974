/* stream.c - reading and writing the ff stream; see stream.h and man 5 ff. */
#include "stream.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bytesink.h"
#include "grow.h"
#include "mapkind.h"
#include "realfmt.h"

#define MAX_LINE 4096
#define MAX_CHANNELS 64
#define CHUNK 65536

/* Channel names this library interprets, with their one allowed type. */
static const struct {
    const char *name;
    ff_type type;
    int lanes;
} known[] = {
    { "cost", FF_T_F32, 1 },
    { "oneway", FF_T_U8, 1 },
    { "class", FF_T_U8, 1 },
    { "distance", FF_T_F64, 1 },
    { "direction", FF_T_U8, 1 },
    { "heading_distance", FF_T_F64, 8 },
    { "heading_direction", FF_T_U8, 8 },
};
/* The heading channels are known only in a field with a 'turn-cost' key:
 * elsewhere they are channels like any other, as they always were. */
enum { K_COST, K_ONEWAY, K_CLASS, K_DISTANCE, K_DIRECTION, K_HDISTANCE, K_HDIRECTION,
       K_COUNT };

void ff_reader_init(ff_reader *r, FILE *f, const char *name)
{
    memset(r, 0, sizeof *r);
    r->f = f;
    r->name = name;
}

/* ---- reading: header ---- */

/* A header being read: what each line said. */
typedef struct {
    int have_size, have_encoding, text;
    int64_t w, h;
    struct {
        char name[32];
        ff_type type;
        int lanes;  /* 1, 2 for TYPEx2, 8 for TYPEx8 */
        int known;  /* index into known[], or -1 */
        long line;  /* where it was declared */
    } ch[MAX_CHANNELS];
    int nch;
    struct {
        char name[32];    /* "map" or a channel's name */
        uint64_t v;
    } id[MAX_CHANNELS + 1];
    int nid;
    int64_t *goal_xy;     /* pairs, with their line numbers */
    long *goal_line;
    size_t ngoal, goal_cap;
    int64_t *spawn_xy;
    long *spawn_line;
    size_t nspawn, spawn_cap;
} header;

static void header_free(header *h)
{
    free(h->goal_xy);
    free(h->goal_line);
    free(h->spawn_xy);
    free(h->spawn_line);
    h->goal_xy = h->spawn_xy = NULL;  /* a second free is harmless */
    h->goal_line = h->spawn_line = NULL;
    h->ngoal = h->goal_cap = h->nspawn = h->spawn_cap = 0;
}

/* Read one header line into buf (without its newline).  Returns 1 on a
 * line, 0 at a clean end of input (no byte read), -1 on error. */
static int read_line(ff_reader *r, char *buf, int first, ff_error *err)
{
    size_t n = 0;
    int c;

    for (;;) {
        c = getc(r->f);
        if (c == EOF) {
            if (ferror(r->f)) {
                ff_error_set(err, FF_EIO, r->name, r->line + 1, 0,
                             "read error: %s", strerror(errno));
                return -1;
            }
            if (n == 0 && first)
                return 0;
            ff_error_at_byte(err, FF_EINPUT, r->name, r->byte,
                             "truncated header (line %ld has no end)", r->line + 1);
            return -1;
        }
        r->byte++;
        if (c == '\n')
            break;
        if (c == '\0') {
            ff_error_set(err, FF_EINPUT, r->name, r->line + 1, (long)n + 1,
                         "NUL byte in the header");
            return -1;
        }
        if (n + 1 >= MAX_LINE) {
            ff_error_set(err, FF_EINPUT, r->name, r->line + 1, 0,
                         "header line longer than %d bytes", MAX_LINE - 1);
            return -1;
        }
        buf[n++] = (char)c;
    }
    if (n > 0 && buf[n - 1] == '\r')
        n--;
    buf[n] = '\0';
    r->line++;
    return 1;
}

/* Split a line into at most max words at spaces and tabs; returns the
 * count, or max + 1 when there are more. */
static int split(char *line, char **word, int max)
{
    int n = 0;
    char *p = line;

    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            return n;
        if (n == max)
            return max + 1;
        word[n++] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        if (*p)
            *p++ = '\0';
    }
}

static int parse_i64(const char *s, int64_t *out)
{
    char *end;
    long long v;

    errno = 0;
    v = strtoll(s, &end, 10);
    if (end == s || *end || errno)
        return -1;
    *out = v;
    return 0;
}

static int parse_real(const char *s, double *out)
{
    char *end;
    double v;

    errno = 0;
    v = strtod(s, &end);
    if (end == s || *end || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

static int parse_hex64(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    int n = 0;

    for (; *s; s++, n++) {
        int d;
        if (*s >= '0' && *s <= '9')
            d = *s - '0';
        else if (*s >= 'a' && *s <= 'f')
            d = *s - 'a' + 10;
        else
            return -1;
        v = v << 4 | (uint64_t)d;
    }
    if (n != 16)
        return -1;
    *out = v;
    return 0;
}

static int valid_channel_name(const char *s)
{
    size_t n = strlen(s), k;

    if (n == 0 || n > 31)
        return 0;
    for (k = 0; k < n; k++)
        if (!((s[k] >= 'a' && s[k] <= 'z') || (s[k] >= '0' && s[k] <= '9') ||
              s[k] == '_' || s[k] == '-'))
            return 0;
    return 1;
}

static int push_pair(int64_t **xy, long **lines, size_t *n, size_t *cap,
                     int64_t x, int64_t y, long line)
{
    if (*n == *cap) {
        size_t pairs_cap = *cap;
        int64_t *p = ff_grow(*xy, &pairs_cap, *n + 1, 2 * sizeof *p, 16);
        long *q;
        if (!p)
            return -1;
        *xy = p;
        if (!(q = ff_grow(*lines, cap, *n + 1, sizeof *q, 16)))
            return -1;
        *lines = q;
    }
    (*xy)[2 * *n] = x;
    (*xy)[2 * *n + 1] = y;
    (*lines)[*n] = line;
    (*n)++;
    return 0;
}

#define BAD(...) ff_error_set(err, FF_EINPUT, r->name, r->line, 0, __VA_ARGS__)

/* A 'channel NAME TYPE' line: the channel declared in h, its type
 * checked (TYPEx8 for eight values a cell). */
static ff_status declare_channel(ff_reader *r, header *h, char **word, int nw, ff_error *err)
{
    int t, k, kn = -1, lanes = 1;
    size_t tl;

    if (nw != 3)
        return BAD("'channel' wants a name and a type");
    if (!valid_channel_name(word[1]))
        return BAD("bad channel name '%s' (1 to 31 of a-z 0-9 _ -)", word[1]);
    /* TYPEx8, TYPEx2: eight or two values a cell */
    tl = strlen(word[2]);
    if (tl > 2 && word[2][tl - 2] == 'x' && (word[2][tl - 1] == '8' || word[2][tl - 1] == '2')) {
        lanes = word[2][tl - 1] - '0';
        word[2][tl - 2] = '\0';
    }
    for (t = 0; t < 6 && strcmp(word[2], ff_type_name(t)); t++)
        ;
    if (lanes > 1)
        word[2][tl - 2] = 'x';
    if (t == 6)
        return BAD("channel '%s': unknown type '%s' (u8 u16 u32 i32 f32 f64, or one "
                   "of these with x8 or x2)", word[1], word[2]);
    for (k = 0; k < h->nch; k++)
        if (strcmp(h->ch[k].name, word[1]) == 0)
            return BAD("channel '%s' given twice", word[1]);
    for (k = 0; k < K_COUNT; k++)
        if (strcmp(known[k].name, word[1]) == 0)
            kn = k;
    if (kn >= 0 && kn < K_HDISTANCE && (known[kn].type != (ff_type)t || lanes != 1))
        return BAD("channel '%s' must be %s, not %s", word[1],
                   ff_type_name(known[kn].type), word[2]);
    if (h->nch == MAX_CHANNELS)
        return BAD("more than %d channels", MAX_CHANNELS);
    strcpy(h->ch[h->nch].name, word[1]);
    h->ch[h->nch].type = (ff_type)t;
    h->ch[h->nch].lanes = lanes;
    h->ch[h->nch].known = kn;
    h->ch[h->nch].line = r->line;
    h->nch++;
    return FF_OK;
}

/* An 'id NAME HEX' line: the id of the map or of a derived channel,
 * noted in h (a later line for the same name replaces it). */
static ff_status declare_id(ff_reader *r, header *h, char **word, int nw, ff_error *err)
{
    uint64_t v;
    int k;

    if (nw != 3)
        return BAD("'id' wants a name and 16 hex digits");
    if (strcmp(word[1], "map") && !valid_channel_name(word[1]))
        return BAD("bad id name '%s' (map, or a channel's name)", word[1]);
    for (k = 0; k < K_DISTANCE; k++)
        if (strcmp(word[1], known[k].name) == 0)
            return BAD("'id %s': the %s channel is covered by 'id map'", word[1], word[1]);
    if (parse_hex64(word[2], &v))
        return BAD("id %s: '%s' is not 16 lower-case hex digits", word[1], word[2]);
    for (k = 0; k < h->nid && strcmp(h->id[k].name, word[1]); k++)
        ;
    if (k == h->nid) {
        if (h->nid == MAX_CHANNELS + 1)
            return BAD("more than %d ids", MAX_CHANNELS + 1);
        strcpy(h->id[h->nid++].name, word[1]);
    }
    h->id[k].v = v;
    return FF_OK;
}

/* Interpret one header line (already split into words). */
static ff_status header_line(ff_reader *r, header *h, ff_field *f, char **word,
                             int nw, ff_error *err)
{
    const char *key = word[0];
    int64_t a, b;
    double x, y;

    if (strcmp(key, "size") == 0) {
        if (nw != 3 || parse_i64(word[1], &a) || parse_i64(word[2], &b))
            return BAD("'size' wants two integers W H");
        if (h->have_size)
            return BAD("'size' given twice");
        if (ff_check_size(a, b, r->max_cells, r->name, r->line, err) != FF_OK)
            return FF_EINPUT;
        h->w = a;
        h->h = b;
        h->have_size = 1;
    } else if (strcmp(key, "cell") == 0) {
        if (nw != 2 || parse_real(word[1], &x) || !ff_grid_geometry_ok(x, 0, 0))
            return BAD("'cell' wants one number from %g to %g, not '%s'", FF_CELL_MIN,
                       FF_CELL_MAX, nw > 1 ? word[1] : "");
        f->grid.cell_size = x;
    } else if (strcmp(key, "origin") == 0) {
        if (nw != 3 || parse_real(word[1], &x) || parse_real(word[2], &y) ||
            !ff_grid_geometry_ok(1, x, y))
            return BAD("'origin' wants two numbers OX OY from -%g to %g", FF_ORIGIN_MAX,
                       FF_ORIGIN_MAX);
        f->grid.origin_x = x;
        f->grid.origin_y = y;
    } else if (strcmp(key, "moves") == 0) {
        if (nw != 2 || (strcmp(word[1], "4") && strcmp(word[1], "8")))
            return BAD("'moves' must be 4 or 8, not '%s'", nw > 1 ? word[1] : "");
        f->grid.moves = word[1][0] - '0';
    } else if (strcmp(key, "corners") == 0) {
        int c = nw == 2 ? ff_corners_parse(word[1]) : -1;
        if (c < 0)
            return BAD("'corners' must be strict, cut or free, not '%s'", nw > 1 ? word[1] : "");
        f->grid.corners = (ff_corners)c;
    } else if (strcmp(key, "radius") == 0) {
        if (nw != 2 || parse_real(word[1], &x) || !ff_range_ok(FF_RANGE_RADIUS, x))
            return BAD("'radius' wants one number %s, not '%s'", ff_range_text(FF_RANGE_RADIUS),
                       nw > 1 ? word[1] : "");
        f->grid.radius = x;
    } else if (strcmp(key, "name") == 0) {
        const char *p;
        if (nw != 2 || strlen(word[1]) >= sizeof f->name)
            return BAD("'name' wants one word of at most %zu bytes", sizeof f->name - 1);
        /* No control bytes: a name ending in CR would not read back. */
        for (p = word[1]; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                return BAD("'name' has a control byte 0x%02x", (unsigned char)*p);
        strcpy(f->name, word[1]);
    } else if (strcmp(key, "goal") == 0 || strcmp(key, "spawn") == 0) {
        int goal = key[0] == 'g';
        if (nw != 3 || parse_i64(word[1], &a) || parse_i64(word[2], &b))
            return BAD("'%s' wants two integers X Y", key);
        if (goal ? push_pair(&h->goal_xy, &h->goal_line, &h->ngoal, &h->goal_cap, a, b, r->line)
                 : push_pair(&h->spawn_xy, &h->spawn_line, &h->nspawn, &h->spawn_cap, a, b, r->line))
            return ff_error_set(err, FF_ENOMEM, r->name, r->line, 0, "out of memory");
    } else if (strcmp(key, "channel") == 0) {
        return declare_channel(r, h, word, nw, err);
    } else if (strcmp(key, "id") == 0) {
        return declare_id(r, h, word, nw, err);
    } else if (strcmp(key, "turn-cost") == 0) {
        if (nw != 2 || parse_real(word[1], &x) || !ff_range_ok(FF_RANGE_TURN_COST, x))
            return BAD("'turn-cost' wants one number %s, not '%s'", ff_range_text(FF_RANGE_TURN_COST),
                       nw > 1 ? word[1] : "");
        f->turn = 1;
        f->turn_cost = x + 0.0;  /* -0 is 0 */
    } else if (strcmp(key, "any-angle") == 0) {
        if (nw != 1)
            return BAD("'any-angle' takes no value, not '%s'", word[1]);
        f->any_angle = 1;
    } else if (strcmp(key, "encoding") == 0) {
        if (nw != 2 || (strcmp(word[1], "binary") && strcmp(word[1], "text")))
            return BAD("unknown encoding '%s' (binary or text)", nw > 1 ? word[1] : "");
        h->have_encoding = 1;
        h->text = word[1][0] == 't';
    } else {
        return BAD("unknown header key '%s'", key);
    }
    return FF_OK;
}

/* ---- reading: payload ---- */

/* Little-endian values of 2, 4 and 8 bytes (the compiler makes each a
 * load on a little-endian host). */
static uint16_t le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
    return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* count values of type t at p into dst[k0..], the type chosen once. */
static void decode_values(ff_type t, const uint8_t *p, void *dst, size_t k0, size_t count)
{
    size_t k;

    switch (t) {
    case FF_T_U8:
        memcpy((uint8_t *)dst + k0, p, count);
        break;
    case FF_T_U16:
        for (k = 0; k < count; k++)
            ((uint16_t *)dst)[k0 + k] = le16(p + 2 * k);
        break;
    case FF_T_U32:
        for (k = 0; k < count; k++)
            ((uint32_t *)dst)[k0 + k] = le32(p + 4 * k);
        break;
    case FF_T_I32:
    case FF_T_F32:  /* (the bits as they are: int32_t and float are 4 bytes) */
        for (k = 0; k < count; k++) {
            uint32_t u = le32(p + 4 * k);
            memcpy((uint8_t *)dst + 4 * (k0 + k), &u, 4);
        }
        break;
    case FF_T_F64:
        for (k = 0; k < count; k++) {
            uint64_t u = le64(p + 8 * k);
            memcpy((double *)dst + k0 + k, &u, 8);
        }
        break;
    }
}

/* A channel's values are stored as they arrive, in an array that grows
 * toward its n values: a header that claims more cells than the input
 * holds costs no more memory than the input.  0, or -1 out of memory. */
static int reserve(void **dst, size_t *cap, size_t need, size_t n, size_t size)
{
    size_t c;
    void *p;

    if (need <= *cap)
        return 0;
    c = *cap ? 2 * *cap : CHUNK;
    if (c < need)
        c = need;
    if (c > n)
        c = n;
    p = realloc(*dst, c * size);
    if (!p)
        return -1;
    *dst = p;
    *cap = c;
    return 0;
}

static ff_status read_binary(ff_reader *r, ff_type t, void **dst, size_t n,
                             const char *chname, ff_error *err)
{
    size_t size = ff_type_size(t), done = 0, cap = 0;
    uint8_t buf[CHUNK];

    while (done < n) {
        size_t want = n - done, got;
        if (want > CHUNK / size)
            want = CHUNK / size;
        if (reserve(dst, &cap, done + want, n, size))
            return ff_error_set(err, FF_ENOMEM, r->name, 0, 0,
                                "out of memory for channel '%s'", chname);
        got = fread(buf, 1, want * size, r->f);
        if (got < want * size) {
            if (ferror(r->f))
                return ff_error_at_byte(err, FF_EIO, r->name, r->byte + (long long)got,
                                        "read error: %s", strerror(errno));
            return ff_error_at_byte(err, FF_EINPUT, r->name, r->byte + (long long)got,
                                    "truncated payload: channel '%s' ends after %zu of %zu values",
                                    chname, done + got / size, n);
        }
        decode_values(t, buf, *dst, done, want);
        done += want;
        r->byte += (long long)(want * size);
    }
    return FF_OK;
}

/* Text payload: H lines of W tokens. */
static ff_status read_text(ff_reader *r, ff_type t, void **data, int64_t w,
                           int64_t h, const char *chname, ff_error *err)
{
    char tok[64];
    int64_t x, y;
    int c = 0;
    size_t cap = 0;
    void *dst;

    for (y = 0; y < h; y++) {
        long col = 1;
        r->line++;
        for (x = 0; x < w; x++) {
            size_t n = 0;
            long start;
            char *end;
            size_t k = (size_t)y * (size_t)w + (size_t)x;
            while ((c = getc(r->f)) == ' ' || c == '\t') {
                col++;
                r->byte++;
            }
            start = col;
            while (c != EOF && c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                if (n + 1 >= sizeof tok)
                    return ff_error_set(err, FF_EINPUT, r->name, r->line, start,
                                        "channel '%s': value too long", chname);
                tok[n++] = (char)c;
                col++;
                r->byte++;
                c = getc(r->f);
            }
            tok[n] = '\0';
            if (strlen(tok) != n)
                return ff_error_set(err, FF_EINPUT, r->name, r->line,
                                    start + (long)strlen(tok),
                                    "channel '%s': a NUL byte inside a value", chname);
            if (n == 0) {
                if (c == EOF && ferror(r->f))
                    return ff_error_set(err, FF_EIO, r->name, r->line, col,
                                        "read error: %s", strerror(errno));
                return ff_error_set(err, FF_EINPUT, r->name, r->line, col,
                                    c == EOF ? "truncated payload: channel '%s' row %lld ends after %lld of %lld values"
                                             : "channel '%s' row %lld has %lld values, expected %lld",
                                    chname, (long long)y, (long long)x, (long long)w);
            }
            if (c != EOF)
                ungetc(c, r->f);
            if (reserve(data, &cap, k + 1, (size_t)w * (size_t)h, ff_type_size(t)))
                return ff_error_set(err, FF_ENOMEM, r->name, 0, 0,
                                    "out of memory for channel '%s'", chname);
            dst = *data;
            errno = 0;
            if (t == FF_T_F32) {
                float v = strtof(tok, &end);
                if (*end || isnan(v))
                    goto bad;
                ((float *)dst)[k] = v;
            } else if (t == FF_T_F64) {
                double v = strtod(tok, &end);
                if (*end || isnan(v))
                    goto bad;
                ((double *)dst)[k] = v;
            } else {
                long long v = strtoll(tok, &end, 10);
                long long lo = t == FF_T_I32 ? INT32_MIN : 0;
                long long hi = t == FF_T_U8 ? 255 : t == FF_T_U16 ? 65535
                             : t == FF_T_I32 ? INT32_MAX : (long long)UINT32_MAX;
                if (*end || errno || v < lo || v > hi)
                    goto bad;
                switch (t) {
                case FF_T_U8: ((uint8_t *)dst)[k] = (uint8_t)v; break;
                case FF_T_U16: ((uint16_t *)dst)[k] = (uint16_t)v; break;
                case FF_T_U32: ((uint32_t *)dst)[k] = (uint32_t)v; break;
                default: ((int32_t *)dst)[k] = (int32_t)v; break;
                }
            }
            continue;
        bad:
            return ff_error_set(err, FF_EINPUT, r->name, r->line, start,
                                "channel '%s': '%s' is not a %s value", chname, tok,
                                ff_type_name(t));
        }
        while ((c = getc(r->f)) == ' ' || c == '\t' || c == '\r') {
            col++;
            r->byte++;
        }
        if (c != '\n') {
            if (c == EOF && y == h - 1 && !ferror(r->f))
                continue;   /* a last line without its newline */
            return ff_error_set(err, FF_EINPUT, r->name, r->line, col,
                                c == EOF ? "truncated payload in channel '%s'"
                                         : "channel '%s' row %lld has more than %lld values",
                                chname, (long long)y, (long long)w);
        }
        r->byte++;
    }
    return FF_OK;
}

/* ---- reading: checks after the payload ---- */

static ff_status check_values(ff_reader *r, ff_field *f, ff_error *err)
{
    const ff_grid *g = &f->grid;
    size_t n = (size_t)g->w * (size_t)g->h, i;

    for (i = 0; i < n; i++) {
        float c = g->cost[i];
        if (isnan(c) || c < 0)
            return ff_error_set(err, FF_EINPUT, r->name, 0, 0,
                                "cost of cell %zu,%zu is %g: costs must be >= 0 or inf",
                                i % (size_t)g->w, i / (size_t)g->w, (double)c);
    }
    if (f->distance)
        for (i = 0; i < n; i++)
            if (!(f->distance[i] >= 0))
                return ff_error_set(err, FF_EINPUT, r->name, 0, 0,
                                    "distance of cell %zu,%zu is %g: distances must be >= 0 or inf",
                                    i % (size_t)g->w, i / (size_t)g->w, f->distance[i]);
    if (f->direction)
        for (i = 0; i < n; i++)
            if (f->direction[i] > FF_DIR_NONE)
                return ff_error_set(err, FF_EINPUT, r->name, 0, 0,
                                    "direction of cell %zu,%zu is %u: codes are 0 to 9",
                                    i % (size_t)g->w, i / (size_t)g->w, f->direction[i]);
    return FF_OK;
}

/* A turn-cost field's heading channels: beside the ordinary ones, each
 * heading distance >= 0 or inf, each cell's distance the least of its
 * headings', each code 0 to 9. */
static ff_status check_headings(ff_reader *r, const ff_field *f, ff_error *err)
{
    const ff_grid *g = &f->grid;
    size_t n = (size_t)g->w * (size_t)g->h, i, k;

    if (!f->turn)
        return FF_OK;
    if (!f->distance != !f->heading_distance)
        return ff_error_set(err, FF_EINPUT, r->name, 0, 0,
                            "a turn-cost field with a %s channel needs 'channel %s'",
                            f->distance ? "distance" : "heading_distance",
                            f->distance ? "heading_distance f64x8" : "distance f64");
    if (!f->direction != !f->heading_direction)
        return ff_error_set(err, FF_EINPUT, r->name, 0, 0,
                            "a turn-cost field with a %s channel needs 'channel %s': rerun ffdir",
                            f->direction ? "direction" : "heading_direction",
                            f->direction ? "heading_direction u8x8" : "direction u8");
    for (i = 0; f->heading_distance && i < n; i++) {
        const double *hd = f->heading_distance + 8 * i;
        double least = INFINITY;
        for (k = 0; k < 8; k++) {
            if (!(hd[k] >= 0))
                return ff_error_set(err, FF_EINPUT, r->name, 0, 0,
                                    "heading distance of cell %zu,%zu heading %zu is %g: "
                                    "distances must be >= 0 or inf",
                                    i % (size_t)g->w, i / (size_t)g->w, k, hd[k]);
            least = hd[k] < least ? hd[k] : least;
        }
        if (f->distance[i] != least)
            return ff_error_set(err, FF_EINPUT, r->name, 0, 0,
                                "distance of cell %zu,%zu is %.17g, but the least of its "
                                "heading distances is %.17g",
                                i % (size_t)g->w, i / (size_t)g->w, f->distance[i], least);
    }
    for (i = 0; f->heading_direction && i < 8 * n; i++)
        if (f->heading_direction[i] > FF_DIR_NONE)
            return ff_error_set(err, FF_EINPUT, r->name, 0, 0,
                                "heading direction of cell %zu,%zu heading %zu is %u: codes are "
                                "0 to 9", i / 8 % (size_t)g->w, i / 8 / (size_t)g->w, i % 8,
                                f->heading_direction[i]);
    return FF_OK;
}

static int cmp_cell(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

    return (x > y) - (x < y);
}

/* The goals, checked in header order, then sorted at once: adding them
 * one by one to the sorted list would take quadratic time on a header
 * that lists them in descending order. */
static ff_status take_goals(ff_reader *r, ff_grid *g, const int64_t *xy,
                            const long *lines, size_t n, ff_error *err)
{
    size_t k, m = 0;

    for (k = 0; k < n; k++) {
        int64_t x = xy[2 * k], y = xy[2 * k + 1];
        if (x < 0 || y < 0 || x >= g->w || y >= g->h ||
            !ff_grid_open(g, (size_t)y * (size_t)g->w + (size_t)x)) {
            /* Refused: let the grid say why, in its words. */
            ff_grid_add_goal(g, x, y, r->name, lines[k], 0, err);
            return FF_EINPUT;
        }
    }
    if (n == 0)
        return FF_OK;
    g->goals = malloc(n * sizeof *g->goals);
    if (!g->goals)
        return ff_error_set(err, FF_ENOMEM, r->name, 0, 0, "out of memory for goals");
    for (k = 0; k < n; k++)
        g->goals[k] = (uint32_t)((size_t)xy[2 * k + 1] * (size_t)g->w + (size_t)xy[2 * k]);
    qsort(g->goals, n, sizeof *g->goals, cmp_cell);
    for (k = 0; k < n; k++)
        if (m == 0 || g->goals[m - 1] != g->goals[k])
            g->goals[m++] = g->goals[k];
    g->ngoals = m;
    return FF_OK;
}

static ff_status take_spawns(ff_reader *r, ff_grid *g, const int64_t *xy,
                             const long *lines, size_t n, ff_error *err)
{
    size_t k;

    for (k = 0; k < n; k++) {
        int64_t x = xy[2 * k], y = xy[2 * k + 1];
        if (x < 0 || y < 0 || x >= g->w || y >= g->h)
            return ff_error_set(err, FF_EINPUT, r->name, lines[k], 0,
                                "spawn %lld,%lld is outside the %dx%d map",
                                (long long)x, (long long)y, g->w, g->h);
        g->spawns[g->nspawns++] = (uint32_t)((size_t)y * (size_t)g->w + (size_t)x);
    }
    /* A cell named twice is one spawn cell: repeats must not count as
     * room for more agents. */
    g->nspawns = ff_cells_sort(g->spawns, g->nspawns);
    return FF_OK;
}

static const char *hex(uint64_t v, char *buf)
{
    snprintf(buf, 17, "%016llx", (unsigned long long)v);
    return buf;
}

/* The id line for NAME: 1 and *v, or 0 when there is none. */
static int header_id(const header *h, const char *name, uint64_t *v)
{
    int k;

    for (k = 0; k < h->nid; k++)
        if (strcmp(h->id[k].name, name) == 0) {
            *v = h->id[k].v;
            return 1;
        }
    return 0;
}

/* A derived channel against its id line: a stale or edited one is
 * refused. */
static ff_status check_derived(ff_reader *r, const ff_field *f, const char *name,
                               uint64_t want, uint64_t got, ff_error *err)
{
    char a[17], b[17], c[17];

    if (want == got)
        return FF_OK;
    return ff_error_set(err, FF_EINPUT, r->name, 0, 0,
                        "the %s channel does not match 'id %s %s' (it hashes to %s with %s %s): "
                        "it was made from another %s, or changed%s",
                        name, name, hex(want, a), hex(got, b), f->distance ? "distance" : "map",
                        hex(f->distance ? f->distance_id : f->map_id, c),
                        f->distance ? "distance" : "map",
                        strcmp(name, "direction") == 0 || strcmp(name, "heading_direction") == 0
                            ? ": rerun ffdir" : "");
}

static ff_status check_ids(ff_reader *r, ff_field *f, const header *h, ff_error *err)
{
    char a[17], b[17], c[17];
    uint64_t v;
    size_t k;

    ff_field_update_ids(f);
    f->map_id_read = header_id(h, "map", &v);
    if (f->map_id_read && v != f->map_id)
        return ff_error_set(err, FF_EINPUT, r->name, 0, 0,
                            "the map channels do not match 'id map %s' (they hash to %s): "
                            "the map was changed after the stream was written",
                            hex(v, a), hex(f->map_id, b));
    if (f->distance) {
        if (!header_id(h, "distance", &v))
            return ff_error_set(err, FF_EINPUT, r->name, 0, 0,
                                "a distance channel without 'id distance'");
        if (v != f->distance_id)
            return ff_error_set(err, FF_EINPUT, r->name, 0, 0,
                                "the distance channel does not match 'id distance %s' (it hashes to %s "
                                "with map %s): it was made from another map or other goals",
                                hex(v, a), hex(f->distance_id, b), hex(f->map_id, c));
    }
    if (f->direction) {
        if (!header_id(h, "direction", &v))
            return ff_error_set(err, FF_EINPUT, r->name, 0, 0,
                                "a direction channel without 'id direction'");
        if (!f->distance)
            return ff_error_set(err, FF_EINPUT, r->name, 0, 0,
                                "a direction channel without the distance it was made from");
        if (check_derived(r, f, "direction", v, f->direction_id, err) != FF_OK)
            return FF_EINPUT;
    }
    if (f->turn && f->heading_direction) {
        if (!header_id(h, "heading_direction", &v))
            return ff_error_set(err, FF_EINPUT, r->name, 0, 0,
                                "a heading_direction channel without 'id heading_direction'");
        if (check_derived(r, f, "heading_direction", v, f->heading_direction_id, err) != FF_OK)
            return FF_EINPUT;
    }
    for (k = 0; k < f->nextra; k++) {
        ff_channel *ch = &f->extra[k];
        if (!header_id(h, ch->name, &v))
            continue;
        ch->has_id = 1;
        ch->id = ff_channel_id_lanes(f, ch->name, ch->type, ch->lanes, ch->data);
        if (check_derived(r, f, ch->name, v, ch->id, err) != FF_OK)
            return FF_EINPUT;
    }
    return FF_OK;
}

/* The heading channels: known in a turn-cost field, with their one type
 * each; in any other field, channels like any other. */
static ff_status heading_channels(ff_reader *r, header *h, int turn, ff_error *err)
{
    int k;

    for (k = 0; k < h->nch; k++) {
        int kn = h->ch[k].known;
        if (kn != K_HDISTANCE && kn != K_HDIRECTION)
            continue;
        if (!turn)
            h->ch[k].known = -1;
        else if (h->ch[k].type != known[kn].type || h->ch[k].lanes != 8)
            return ff_error_set(err, FF_EINPUT, r->name, h->ch[k].line, 0,
                                "channel '%s' must be %sx8 in a turn-cost field, not %s%s",
                                h->ch[k].name, ff_type_name(known[kn].type),
                                ff_type_name(h->ch[k].type), ff_lanes_suffix(h->ch[k].lanes));
    }
    return FF_OK;
}

/* The header of the next field, from its 'ff 1' line through 'end':
 * the channels and ids into h, the keys into f.  FF_ENOTFOUND at a clean
 * end of input (no byte of a new field). */
static ff_status read_header(ff_reader *r, header *h, ff_field *f, ff_error *err)
{
    char line[MAX_LINE], first[48], *word[8];
    const char *kind;
    int k, got, nw;
    ff_status st;

    got = read_line(r, line, 1, err);
    if (got <= 0)
        return got == 0 ? FF_ENOTFOUND : err ? err->status : FF_EINPUT;
    /* Keep the line as read for the message; split() cuts it. */
    for (k = 0; k + 1 < (int)sizeof first && line[k]; k++)
        first[k] = (line[k] >= 0x20 && line[k] < 0x7f) ? line[k] : '?';
    first[k] = '\0';
    /* A map given where a stream is wanted: say so. */
    kind = r->line == 1 ? ff_map_kind((const unsigned char *)line, strlen(line)) : NULL;
    nw = split(line, word, 7);
    if (nw != 2 || strcmp(word[0], "ff") != 0 || strcmp(word[1], "1") != 0) {
        if (kind)
            return ff_error_set(err, FF_EINPUT, r->name, r->line, 1,
                                "%s, not an ff stream: build a field of it with ffbuild -g X,Y",
                                kind);
        return ff_error_set(err, FF_EINPUT, r->name, r->line, 1,
                            "bad magic: an ff stream starts with 'ff 1', not '%s'", first);
    }
    for (;;) {
        if (read_line(r, line, 0, err) < 0)
            return err ? err->status : FF_EINPUT;
        nw = split(line, word, 7);
        if (nw == 0 || word[0][0] == '#')
            continue;
        if (strcmp(word[0], "end") == 0 && nw == 1)
            break;
        if (nw > 7)
            return ff_error_set(err, FF_EINPUT, r->name, r->line, 0, "too many words");
        if ((st = header_line(r, h, f, word, nw, err)) != FF_OK)
            return st;
    }
    if (!h->have_size || !h->have_encoding)
        return ff_error_set(err, FF_EINPUT, r->name, r->line, 0,
                            "header ends without '%s'", h->have_size ? "encoding" : "size");
    for (k = 0; k < h->nch && h->ch[k].known != K_COST; k++)
        ;
    if (k == h->nch)
        return ff_error_set(err, FF_EINPUT, r->name, r->line, 0,
                            "header has no 'channel cost f32': the map must travel in the "
                            "stream");
    return heading_channels(r, h, f->turn, err);
}

/* The values data of channel k of h into their place in f: a channel
 * this library interprets in its member, any other among f's extra
 * channels.  data is f's from then on, or freed on failure. */
static ff_status place_channel(ff_reader *r, const header *h, int k, void *data, ff_field *f,
                               ff_error *err)
{
    switch (h->ch[k].known) {
    case K_COST: f->grid.cost = data; return FF_OK;
    case K_ONEWAY: f->grid.oneway = data; return FF_OK;
    case K_CLASS: f->grid.terrain = data; return FF_OK;
    case K_DISTANCE: f->distance = data; return FF_OK;
    case K_DIRECTION: f->direction = data; return FF_OK;
    case K_HDISTANCE: f->heading_distance = data; return FF_OK;
    case K_HDIRECTION: f->heading_direction = data; return FF_OK;
    }
    if (!ff_field_put_extra(f, h->ch[k].name, h->ch[k].type, h->ch[k].lanes, data))
        return ff_error_set(err, FF_ENOMEM, r->name, 0, 0, "out of memory");
    return FF_OK;
}

/* The payload of the field of header h: each channel's values in the
 * header's order, an uninterpreted real channel without NaN. */
static ff_status read_channels(ff_reader *r, const header *h, ff_field *f, ff_error *err)
{
    size_t n = (size_t)h->w * (size_t)h->h;
    ff_status st;
    int k;

    for (k = 0; k < h->nch; k++) {
        void *data = NULL;
        size_t lanes = (size_t)h->ch[k].lanes, i;
        ff_type t = h->ch[k].type;
        st = h->text ? read_text(r, t, &data, h->w * (int64_t)lanes, h->h, h->ch[k].name, err)
                     : read_binary(r, t, &data, n * lanes, h->ch[k].name, err);
        if (st != FF_OK) {
            free(data);
            return st;
        }
        if ((st = place_channel(r, h, k, data, f, err)) != FF_OK)
            return st;
        if (h->ch[k].known >= 0 || (t != FF_T_F32 && t != FF_T_F64))
            continue;
        for (i = 0; i < n * lanes; i++)
            if (t == FF_T_F32 ? isnan(((float *)data)[i]) : isnan(((double *)data)[i]))
                return ff_error_set(err, FF_EINPUT, r->name, 0, 0,
                                    "channel '%s': NaN at cell %zu,%zu", h->ch[k].name,
                                    i / lanes % (size_t)h->w, i / lanes / (size_t)h->w);
    }
    return FF_OK;
}

ff_status ff_field_read(ff_reader *r, ff_field *f, ff_error *err)
{
    header h;
    ff_status st;

    memset(&h, 0, sizeof h);
    ff_field_init(f);
    if ((st = read_header(r, &h, f, err)) != FF_OK)
        goto fail;
    if (f->any_angle && f->turn) {
        st = ff_error_set(err, FF_EINPUT, r->name, r->line, 0,
                          "'any-angle' and 'turn-cost' in one header: a field is one or "
                          "the other");
        goto fail;
    }
    f->grid.w = (int32_t)h.w;
    f->grid.h = (int32_t)h.h;
    if ((st = read_channels(r, &h, f, err)) != FF_OK ||
        (st = check_values(r, f, err)) != FF_OK || (st = check_headings(r, f, err)) != FF_OK)
        goto fail;
    f->grid.spawns = malloc((h.nspawn ? h.nspawn : 1) * sizeof *f->grid.spawns);
    if (!f->grid.spawns) {
        st = ff_error_set(err, FF_ENOMEM, r->name, 0, 0, "out of memory");
        goto fail;
    }
    if ((st = take_goals(r, &f->grid, h.goal_xy, h.goal_line, h.ngoal, err)) != FF_OK ||
        (st = take_spawns(r, &f->grid, h.spawn_xy, h.spawn_line, h.nspawn, err)) != FF_OK ||
        (st = check_ids(r, f, &h, err)) != FF_OK)
        goto fail;
    header_free(&h);
    return FF_OK;
fail:
    header_free(&h);
    ff_field_free(f);
    return st;
}

/* ---- writing ---- */

static void write_channel(ff_sink *w, ff_type t, const void *data, size_t width,
                          size_t n, int text)
{
    size_t k;
    char tok[40];

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* Native order is the stream's order: the values are the bytes. */
    if (!text) {
        ff_sink_put(w, data, n * ff_type_size(t));
        return;
    }
#endif

    for (k = 0; k < n; k++) {
        uint64_t v = ff_value_bits(t, data, k);
        int len = 0;
        if (!text) {
            ff_sink_le(w, v, ff_type_size(t));
            continue;
        }
        switch (t) {
        case FF_T_F32: len = snprintf(tok, sizeof tok, "%.9g", (double)((const float *)data)[k]); break;
        case FF_T_F64: len = snprintf(tok, sizeof tok, "%.17g", ((const double *)data)[k]); break;
        case FF_T_I32: len = snprintf(tok, sizeof tok, "%d", (int)((const int32_t *)data)[k]); break;
        default: len = snprintf(tok, sizeof tok, "%llu", (unsigned long long)v); break;
        }
        ff_sink_put(w, tok, (size_t)len);
        ff_sink_put(w, (k + 1) % width == 0 ? "\n" : " ", 1);
    }
}

ff_status ff_field_write(FILE *out, const ff_field *f, int text, ff_error *err)
{
    const ff_grid *g = &f->grid;
    size_t n = (size_t)g->w * (size_t)g->h, k;
    char a[17];
    ff_sink *w = malloc(sizeof *w);

    if (!w)
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory");
    ff_sink_init(w, out);
    fprintf(out, "ff 1\n");
    if (f->name[0])
        fprintf(out, "name %s\n", f->name);
    {
        char cell[FF_REAL_TEXT_MAX], ox[FF_REAL_TEXT_MAX], oy[FF_REAL_TEXT_MAX];
        char radius[FF_REAL_TEXT_MAX], turn[FF_REAL_TEXT_MAX];
        ff_format_exact(g->cell_size, cell, sizeof cell);
        ff_format_exact(g->origin_x, ox, sizeof ox);
        ff_format_exact(g->origin_y, oy, sizeof oy);
        ff_format_exact(g->radius, radius, sizeof radius);
        fprintf(out, "size %d %d\ncell %s\norigin %s %s\nmoves %d\ncorners %s\nradius %s\n",
                g->w, g->h, cell, ox, oy, g->moves, ff_corners_name(g->corners), radius);
        if (f->turn) {
            ff_format_exact(f->turn_cost, turn, sizeof turn);
            fprintf(out, "turn-cost %s\n", turn);
        }
        if (f->any_angle)
            fprintf(out, "any-angle\n");
    }
    for (k = 0; k < g->ngoals; k++)
        fprintf(out, "goal %u %u\n", g->goals[k] % (uint32_t)g->w, g->goals[k] / (uint32_t)g->w);
    for (k = 0; k < g->nspawns; k++)
        fprintf(out, "spawn %u %u\n", g->spawns[k] % (uint32_t)g->w, g->spawns[k] / (uint32_t)g->w);
    fprintf(out, "channel cost f32\n");
    if (g->oneway)
        fprintf(out, "channel oneway u8\n");
    if (g->terrain)
        fprintf(out, "channel class u8\n");
    if (f->distance)
        fprintf(out, "channel distance f64\n");
    if (f->direction)
        fprintf(out, "channel direction u8\n");
    if (f->turn && f->heading_distance)
        fprintf(out, "channel heading_distance f64x8\n");
    if (f->turn && f->heading_direction)
        fprintf(out, "channel heading_direction u8x8\n");
    for (k = 0; k < f->nextra; k++)
        fprintf(out, "channel %s %s%s\n", f->extra[k].name, ff_type_name(f->extra[k].type),
                ff_lanes_suffix(ff_channel_lanes(&f->extra[k])));
    fprintf(out, "id map %s\n", hex(f->map_id, a));
    if (f->distance)
        fprintf(out, "id distance %s\n", hex(f->distance_id, a));
    if (f->direction)
        fprintf(out, "id direction %s\n", hex(f->direction_id, a));
    if (f->turn && f->heading_direction)
        fprintf(out, "id heading_direction %s\n", hex(f->heading_direction_id, a));
    for (k = 0; k < f->nextra; k++)
        if (f->extra[k].has_id)
            fprintf(out, "id %s %s\n", f->extra[k].name, hex(f->extra[k].id, a));
    fprintf(out, "encoding %s\nend\n", text ? "text" : "binary");
    write_channel(w, FF_T_F32, g->cost, g->w, n, text);
    if (g->oneway)
        write_channel(w, FF_T_U8, g->oneway, g->w, n, text);
    if (g->terrain)
        write_channel(w, FF_T_U8, g->terrain, g->w, n, text);
    if (f->distance)
        write_channel(w, FF_T_F64, f->distance, g->w, n, text);
    if (f->direction)
        write_channel(w, FF_T_U8, f->direction, g->w, n, text);
    if (f->turn && f->heading_distance)
        write_channel(w, FF_T_F64, f->heading_distance, 8 * (size_t)g->w, 8 * n, text);
    if (f->turn && f->heading_direction)
        write_channel(w, FF_T_U8, f->heading_direction, 8 * (size_t)g->w, 8 * n, text);
    for (k = 0; k < f->nextra; k++) {
        int lanes = ff_channel_lanes(&f->extra[k]);
        write_channel(w, f->extra[k].type, f->extra[k].data, (size_t)lanes * (size_t)g->w,
                      (size_t)lanes * n, text);
    }
    k = ff_sink_flush(w) != 0;
    free(w);
    if (k || ferror(out))
        return ff_error_set(err, FF_EIO, NULL, 0, 0, "write error: %s", strerror(errno));
    return FF_OK;
}
