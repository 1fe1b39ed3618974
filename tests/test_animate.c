/* test_animate.c - lib/picture/animate and apng: animations of hand-made
 * traces, taken apart again by an independent reader here (chunks and
 * their CRCs, the sequence numbers, zlib, the five PNG filters, frames
 * composited over the canvas as APNG says), then checked: the frame count
 * is the trace's tick count or its thinned count, the bytes are the same
 * on every run and from a pipe, each frame's agents are where the trace
 * puts them in the colour the key gives their state, and the goal and
 * the points are drawn above them. */
#include "testutil.h"

#include <criterion/criterion.h>
#include <math.h>
#include <zlib.h>

#include "animate.h"

/* A 10 x 6 open room with a goal at 8,3; distance = |x - 8|. */
static void make_room(ff_field *f)
{
    size_t n = 60, i;
    ff_error err;

    ff_field_init(f);
    cr_assert_eq(ff_grid_alloc(&f->grid, 10, 6, 0, "test", &err), FF_OK);
    f->distance = malloc(n * sizeof *f->distance);
    cr_assert_not_null(f->distance);
    for (i = 0; i < n; i++) {
        f->grid.cost[i] = 1;
        f->distance[i] = fabs((double)(i % 10) - 8);
    }
    f->grid.goals = malloc(sizeof *f->grid.goals);
    f->grid.goals[0] = 3 * 10 + 8;
    f->grid.ngoals = 1;
}

/* Agent 1 walks east along row 1 a cell a tick, waiting from tick 4;
 * agent 2 stands stuck at 2.5,4.5; agent 3 walks onto the goal and
 * arrives at tick 6, then leaves. */
static const char *TRACE =
    "# ffsim trace: tick id x y vx vy heading radius state\n"
    "0 1 0.5 1.5 1 0 0 0.3 moving\n0 2 2.5 4.5 0 0 0 0.3 stuck\n0 3 2.5 3.5 1 0 0 0.3 moving\n"
    "1 1 1.5 1.5 1 0 0 0.3 moving\n1 2 2.5 4.5 0 0 0 0.3 stuck\n1 3 3.5 3.5 1 0 0 0.3 moving\n"
    "2 1 2.5 1.5 1 0 0 0.3 moving\n2 2 2.5 4.5 0 0 0 0.3 stuck\n2 3 4.5 3.5 1 0 0 0.3 moving\n"
    "3 1 3.5 1.5 1 0 0 0.3 moving\n3 2 2.5 4.5 0 0 0 0.3 stuck\n3 3 5.5 3.5 1 0 0 0.3 moving\n"
    "4 1 4.5 1.5 0 0 0 0.3 waiting-field\n4 2 2.5 4.5 0 0 0 0.3 stuck\n"
    "4 3 6.5 3.5 1 0 0 0.3 moving\n"
    "5 1 4.5 1.5 0 0 0 0.3 waiting-field\n5 2 2.5 4.5 0 0 0 0.3 stuck\n"
    "5 3 7.5 3.5 1 0 0 0.3 moving\n"
    "6 1 4.5 1.5 0 0 0 0.3 waiting-field\n6 2 2.5 4.5 0 0 0 0.3 stuck\n"
    "6 3 8.5 3.5 0 0 0 0.3 arrived\n"
    "7 1 4.5 1.5 0 0 0 0.3 waiting-field\n7 2 2.5 4.5 0 0 0 0.3 stuck\n";
#define TICKS 8

typedef struct {
    uint8_t *bytes;
    size_t n;
    ff_legend key;
    uint32_t map_width, map_height;
} movie;

/* Animate TRACE (through a pipe when piped) at scale 10 with points at
 * pts (may be NULL), keeping one tick of every `every`. */
