/* animate.c - a crowd trace as an APNG; see animate.h and man 1 ffpng.
 *
 * The first frame is the whole picture; each later one is the rectangle
 * of the map that holds the agents' marks of this frame and of the one
 * before (so that marks that moved are erased), redrawn from the
 * background, which APNG keeps from frame to frame (dispose none).
 */
#include "animate.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "apng.h"
#include "eventmap.h"
#include "font.h"
#include "grow.h"
#include "palette.h"

void ff_animation_free(ff_animation *a)
{
    if (a->spooled && a->trace)
        fclose(a->trace);
    ff_trace_notes_free(&a->notes);
    memset(a, 0, sizeof *a);
}

/* Copy f to a temporary file, positioned at its start. */
static ff_status spool(ff_animation *a, FILE *f, ff_error *err)
{
    char buf[65536];
    size_t n;
    FILE *t = tmpfile();

    if (!t)
        return ff_error_set(err, FF_EIO, a->name, 0, 0, "cannot make a temporary copy: %s",
                            strerror(errno));
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        if (fwrite(buf, 1, n, t) != n) {
            fclose(t);
            return ff_error_set(err, FF_EIO, a->name, 0, 0, "cannot make a temporary copy: %s",
                                strerror(errno));
        }
    if (ferror(f) || fflush(t) != 0 || fseek(t, 0, SEEK_SET) != 0) {
        fclose(t);
        return ff_error_set(err, FF_EIO, a->name, 0, 0, "read error");
    }
    a->trace = t;
    a->spooled = 1;
    a->start = 0;
    return FF_OK;
}

ff_status ff_animation_scan(ff_animation *a, FILE *f, const char *name, uint64_t every,
                            ff_overlay *ov, ff_error *err)
{
    ff_trace_reader tr;
    ff_trace_record r;
    ff_trace_ids ids = { NULL, 0, 0, NULL, 0 };
    ff_status st;
    size_t idx;
    int added;

    memset(a, 0, sizeof *a);
    a->name = name;
    a->every = every ? every : 1;
    a->trace = f;
    if ((a->start = ftell(f)) < 0 || fseek(f, a->start, SEEK_SET) != 0) {
        if ((st = spool(a, f, err)) != FF_OK)
            return st;
    }
    ff_trace_init(&tr, a->trace, name, a->every);
    tr.notes = &a->notes;
    while ((st = ff_trace_next(&tr, &r, err)) == FF_OK) {
        double x, y, radius;
        if ((st = ff_overlay_agent(ov, &r, name, tr.rec.line, &x, &y, &radius, err)) != FF_OK ||
            (st = ff_trace_ids_find(&ids, r.id, &idx, &added, err)) != FF_OK)
            break;
        ov->states_seen |= 1u << r.state;
        if (ov->density_count)
            ff_overlay_count(ov, r.x, r.y);
    }
    a->agents = ids.n;
    ff_trace_ids_free(&ids);
    if (st != FF_ENOTFOUND)
        return st;
    if ((st = ff_eventmap_check(ov->grid, &a->notes, name, err)) != FF_OK)
        return st;
    if (tr.frames == 0)
        return ff_error_set(err, FF_EINPUT, name, 0, 0, "the trace has no line to animate");
    if (tr.frames > UINT32_MAX - 1)
        return ff_error_set(err, FF_EINPUT, name, 0, 0, "%llu frames: more than APNG holds",
                            (unsigned long long)tr.frames);
    a->frames = tr.frames;
    ov->density_ticks += tr.frames;
    if (fseek(a->trace, a->start, SEEK_SET) != 0)
        return ff_error_set(err, FF_EIO, name, 0, 0, "cannot read the trace again: %s",
                            strerror(errno));
    return FF_OK;
}

/* An agent as the frames see it. */
typedef struct {
    double x[FF_ANIMATE_TRAIL_MAX], y[FF_ANIMATE_TRAIL_MAX];  /* last positions, oldest first */
    int n;                  /* positions kept */
    double radius;          /* pixels */
    ff_trace_state state;
    uint64_t seen;          /* the frame it was last in, + 1 */
} mover;

/* A rectangle of pixels, [x0, x1) x [y0, y1); empty when x0 >= x1. */
typedef struct {
    int64_t x0, y0, x1, y1;
} box;

