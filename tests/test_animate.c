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
#include "direction.h"
#include "font.h"
#include "palette.h"
#include "search.h"

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

/* Animate trace on field f (through a pipe when piped) at scale 10 in
 * layer, with points at pts (may be NULL), keeping one tick of every
 * `every`, each frame labelled with its tick when label is 1. */
static movie animate_trace(const char *trace, const ff_field *f, ff_layer layer, int label,
                           uint64_t every, int piped, const char *pts)
{
    ff_draw_options opt = { .layer = layer, .scale = 10, .legend = 1, .background = 1 };
    ff_animate_options ao = { .fps = 10, .trail = 3, .label = label };
    ff_overlay ov;
    ff_animation a;
    ff_drawing d;
    ff_error err;
    movie m;
    char *buf = NULL;
    size_t len = 0;
    FILE *in, *out = open_memstream(&buf, &len);

    cr_assert_not_null(out);
    ff_overlay_init(&ov, &f->grid, 10);
    ov.every = every;
    if (pts) {
        FILE *p = tu_string_file(pts);
        cr_assert_eq(ff_overlay_read_points(&ov, p, "pts", &err), FF_OK, "%s", err.msg);
        fclose(p);
    }
    if (piped) {
        char cmd[4096];
        snprintf(cmd, sizeof cmd, "printf '%%s' '%s'", trace);
        in = popen(cmd, "r");
    } else {
        in = tu_string_file(trace);
    }
    cr_assert_not_null(in);
    cr_assert_eq(ff_animation_scan(&a, in, "trace", every, &ov, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_draw_begin(&d, f, &opt, &ov, &err), FF_OK, "%s", err.msg);
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
    return m;
}

/* Animate TRACE on the room, its distance layer, without labels. */
static movie animate(uint64_t every, int piped, const char *pts)
{
    ff_field f;
    movie m;

    make_room(&f);
    m = animate_trace(TRACE, &f, FF_LAYER_DISTANCE, 0, every, piped, pts);
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

/* ---- map events ---- */

/* The 10 x 6 room with a goal at 8,3, 8 moves, its cells in `wall` (x,
 * rows y0..y1) closed when wall_y1 >= 0, its distances and directions
 * searched. */
static void searched_room(ff_field *f, int wall_x, int wall_y0, int wall_y1)
{
    size_t n = 60;
    ff_error err;
    int y;

    make_room(f);
    for (y = wall_y0; y <= wall_y1; y++)
        f->grid.cost[y * 10 + wall_x] = INFINITY;
    f->direction = malloc(n);
    cr_assert_not_null(f->direction);
    cr_assert_eq(ff_search(&f->grid, f->distance, &err), FF_OK, "%s", err.msg);
    cr_assert_eq(ff_direction_field(&f->grid, f->distance, f->direction, &err), FF_OK);
}

/* The map rows of a still picture of f in layer at scale 10 without
 * goals or points, as an animation's background is drawn. */
static uint8_t *still(const ff_field *f, ff_layer layer, uint32_t *width)
{
    ff_draw_options opt = { .layer = layer, .scale = 10, .legend = 1, .background = 1 };
    ff_overlay ov;
    ff_drawing d;
    ff_error err;
    uint8_t *rgb;
    uint32_t y;

    ff_overlay_init(&ov, &f->grid, 10);
    cr_assert_eq(ff_draw_begin(&d, f, &opt, &ov, &err), FF_OK, "%s", err.msg);
    rgb = malloc((size_t)d.width * d.height * 3);
    cr_assert_not_null(rgb);
    for (y = 0; y < d.height; y++)
        ff_draw_row(&d, rgb + (size_t)y * d.width * 3);
    *width = d.width;
    ff_draw_end(&d);
    ff_overlay_free(&ov);
    return rgb;
}

/* One agent walks west along row 5 (clear of the rows compared); a door,
 * column 4 from row 0 to row 4, closes at tick 3 and opens at tick 6, as
 * ffsim notes it before the tick's lines. */
static const char *DOOR_TRACE =
    "# ffsim trace: tick id x y vx vy heading radius state\n"
    "# tick_dt 0.25 ticks 8 direction smooth agents 1\n"
    "# field 0 radius 0 id 0123456789abcdef\n"
    "0 1 9.5 5.5 -1 0 180 0.3 moving\n1 1 8.5 5.5 -1 0 180 0.3 moving\n"
    "2 1 7.5 5.5 -1 0 180 0.3 moving\n"
    "# tick 3 close 4,0,4,4\n# tick 3 field 0 radius 0 id 1111111111111111 published\n"
    "3 1 6.5 5.5 -1 0 180 0.3 moving\n4 1 5.5 5.5 -1 0 180 0.3 moving\n"
    "5 1 4.5 5.5 -1 0 180 0.3 moving\n"
    "# tick 6 open 4,0,4,4\n# tick 6 field 0 radius 0 id 2222222222222222 published\n"
    "6 1 3.5 5.5 -1 0 180 0.3 moving\n7 1 2.5 5.5 -1 0 180 0.3 moving\n";

/* The room open and with the door closed, searched, and their still
 * pictures in one layer. */
typedef struct {
    ff_field open, closed;
    uint8_t *open_pic, *closed_pic;
    uint32_t width;
} rooms;

static void rooms_make(rooms *r, ff_layer layer)
{
    uint32_t w;

    searched_room(&r->open, 0, 0, -1);
    searched_room(&r->closed, 4, 0, 4);
    r->open_pic = still(&r->open, layer, &r->width);
    r->closed_pic = still(&r->closed, layer, &w);
    cr_assert_eq(w, r->width);
}

static void rooms_free(rooms *r)
{
    free(r->open_pic);
    free(r->closed_pic);
    ff_field_free(&r->open);
    ff_field_free(&r->closed);
}

/* Rows 0..29 (cells of rows 0 to 2: no agent, no goal) of frame k equal
 * those of the still picture of the room, with the door closed when
 * shut. */
static int rows_match(const reel *r, uint32_t k, const rooms *room, int shut)
{
    cr_assert_eq(room->width, r->w);
    return memcmp(r->canvas[k], shut ? room->closed_pic : room->open_pic,
                  (size_t)30 * room->width * 3) == 0;
}

Test(animate, a_door_closing_is_drawn_from_its_tick_with_the_field_then)
{
    ff_layer layers[] = { FF_LAYER_DIRECTION, FF_LAYER_DISTANCE, FF_LAYER_MAP };
    unsigned wall = (unsigned)(ff_colour_wall[0] << 16 | ff_colour_wall[1] << 8 | ff_colour_wall[2]);
    size_t l;

    for (l = 0; l < sizeof layers / sizeof *layers; l++) {
        rooms room;
        uint32_t k;
        movie m;
        reel r;
        rooms_make(&room, layers[l]);
        m = animate_trace(DOOR_TRACE, &room.open, layers[l], 0, 1, 0, NULL);
        r = take_apart(&m);
        cr_assert_eq(r.frames, 8);
        for (k = 0; k < 8; k++) {
            int shut = k >= 3 && k < 6;
            cr_expect(rows_match(&r, k, &room, shut), "layer %s, frame %u: the map %s",
                      ff_layer_name(layers[l]), k,
                      shut ? "with the door closed" : "as the stream has it");
            cr_expect_eq(px(&r, k, 45, 5) == wall, shut,
                         "layer %s, frame %u: the door's pixels %s wall",
                         ff_layer_name(layers[l]), k, shut ? "are" : "are not");
        }
        reel_free(&r);
        free(m.bytes);
        rooms_free(&room);
    }
}

/* The rooms in the direction layer and the animation of a trace of
 * three ticks on the open one, taken apart. */
static reel three_frames(const char *trace, rooms *room, movie *m)
{
    reel r;

    rooms_make(room, FF_LAYER_DIRECTION);
    *m = animate_trace(trace, &room->open, FF_LAYER_DIRECTION, 0, 1, 0, NULL);
    r = take_apart(m);
    cr_assert_eq(r.frames, 3);
    return r;
}

static void three_frames_free(reel *r, rooms *room, movie *m)
{
    reel_free(r);
    free(m->bytes);
    rooms_free(room);
}

/* Without a field of the stream's radius in the header, the field is
 * searched again at the event's tick; a field published of another
 * radius does not count. */
Test(animate, the_field_follows_the_event_when_the_trace_lists_no_such_field)
{
    const char *trace =
        "0 1 9.5 5.5\n1 1 8.5 5.5\n# tick 2 close 4,0,4,4\n"
        "# tick 2 field 0 radius 0.5 id 1111111111111111 published\n2 1 7.5 5.5\n";
    rooms room;
    movie m;
    reel r = three_frames(trace, &room, &m);

    cr_expect(rows_match(&r, 1, &room, 0));
    cr_expect(rows_match(&r, 2, &room, 1), "frame 2: the walls and arrows after the event");
    three_frames_free(&r, &room, &m);
}

/* Until the field is published, the walls change and the arrows stay. */
Test(animate, arrows_wait_for_the_field_published)
{
    const char *trace =
        "# field 0 radius 0 id 0123456789abcdef\n0 1 9.5 5.5\n# tick 1 close 4,0,4,4\n"
        "1 1 8.5 5.5\n# tick 2 field 0 radius 0 id 1111111111111111 published\n"
        "2 1 7.5 5.5\n";
    rooms room;
    movie m;
    reel r = three_frames(trace, &room, &m);

    /* Frame 1: cell 3,0 (west of the door) keeps its arrow of the open
     * map; the door's cells are walls. */
    cr_expect_eq(memcmp(r.canvas[1] + 30 * 3, room.open_pic + 30 * 3, 10 * 3), 0,
                 "frame 1: cell 3,0's top row as in the open map");
    cr_expect(!rows_match(&r, 1, &room, 0), "frame 1: the door drawn");
    cr_expect(rows_match(&r, 2, &room, 1), "frame 2: the field published");
    three_frames_free(&r, &room, &m);
}

/* A field ffsim took back from its cache ends its line in 'again': it
 * is a publication all the same (the same frames as without the word);
 * another word there is not. */
Test(animate, a_field_published_again_is_published)
{
    const char *plain =
        "# field 0 radius 0 id 0123456789abcdef\n0 1 9.5 5.5\n# tick 1 close 4,0,4,4\n"
        "1 1 8.5 5.5\n# tick 2 field 0 radius 0 id 1111111111111111 published\n"
        "2 1 7.5 5.5\n";
    const char *again =
        "# field 0 radius 0 id 0123456789abcdef\n0 1 9.5 5.5\n# tick 1 close 4,0,4,4\n"
        "1 1 8.5 5.5\n# tick 2 field 0 radius 0 id 1111111111111111 published again\n"
        "2 1 7.5 5.5\n";
    const char *other =
        "# field 0 radius 0 id 0123456789abcdef\n0 1 9.5 5.5\n# tick 1 close 4,0,4,4\n"
        "1 1 8.5 5.5\n# tick 2 field 0 radius 0 id 1111111111111111 published later\n"
        "2 1 7.5 5.5\n";
    rooms room[3];
    movie m[3];
    reel r[3];
    int k;

    r[0] = three_frames(plain, &room[0], &m[0]);
    r[1] = three_frames(again, &room[1], &m[1]);
    r[2] = three_frames(other, &room[2], &m[2]);
    cr_expect(rows_match(&r[1], 2, &room[1], 1), "frame 2: the field published again");
    cr_expect(!rows_match(&r[2], 2, &room[2], 1), "frame 2: another word publishes nothing");
    cr_expect(rows_match(&r[0], 2, &room[0], 1));
    for (k = 0; k < 3; k++)
        three_frames_free(&r[k], &room[k], &m[k]);
}

/* The label: `tick T  S s` in the font at the map's top left, on paper,
 * in every frame; none without it. */
Test(animate, each_frame_is_labelled_with_its_tick_and_time)
{
    unsigned paper = (unsigned)(ff_colour_paper[0] << 16 | ff_colour_paper[1] << 8 |
                                ff_colour_paper[2]);
    rooms room;
    movie on, off;
    reel r_on, r_off;
    uint32_t k;

    rooms_make(&room, FF_LAYER_DISTANCE);
    on = animate_trace(DOOR_TRACE, &room.open, FF_LAYER_DISTANCE, 1, 1, 0, NULL);
    off = animate_trace(DOOR_TRACE, &room.open, FF_LAYER_DISTANCE, 0, 1, 0, NULL);
    r_on = take_apart(&on);
    r_off = take_apart(&off);
    cr_assert_eq(on.key.k, 1, "a 100-pixel map: one pixel a dot");
    for (k = 0; k < r_on.frames; k++) {
        char text[64];
        uint8_t want[100 * 3];
        uint32_t tw;
        int gy, x;
        snprintf(text, sizeof text, "tick %u  %g s", k, k * 0.25);
        tw = (uint32_t)ff_text_width(text, 1);
        /* Text rows from y = 2 + 2 (margin, padding), x from 4. */
        for (gy = 0; gy < FF_FONT_ROWS; gy++) {
            const uint8_t *got = r_on.canvas[k] + ((size_t)(4 + gy) * r_on.w) * 3;
            for (x = 0; x < 100; x++)
                memcpy(want + 3 * x, ff_colour_paper, 3);
            ff_text_row(want, 100, text, 4, 1, gy, ff_colour_black);
            cr_expect_eq(memcmp(got + 2 * 3, want + 2 * 3, (size_t)(tw + 4) * 3), 0,
                         "frame %u: row %d of '%s'", k, gy, text);
        }
        cr_expect_neq(px(&r_off, k, 3, 5), paper, "frame %u: no label without it", k);
        cr_expect(rows_match(&r_off, k, &room, k >= 3 && k < 6), "frame %u: the map there", k);
    }
    reel_free(&r_on);
    reel_free(&r_off);
    free(on.bytes);
    free(off.bytes);
    rooms_free(&room);
}

/* Map events outside the map, and malformed ones, are refused by the
 * first pass, before anything is drawn. */
Test(animate, map_events_outside_the_map_are_refused)
{
    ff_field f;
    ff_overlay ov;
    ff_animation a;
    ff_error err;
    FILE *in;

    searched_room(&f, 0, 0, -1);
    ff_overlay_init(&ov, &f.grid, 10);
    in = tu_string_file("0 1 1.5 1.5\n# tick 1 close 4,0,10,2\n1 1 1.5 1.5\n");
    cr_expect_eq(ff_animation_scan(&a, in, "t", 1, &ov, &err), FF_EINPUT);
    cr_expect_eq(err.line, 2);
    cr_expect(strstr(err.msg, "4,0,10,2 are not a rectangle of the 10x6 map"), "%s", err.msg);
    ff_animation_free(&a);
    fclose(in);
    in = tu_string_file("0 1 1.5 1.5\n# tick 1 close 4,x,5,2\n1 1 1.5 1.5\n");
    cr_expect_eq(ff_animation_scan(&a, in, "t", 1, &ov, &err), FF_EINPUT);
    cr_expect_eq(err.line, 2);
    cr_expect(strstr(err.msg, "want '# tick T close X0,Y0,X1,Y1'"), "%s", err.msg);
    ff_animation_free(&a);
    fclose(in);
    ff_overlay_free(&ov);
    ff_field_free(&f);
}