static movie animate(uint64_t every, int piped, const char *pts)
{
    ff_field f;
    ff_draw_options opt = { .layer = FF_LAYER_DISTANCE, .scale = 10, .legend = 1,
                            .background = 1 };
    ff_animate_options ao = { .fps = 10, .trail = 3 };
    ff_overlay ov;
    ff_animation a;
    ff_drawing d;
    ff_error err;
    movie m;
    char *buf = NULL;
    size_t len = 0;
    FILE *in, *out = open_memstream(&buf, &len);

    cr_assert_not_null(out);
    make_room(&f);
    ff_overlay_init(&ov, &f.grid, 10);
    ov.every = every;
    if (pts) {
        FILE *p = tu_string_file(pts);
        cr_assert_eq(ff_overlay_read_points(&ov, p, "pts", &err), FF_OK, "%s", err.msg);
        fclose(p);
    }
    if (piped) {
        char cmd[4096];
        snprintf(cmd, sizeof cmd, "printf '%%s' '%s'", TRACE);
        in = popen(cmd, "r");
    } else {
        in = tu_string_file(TRACE);
    }
    cr_assert_not_null(in);
    cr_assert_eq(ff_animation_scan(&a, in, "trace", every, &ov, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_draw_begin(&d, &f, &opt, &ov, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_animation_write(&a, &d, &ov, &ao, out, "out", &err), FF_OK, "%s", err.msg);
    m.key = d.legend;
    m.map_width = d.map_width;
    m.map_height = d.map_height;
    ff_draw_end(&d);
    ff_animation_free(&a);
    if (piped)
        pclose(in);
    else
        fclose(in);
    fclose(out);
    m.bytes = (uint8_t *)buf;
    m.n = len;
    ff_overlay_free(&ov);
    ff_field_free(&f);
    return m;
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The frames, composited: frame[k] is the canvas after frame k. */
typedef struct {
    uint32_t w, h, frames, declared;
    uint8_t **canvas;
    uint16_t delay_num, delay_den;
} reel;

static int paeth(int a, int b, int c)
{
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* Inflate z (n bytes), unfilter fw x fh RGB rows and put them at fx, fy. */
static void paint(uint8_t *canvas, uint32_t w, const uint8_t *z, size_t n, uint32_t fw, uint32_t fh,
                  uint32_t fx, uint32_t fy)
{
    size_t stride = (size_t)fw * 3 + 1, need = stride * fh, i;
    uLongf got = (uLongf)need;
    uint8_t *raw = malloc(need + 1), *prev = calloc((size_t)fw * 3, 1), *line = malloc((size_t)fw * 3);
    uint32_t y;

    cr_assert(raw && prev && line);
    cr_assert_eq(uncompress(raw, &got, z, (uLong)n), Z_OK, "the frame's zlib stream");
    cr_assert_eq(got, need, "the frame holds %zu bytes, %lu inflated", need, (unsigned long)got);
    for (y = 0; y < fh; y++) {
        const uint8_t *r = raw + y * stride;
        for (i = 0; i < (size_t)fw * 3; i++) {
            int a = i >= 3 ? line[i - 3] : 0, b = prev[i], c = i >= 3 ? prev[i - 3] : 0, v = r[1 + i];
            switch (r[0]) {
            case 0: break;
            case 1: v += a; break;
            case 2: v += b; break;
            case 3: v += (a + b) / 2; break;
            case 4: v += paeth(a, b, c); break;
            default: cr_assert(0, "filter type %d", r[0]);
            }
            line[i] = (uint8_t)v;
        }
        memcpy(canvas + (((size_t)fy + y) * w + fx) * 3, line, (size_t)fw * 3);
        memcpy(prev, line, (size_t)fw * 3);
    }
    free(raw);
    free(prev);
    free(line);
}

static reel take_apart(const movie *m)
{
    static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    const uint8_t *b = m->bytes;
    size_t at = 8, ndata = 0;
    uint8_t *data = NULL, *cur = NULL;
    uint32_t seq = 0, fw = 0, fh = 0, fx = 0, fy = 0;
    int seen_idat = 0, ended = 0;
    reel r;

    memset(&r, 0, sizeof r);
    cr_assert(m->n > 8 && memcmp(b, sig, 8) == 0, "the PNG signature");
    data = malloc(m->n);
    cr_assert_not_null(data);
    while (at + 12 <= m->n && !ended) {
        uint32_t len = get32(b + at);
        const uint8_t *type = b + at + 4, *d = b + at + 8;
        cr_assert(at + 12 + len <= m->n, "a chunk runs past the end");
        cr_assert_eq(get32(d + len), (uint32_t)crc32(0, type, len + 4), "CRC of %.4s", type);
        if (!memcmp(type, "IHDR", 4)) {
            r.w = get32(d);
            r.h = get32(d + 4);
            cr_assert_eq(d[8], 8);
            cr_assert_eq(d[9], 2);
            cur = calloc((size_t)r.w * r.h * 3, 1);
            r.canvas = calloc(1024, sizeof *r.canvas);
        } else if (!memcmp(type, "acTL", 4)) {
            cr_assert_eq(seen_idat, 0, "acTL before IDAT");
            r.declared = get32(d);
            cr_assert_eq(get32(d + 4), 0, "loops for ever");
        } else if (!memcmp(type, "fcTL", 4) || !memcmp(type, "IEND", 4)) {
            if (r.frames > 0) {
                paint(cur, r.w, data, ndata, fw, fh, fx, fy);
                r.canvas[r.frames - 1] = malloc((size_t)r.w * r.h * 3);
                memcpy(r.canvas[r.frames - 1], cur, (size_t)r.w * r.h * 3);
            }
            ended = !memcmp(type, "IEND", 4);
            if (ended)
                break;
            cr_assert_eq(get32(d), seq++, "fcTL sequence number");
            fw = get32(d + 4);
            fh = get32(d + 8);
            fx = get32(d + 12);
            fy = get32(d + 16);
            r.delay_num = (uint16_t)(d[20] << 8 | d[21]);
            r.delay_den = (uint16_t)(d[22] << 8 | d[23]);
            cr_assert_eq(d[24], 0, "dispose none");
            cr_assert_eq(d[25], 0, "blend source");
            cr_assert(fw >= 1 && fh >= 1 && fx + fw <= r.w && fy + fh <= r.h, "frame inside");
            if (r.frames == 0)
                cr_assert(fw == r.w && fh == r.h && fx == 0 && fy == 0, "frame 0 is whole");
            r.frames++;
            cr_assert_lt(r.frames, 1024);
            ndata = 0;
        } else if (!memcmp(type, "IDAT", 4)) {
            cr_assert_eq(r.frames, 1, "IDAT holds frame 0 only");
            seen_idat = 1;
            memcpy(data + ndata, d, len);
            ndata += len;
        } else if (!memcmp(type, "fdAT", 4)) {
            cr_assert_gt(r.frames, 1, "fdAT after frame 0");
            cr_assert_eq(get32(d), seq++, "fdAT sequence number");
            memcpy(data + ndata, d + 4, len - 4);
            ndata += len - 4;
        }
        at += 12 + len;
    }
    cr_assert(ended, "IEND");
    cr_assert_eq(at + 12, m->n, "nothing after IEND");
    free(data);
    free(cur);
    return r;
}

static void reel_free(reel *r)
{
    uint32_t k;
    for (k = 0; k < r->frames; k++)
        free(r->canvas[k]);
    free(r->canvas);
}

static unsigned px(const reel *r, uint32_t k, double x, double y)
{
    const uint8_t *p = r->canvas[k] + ((size_t)y * r->w + (size_t)x) * 3;
    return (unsigned)p[0] << 16 | (unsigned)p[1] << 8 | p[2];
}

/* The swatch colour of the key item labelled label. */
static unsigned swatch(const reel *r, const movie *m, const char *label)
{
    int i;
    for (i = 0; i < m->key.nitems; i++)
        if (!strcmp(m->key.item[i].label, label))
            return px(r, 0, m->key.item[i].x + m->key.swatch / 2, m->key.item[i].y + m->key.swatch / 2);
    cr_assert(0, "no swatch '%s'", label);
    return 0;
}

Test(animate, a_frame_per_tick_agents_in_their_state_colours)
{
    movie m = animate(1, 0, NULL);
    reel r = take_apart(&m);
    unsigned moving = swatch(&r, &m, "moving"), waiting = swatch(&r, &m, "waiting");
    unsigned stuck = swatch(&r, &m, "stuck"), arrived = swatch(&r, &m, "arrived");
    uint32_t k;

    cr_expect_eq(r.declared, TICKS);
    cr_expect_eq(r.frames, TICKS);
    cr_expect_eq(r.delay_num, 1);
    cr_expect_eq(r.delay_den, 10, "10 frames a second");
    cr_expect_eq(moving, 0x00ffffu);
    cr_expect_eq(waiting, 0xff7800u);
    cr_expect_eq(stuck, 0xff2828u);
    cr_expect_eq(arrived, 0xff5aa0u);
    for (k = 0; k < TICKS; k++) {
        double x1 = k < 4 ? 0.5 + k : 4.5;
        cr_expect_eq(px(&r, k, x1 * 10, 15), k < 4 ? moving : waiting, "frame %u: agent 1", k);
        cr_expect_eq(px(&r, k, 25, 45), stuck, "frame %u: agent 2", k);
        if (k < 6)
            cr_expect_eq(px(&r, k, (2.5 + k) * 10, 35), moving, "frame %u: agent 3", k);
    }
    /* Agent 1 and its trail of 3 positions have left 0.5,1.5 by frame 3. */
    cr_expect_eq(px(&r, 3, 5, 15), px(&r, 0, 5, 55), "frame 3: cell 0,1 as cell 0,5");
    cr_expect_eq(px(&r, 2, 5, 15), 0x00ffffu, "frame 2: its trail");
    /* Agent 3 arrives on the goal at tick 6: in the goal ring's hole, the
     * ring on top; at tick 7 it has left. */
    cr_expect_eq(px(&r, 6, 85, 35), arrived);
    cr_expect_eq(px(&r, 6, 85 + 3, 35), 0xff00ffu, "the goal's ring above the agent");
    cr_expect_neq(px(&r, 7, 85, 35), arrived);
    /* The key is in every frame, unchanged. */
    cr_expect_eq(memcmp(r.canvas[0] + (size_t)m.map_height * r.w * 3,
                        r.canvas[TICKS - 1] + (size_t)m.map_height * r.w * 3,
                        (size_t)(r.h - m.map_height) * r.w * 3), 0);
    reel_free(&r);
    free(m.bytes);
}

Test(animate, every_thins_the_frames)
{
    uint64_t every;

    for (every = 1; every <= 9; every++) {
        movie m = animate(every, 0, NULL);
        reel r = take_apart(&m);
        uint32_t want = (uint32_t)((TICKS + every - 1) / every);
        cr_expect_eq(r.frames, want, "--every %llu", (unsigned long long)every);
        cr_expect_eq(r.declared, want);
        if (every == 3)
            /* Frames are ticks 0, 3, 6: agent 1 at 3.5,1.5 in frame 1. */
            cr_expect_eq(px(&r, 1, 35, 15), 0x00ffffu);
        reel_free(&r);
        free(m.bytes);
    }
}

Test(animate, same_bytes_every_run_and_from_a_pipe)
{
    movie a = animate(1, 0, NULL), b = animate(1, 0, NULL), c = animate(1, 1, NULL);

    cr_assert_eq(a.n, b.n);
    cr_expect_eq(memcmp(a.bytes, b.bytes, a.n), 0, "two runs");
    cr_assert_eq(a.n, c.n);
    cr_expect_eq(memcmp(a.bytes, c.bytes, a.n), 0, "a pipe, spooled");
    free(a.bytes);
    free(b.bytes);
    free(c.bytes);
}

/* Points are drawn above the agents in every frame. */
Test(animate, points_above_agents)
{
    movie m = animate(1, 0, "2.5 4.5\n");
    reel r = take_apart(&m);
    uint32_t k;

    for (k = 0; k < r.frames; k++)
        cr_expect_eq(px(&r, k, 25, 45), 0x00ffffu, "frame %u: the marker over stuck agent 2", k);
    reel_free(&r);
    free(m.bytes);
}

/* Refusals come before any output. */
Test(animate, empty_and_malformed_traces)
{
    ff_field f;
    ff_overlay ov;
    ff_animation a;
    ff_error err;
    FILE *in;

    make_room(&f);
    ff_overlay_init(&ov, &f.grid, 10);
    in = tu_string_file("# nothing\n");
    cr_expect_eq(ff_animation_scan(&a, in, "t", 1, &ov, &err), FF_EINPUT);
    cr_expect(strstr(err.msg, "no line"), "%s", err.msg);
    ff_animation_free(&a);
    fclose(in);
    in = tu_string_file("0 1 2 3\n1 1 x 3\n");
    cr_expect_eq(ff_animation_scan(&a, in, "t", 1, &ov, &err), FF_EINPUT);
    cr_expect_eq(err.line, 2);
    ff_animation_free(&a);
    fclose(in);
    ff_overlay_free(&ov);
    ff_field_free(&f);
}