static void box_add(box *b, const ff_shape *s)
{
    int64_t x0 = (int64_t)floor(fmin(s->ax, s->bx) - s->r), x1 = (int64_t)ceil(fmax(s->ax, s->bx) + s->r) + 1;

    if (b->x0 >= b->x1) {
        b->x0 = x0;
        b->x1 = x1;
        b->y0 = s->row0;
        b->y1 = s->row1 + 1;
        return;
    }
    b->x0 = x0 < b->x0 ? x0 : b->x0;
    b->x1 = x1 > b->x1 ? x1 : b->x1;
    b->y0 = s->row0 < b->y0 ? s->row0 : b->y0;
    b->y1 = s->row1 + 1 > b->y1 ? s->row1 + 1 : b->y1;
}

static box box_union_clip(box a, box b, int64_t w, int64_t h)
{
    box u = a;

    if (u.x0 >= u.x1)
        u = b;
    else if (b.x0 < b.x1) {
        u.x0 = b.x0 < u.x0 ? b.x0 : u.x0;
        u.y0 = b.y0 < u.y0 ? b.y0 : u.y0;
        u.x1 = b.x1 > u.x1 ? b.x1 : u.x1;
        u.y1 = b.y1 > u.y1 ? b.y1 : u.y1;
    }
    u.x0 = u.x0 < 0 ? 0 : u.x0;
    u.y0 = u.y0 < 0 ? 0 : u.y0;
    u.x1 = u.x1 > w ? w : u.x1;
    u.y1 = u.y1 > h ? h : u.y1;
    if (u.x0 >= u.x1 || u.y0 >= u.y1) {
        /* Nothing moved in sight: a frame must still have a pixel. */
        u.x0 = u.y0 = 0;
        u.x1 = u.y1 = 1;
    }
    return u;
}

/* State of the second pass. */
typedef struct {
    ff_trace_reader tr;
    ff_trace_record next;   /* the line read ahead */
    int have_next;
    ff_trace_ids ids;
    mover *agent;
    size_t cap;
    ff_shapes marks;        /* this frame's agents */
    box last;               /* the previous frame's marks */
    box last_label;         /* the previous frame's label */
    char label[64];         /* this frame's label, or "" */
} player;

/* Take in the lines of frame k. */
static ff_status read_frame(player *p, const ff_overlay *ov, const char *name, uint64_t k,
                            int trail, ff_error *err)
{
    ff_status st;

    while (p->have_next && p->next.frame == k) {
        double x, y, radius;
        size_t idx;
        int added, j;
        mover *m;
        if ((st = ff_overlay_agent(ov, &p->next, name, p->tr.rec.line, &x, &y, &radius, err)) !=
                FF_OK ||
            (st = ff_trace_ids_find(&p->ids, p->next.id, &idx, &added, err)) != FF_OK)
            return st;
        if (idx >= p->cap) {
            mover *grown = ff_grow(p->agent, &p->cap, idx + 1, sizeof *grown, 64);
            if (!grown)
                return ff_error_set(err, FF_ENOMEM, name, 0, 0, "out of memory for agents");
            p->agent = grown;
        }
        m = &p->agent[idx];
        if (added || m->seen + 1 < k + 1)
            m->n = 0;  /* new, or back after a gap: no trail across it */
        if (m->n == trail) {
            for (j = 1; j < trail; j++) {
                m->x[j - 1] = m->x[j];
                m->y[j - 1] = m->y[j];
            }
            m->n--;
        }
        m->x[m->n] = x;
        m->y[m->n] = y;
        m->n++;
        m->radius = radius > 1 ? radius : 1;
        m->state = p->next.state;
        m->seen = k + 1;
        st = ff_trace_next(&p->tr, &p->next, err);
        if (st == FF_ENOTFOUND)
            p->have_next = 0;
        else if (st != FF_OK)
            return st;
    }
    return FF_OK;
}

/* This frame's marks: the trails, then each agent's ringed disc. */
static ff_status frame_marks(player *p, uint64_t k, int scale, box *b, ff_error *err)
{
    double trail_r = ff_overlay_trail(scale), ring = ff_overlay_ring(scale);
    size_t i;
    int j;
    ff_status st;

    p->marks.n = 0;
    b->x0 = b->x1 = 0;
    for (i = 0; i < p->ids.n; i++) {
        const mover *m = &p->agent[i];
        if (m->seen != k + 1)
            continue;
        for (j = 1; j < m->n; j++)
            if ((st = ff_shapes_push(&p->marks, m->x[j - 1], m->y[j - 1], m->x[j], m->y[j], trail_r,
                                     ff_state_colour[m->state], NULL, err)) != FF_OK)
                return st;
    }
    for (i = 0; i < p->ids.n; i++) {
        const mover *m = &p->agent[i];
        double x, y;
        if (m->seen != k + 1)
            continue;
        x = m->x[m->n - 1];
        y = m->y[m->n - 1];
        if ((st = ff_shapes_push(&p->marks, x, y, x, y, m->radius + ring, ff_colour_black, NULL,
                                 err)) != FF_OK ||
            (st = ff_shapes_push(&p->marks, x, y, x, y, m->radius, ff_state_colour[m->state], NULL,
                                 err)) != FF_OK)
            return st;
    }
    for (i = 0; i < p->marks.n; i++)
        box_add(b, &p->marks.shape[i]);
    return FF_OK;
}

/* Dots of the label's margin and padding. */
#define LABEL_MARGIN 2
#define LABEL_PAD 2

/* The label of the frame of tick: `tick T  S s` (S the tick times the
 * trace's tick length, when its header gives one), and the box it covers
 * at the map's top left, k pixels a dot. */
static box frame_label(player *p, double tick, double tick_dt, int k)
{
    box b;

    if (tick_dt > 0)
        snprintf(p->label, sizeof p->label, "tick %.15g  %.6g s", tick, tick * tick_dt);
    else
        snprintf(p->label, sizeof p->label, "tick %.15g", tick);
    b.x0 = b.y0 = (int64_t)LABEL_MARGIN * k;
    b.x1 = b.x0 + (int64_t)ff_text_width(p->label, k) + 2 * LABEL_PAD * k;
    b.y1 = b.y0 + (int64_t)(FF_FONT_ROWS + 2 * LABEL_PAD) * k;
    return b;
}

/* Row y of the label's box onto row (width pixels): paper, and the text
 * in black. */
static void label_row(const player *p, const box *b, uint8_t *row, uint32_t width, int k,
                      uint32_t y)
{
    int64_t x, text_y = b->y0 + (int64_t)LABEL_PAD * k;

    if ((int64_t)y < b->y0 || (int64_t)y >= b->y1)
        return;
    for (x = b->x0; x < b->x1 && x < (int64_t)width; x++)
        memcpy(row + 3 * x, ff_colour_paper, 3);
    if ((int64_t)y >= text_y && (int64_t)y < text_y + (int64_t)FF_FONT_ROWS * k)
        ff_text_row(row, width, p->label, b->x0 + (int64_t)LABEL_PAD * k, k,
                    (int)(((int64_t)y - text_y) / k), ff_colour_black);
}

/* Draw the background of the field f into background (row_bytes a row),
 * as bg was begun: the picture of a frame after a map event.  When its
 * key comes out of another size (an item more wraps to a new line), the
 * map's rows alone are drawn again and the key stays as it was. */
static ff_status draw_background(const ff_drawing *bg, const ff_field *f, uint8_t *background,
                                 size_t row_bytes, ff_error *err)
{
    ff_drawing d;
    ff_status st = ff_draw_begin(&d, f, &bg->opt, bg->overlay, err);
    int same = st == FF_OK && d.width == bg->width && d.height == bg->height;
    uint8_t *row = NULL;
    uint32_t y, rows;

    if (st != FF_OK)
        return st;
    if (!same && !(row = malloc((size_t)d.width * 3))) {
        ff_draw_end(&d);
        return ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for a row");
    }
    rows = same ? d.height : bg->map_height;
    for (y = 0; y < rows; y++) {
        if (same) {
            ff_draw_row(&d, background + (size_t)y * row_bytes);
        } else {
            ff_draw_row(&d, row);
            memcpy(background + (size_t)y * row_bytes, row, (size_t)bg->map_width * 3);
        }
    }
    free(row);
    ff_draw_end(&d);
    return FF_OK;
}

ff_status ff_animation_write(ff_animation *a, ff_drawing *bg, const ff_overlay *ov,
                             const ff_animate_options *opt, FILE *out, const char *out_name,
                             ff_error *err)
{
    size_t row_bytes = (size_t)bg->width * 3;
    uint8_t *background = NULL, *row = NULL;
    ff_shape_rows top, agents;
    ff_apng_writer png;
    ff_eventmap events;
    player p;
    ff_status st;
    uint64_t k;
    uint32_t y;
    int label_k = bg->legend.k > 0 ? bg->legend.k : 1;
    int trail = opt->trail < 1 ? 1 : opt->trail > FF_ANIMATE_TRAIL_MAX ? FF_ANIMATE_TRAIL_MAX : opt->trail;

    memset(&p, 0, sizeof p);
    memset(&top, 0, sizeof top);
    memset(&agents, 0, sizeof agents);
    memset(&png, 0, sizeof png);
    memset(&events, 0, sizeof events);
    if ((st = ff_eventmap_init(&events, bg->field, &a->notes,
                               bg->opt.layer == FF_LAYER_DISTANCE ||
                                   bg->opt.layer == FF_LAYER_DIRECTION,
                               a->name, err)) != FF_OK)
        goto done;
    if ((uint64_t)row_bytes * bg->height > FF_DRAW_MAX_BYTES ||
        !(background = malloc(row_bytes * bg->height)) || !(row = malloc(row_bytes))) {
        st = ff_error_set(err, FF_ENOMEM, NULL, 0, 0, "out of memory for a %ux%u background",
                          (unsigned)bg->width, (unsigned)bg->height);
        goto done;
    }
    for (y = 0; y < bg->height; y++)
        ff_draw_row(bg, background + (size_t)y * row_bytes);
    if ((st = ff_shape_rows_begin(&top, &ov->shapes, err)) != FF_OK)
        goto done;
    ff_trace_init(&p.tr, a->trace, a->name, a->every);
    st = ff_trace_next(&p.tr, &p.next, err);
    if (st != FF_OK && st != FF_ENOTFOUND)
        goto done;
    p.have_next = st == FF_OK;
    if ((st = ff_apng_begin(&png, out, bg->width, bg->height, (uint32_t)a->frames, 1, opt->fps,
                            out_name, err)) != FF_OK)
        goto done;
    for (k = 0; k < a->frames; k++) {
        box now, label = { 0, 0, 0, 0 }, b;
        double tick = p.have_next ? p.next.tick : 0;
        int redrawn = 0;
        if ((st = ff_eventmap_advance(&events, tick, &redrawn, err)) != FF_OK ||
            (redrawn && (st = draw_background(bg, ff_eventmap_field(&events), background,
                                              row_bytes, err)) != FF_OK) ||
            (st = read_frame(&p, ov, a->name, k, trail, err)) != FF_OK ||
            (st = frame_marks(&p, k, bg->opt.scale, &now, err)) != FF_OK)
            goto done;
        if (opt->label)
            label = frame_label(&p, tick, a->notes.tick_dt, label_k);
        if (k == 0 || redrawn) {
            b.x0 = b.y0 = 0;
            b.x1 = bg->width;
            b.y1 = bg->height;
        } else {
            b = box_union_clip(box_union_clip(now, p.last, bg->map_width, bg->map_height),
                               box_union_clip(label, p.last_label, bg->map_width,
                                              bg->map_height),
                               bg->map_width, bg->map_height);
        }
        p.last = now;
        p.last_label = label;
        ff_shape_rows_end(&agents);
        ff_shape_rows_rewind(&top);
        if ((st = ff_shape_rows_begin(&agents, &p.marks, err)) != FF_OK ||
            (st = ff_apng_frame(&png, (uint32_t)b.x0, (uint32_t)b.y0, (uint32_t)(b.x1 - b.x0),
                                (uint32_t)(b.y1 - b.y0), err)) != FF_OK)
            goto done;
        for (y = (uint32_t)b.y0; y < (uint32_t)b.y1; y++) {
            memcpy(row, background + (size_t)y * row_bytes, row_bytes);
            if (y < bg->map_height) {
                ff_shape_rows_step(&agents, y);
                ff_shape_rows_draw(&agents, row, y, bg->map_width, 0);
                ff_draw_goals_row(bg, row, y);
                ff_shape_rows_step(&top, y);
                ff_shape_rows_draw(&top, row, y, bg->map_width, 1);
                if (opt->label)
                    label_row(&p, &label, row, bg->map_width, label_k, y);
            }
            if ((st = ff_apng_row(&png, row + (size_t)b.x0 * 3, err)) != FF_OK)
                goto done;
        }
        if (opt->progress)
            ff_progress_update(opt->progress, k + 1);
    }
    st = ff_apng_end(&png, err);
done:
    ff_eventmap_free(&events);
    ff_apng_discard(&png);
    ff_shape_rows_end(&agents);
    ff_shape_rows_end(&top);
    ff_shapes_free(&p.marks);
    ff_trace_ids_free(&p.ids);
    free(p.agent);
    free(background);
    free(row);
    return st;
}
