/* legend.c - the key below a picture and the --grid coordinate strips; see
 * legend.h and man 1 ffpng.
 *
 * The key, in dots from its top: a margin of 3, the title (a line of
 * text, 9), a gap of 3; with a bar: the bar (8), its ticks (2), a gap of
 * 1, the tick labels (9), a gap of 3; then lines of swatches (9 each, 2
 * apart), a margin of 3.  Left and right margins are 4 dots.
 */
#include "legend.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "font.h"
#include "palette.h"
#include "raster.h"

#define MARGIN_X 4
#define MARGIN_Y 3
#define GAP 3
#define BAR_ROWS 8
#define TICK_ROWS 2
#define LINE_ROWS FF_FONT_ROWS
#define LINE_GAP 2
#define SWATCH 7
#define BAR_MIN 120

void ff_legend_init(ff_legend *lg, uint64_t map_width, const char *title)
{
    memset(lg, 0, sizeof *lg);
    lg->k = map_width >= 900 ? 3 : map_width >= 600 ? 2 : 1;
    snprintf(lg->title, sizeof lg->title, "%s", title);
    lg->swatch = (uint32_t)(SWATCH * lg->k);
}

void ff_legend_add(ff_legend *lg, const uint8_t *rgb, ff_key_shape shape, const char *label)
{
    ff_key_item *it;

    if (lg->nitems >= FF_KEY_ITEMS)
        return;
    it = &lg->item[lg->nitems++];
    ff_set_rgb(it->rgb, rgb);
    it->shape = shape;
    snprintf(it->label, sizeof it->label, "%s", label);
}

void ff_legend_bar(ff_legend *lg, double low, double high)
{
    lg->bar = 1;
    lg->low = low;
    lg->high = high;
}

/* An item's width in pixels, its trailing gap included. */
static uint64_t item_width(const ff_legend *lg, const ff_key_item *it)
{
    return (uint64_t)(SWATCH + 2 + 6) * (uint64_t)lg->k + ff_text_width(it->label, lg->k);
}

uint64_t ff_legend_min_width(const ff_legend *lg)
{
    uint64_t w = ff_text_width(lg->title, lg->k), m = (uint64_t)(2 * MARGIN_X) * (uint64_t)lg->k;
    int i;

    if (lg->bar && w < (uint64_t)BAR_MIN * (uint64_t)lg->k)
        w = (uint64_t)BAR_MIN * (uint64_t)lg->k;
    for (i = 0; i < lg->nitems; i++)
        if (item_width(lg, &lg->item[i]) > w)
            w = item_width(lg, &lg->item[i]);
    return w + m;
}

/* A tick value's label, as short as its step allows. */
static void tick_label(char *buf, size_t cap, double v, double step)
{
    int decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);

    if (decimals > 6)
        decimals = 6;
    if (fabs(v) < step * 1e-9)
        v = 0;
    if (fabs(v) >= 1e7)
        snprintf(buf, cap, "%.3g", v);
    else
        snprintf(buf, cap, "%.*f", decimals, v);
}

/* Ticks at round values (1, 2 or 5 times a power of ten apart), as many
 * as fit with their labels a little apart. */
static void layout_ticks(ff_legend *lg)
{
    double range = lg->high - lg->low, raw, mag, norm, step, v, first;
    uint64_t span = lg->bar_x1 - lg->bar_x0, widest;
    char probe[24];
    int most, n = 0;

    lg->nticks = 0;
    if (!(range > 0) || !isfinite(range)) {
        lg->tick[0] = lg->low;
        tick_label(lg->tick_label[0], sizeof lg->tick_label[0], lg->low, 1);
        lg->nticks = 1;
        return;
    }
    /* Label widths depend on the step; one pass with a guess is enough. */
    snprintf(probe, sizeof probe, "%.4g", fabs(lg->high) > fabs(lg->low) ? lg->high : lg->low);
    widest = ff_text_width(probe, lg->k) + (uint64_t)(4 * lg->k);
    most = (int)(span / (widest ? widest : 1));
    if (most < 2)
        most = 2;
    if (most > FF_KEY_TICKS)
        most = FF_KEY_TICKS;
    raw = range / (most - 1);
    mag = pow(10, floor(log10(raw)));
    norm = raw / mag;
    step = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * mag;
    first = ceil(lg->low / step - 1e-9) * step;
    for (v = first; v <= lg->high + step * 1e-9 && n < FF_KEY_TICKS; v = first + step * ++n) {
        lg->tick[n] = v;
        tick_label(lg->tick_label[n], sizeof lg->tick_label[n], v, step);
    }
    lg->nticks = n;
}

void ff_legend_layout(ff_legend *lg, uint32_t width, uint32_t top)
{
    uint32_t k = (uint32_t)lg->k, y = top + MARGIN_Y * k, x, x_end = width - MARGIN_X * k;
    int i;

    lg->top = top;
    y += (LINE_ROWS + GAP) * k;
    if (lg->bar) {
        lg->bar_x0 = MARGIN_X * k;
        lg->bar_x1 = x_end;
        lg->bar_y0 = y;
        lg->bar_y1 = y + BAR_ROWS * k;
        layout_ticks(lg);
        y += (BAR_ROWS + TICK_ROWS + 1 + LINE_ROWS + GAP) * k;
    }
    x = MARGIN_X * k;
    for (i = 0; i < lg->nitems; i++) {
        uint64_t w = item_width(lg, &lg->item[i]);
        if (x > MARGIN_X * k && x + w - 6 * k > x_end) {
            x = MARGIN_X * k;
            y += (LINE_ROWS + LINE_GAP) * k;
        }
        lg->item[i].x = x;
        lg->item[i].y = y;
        x += (uint32_t)w;
    }
    if (lg->nitems)
        y += LINE_ROWS * k;
    else
        y -= GAP * k;
    lg->rows = y + MARGIN_Y * k - top;
}

static int64_t tick_x(const ff_legend *lg, double v)
{
    double span = lg->bar_x1 - lg->bar_x0 - 1, t = (v - lg->low) / (lg->high - lg->low);

    if (!(lg->high > lg->low))
        t = 0;
    return (int64_t)lg->bar_x0 + (int64_t)floor(t * span + 0.5);
}

static void swatch_row(const ff_legend *lg, const ff_key_item *it, uint8_t *row, uint32_t oy)
{
    uint32_t k = (uint32_t)lg->k, s = lg->swatch;
    int64_t x0 = it->x, x1 = (int64_t)it->x + s - 1, a, b;
    double c = s / 2.0, lo, hi;

    switch (it->shape) {
    case FF_KEY_SQUARE:
        /* A black outline, so that light colours show on the paper. */
        if (oy == 0 || oy == s - 1) {
            ff_fill(row, x0, x1, ff_colour_black);
        } else {
            ff_fill(row, x0, x0, ff_colour_black);
            ff_fill(row, x0 + 1, x1 - 1, it->rgb);
            ff_fill(row, x1, x1, ff_colour_black);
        }
        return;
    case FF_KEY_DISC:
        if (ff_capsule_span(c, c, c, c, c, oy + 0.5, &lo, &hi) &&
            ff_span_columns(lo, hi, s, &a, &b))
            ff_fill(row, x0 + a, x0 + b, ff_colour_black);
        if (ff_capsule_span(c, c, c, c, c - (k > 1 ? k : 1), oy + 0.5, &lo, &hi) &&
            ff_span_columns(lo, hi, s, &a, &b))
            ff_fill(row, x0 + a, x0 + b, it->rgb);
        return;
    case FF_KEY_LINE:
        if (oy >= 2 * k && oy < 5 * k)
            ff_fill(row, x0, x1, ff_colour_black);
        if (oy >= 3 * k && oy < 4 * k)
            ff_fill(row, x0 + k, x1 - k, it->rgb);
        return;
    }
}

void ff_legend_row(const ff_legend *lg, uint8_t *row, uint32_t width, uint32_t py,
                   void (*colour_of)(const void *ctx, double v, uint8_t out[3]), const void *ctx)
{
    uint32_t k = (uint32_t)lg->k, title_y = lg->top + MARGIN_Y * k, x;
    int i;

    ff_fill(row, 0, (int64_t)width - 1, ff_colour_paper);
    if (py >= title_y && py < title_y + LINE_ROWS * k)
        ff_text_row(row, width, lg->title, MARGIN_X * k, (int)k, (int)((py - title_y) / k),
                    ff_colour_black);
    if (lg->bar) {
        uint32_t tick_y = lg->bar_y1, label_y = lg->bar_y1 + (TICK_ROWS + 1) * k;
        if (py >= lg->bar_y0 && py < lg->bar_y1) {
            double span = lg->bar_x1 - lg->bar_x0 - 1;
            uint8_t rgb[3];
            for (x = lg->bar_x0; x < lg->bar_x1; x++) {
                double t = span > 0 ? (x - lg->bar_x0) / span : 0;
                colour_of(ctx, lg->low + t * (lg->high - lg->low), rgb);
                ff_set_rgb(row + 3 * (size_t)x, rgb);
            }
        } else if (py >= tick_y && py < tick_y + TICK_ROWS * k) {
            for (i = 0; i < lg->nticks; i++) {
                int64_t tx = tick_x(lg, lg->tick[i]), a = tx - (int64_t)(k - 1) / 2;
                ff_fill(row, a < 0 ? 0 : a, a + k - 1, ff_colour_black);
            }
        } else if (py >= label_y && py < label_y + LINE_ROWS * k) {
            int64_t last_end = -1;
            for (i = 0; i < lg->nticks; i++) {
                int64_t w = (int64_t)ff_text_width(lg->tick_label[i], (int)k);
                int64_t a = tick_x(lg, lg->tick[i]) - w / 2;
                if (a < (int64_t)lg->bar_x0)
                    a = lg->bar_x0;
                if (a + w > (int64_t)lg->bar_x1)
                    a = (int64_t)lg->bar_x1 - w;
                if (a <= last_end + (int64_t)(2 * k))
                    continue;
                ff_text_row(row, width, lg->tick_label[i], a, (int)k, (int)((py - label_y) / k),
                            ff_colour_black);
                last_end = a + w;
            }
        }
    }
    for (i = 0; i < lg->nitems; i++) {
        const ff_key_item *it = &lg->item[i];
        if (py < it->y || py >= it->y + LINE_ROWS * k)
            continue;
        if (py < it->y + lg->swatch)
            swatch_row(lg, it, row, py - it->y);
        ff_text_row(row, width, it->label, (int64_t)it->x + (SWATCH + 2) * k, (int)k,
                    (int)((py - it->y) / k), ff_colour_black);
    }
}

/* ---- --grid ---- */

#define GRID_TICK 3

static int digits(int32_t v)
{
    int n = 1;

    while (v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}

uint32_t ff_grid_strip_rows(int k)
{
    return (uint32_t)((GRID_TICK + 1 + LINE_ROWS + 2) * k);
}

/* Right of the map the tick is shorter and the number farther from it,
 * so that the two do not read as a minus sign. */
#define RIGHT_TICK 2
#define RIGHT_GAP 3

uint32_t ff_grid_strip_cols(int k, int32_t h)
{
    return (uint32_t)((RIGHT_TICK + RIGHT_GAP + FF_FONT_ADVANCE * digits(h > 0 ? h - 1 : 0) - 1 + 3) *
                      k);
}

/* Label every stride-th tick so that labels `room` pixels wide fit. */
static int64_t label_stride(int64_t room, int scale, int n)
{
    int64_t gap = (int64_t)scale * n;

    return gap >= room ? 1 : (room + gap - 1) / gap;
}

void ff_grid_bottom_row(uint8_t *row, uint32_t map_width, uint32_t py, int k, int scale, int n,
                        int32_t w)
{
    int64_t room = (int64_t)FF_FONT_ADVANCE * digits(w - 1) * k + 2 * k;
    int64_t stride = label_stride(room, scale, n), i;
    char label[24];

    for (i = 0; i < w; i += n) {
        int64_t cx = i * scale + scale / 2;
        if (py < (uint32_t)(GRID_TICK * k)) {
            int64_t a = cx - (k - 1) / 2;
            ff_fill(row, a < 0 ? 0 : a, a + k - 1 < (int64_t)map_width ? a + k - 1 : map_width - 1,
                    ff_colour_black);
        } else if (py >= (uint32_t)((GRID_TICK + 1) * k) &&
                   py < (uint32_t)((GRID_TICK + 1 + LINE_ROWS) * k) && (i / n) % stride == 0) {
            int64_t tw;
            snprintf(label, sizeof label, "%lld", (long long)i);
            tw = (int64_t)ff_text_width(label, k);
            if (cx - tw / 2 < 0 || cx - tw / 2 + tw > (int64_t)map_width)
                continue;
            ff_text_row(row, map_width, label, cx - tw / 2, k,
                        (int)((py - (GRID_TICK + 1) * (uint32_t)k) / (uint32_t)k), ff_colour_black);
        }
    }
}

void ff_grid_right_row(uint8_t *row, uint32_t x0, uint32_t width, uint32_t py, int k, int scale,
                       int n, int32_t h)
{
    int64_t stride = label_stride((int64_t)(7 + 3) * k, scale, n), every = (int64_t)n * stride;
    int64_t j = (int64_t)(py / (uint32_t)scale), m;
    char label[24];

    /* The tick of a row multiple of n on this pixel row, if any. */
    if (j % n == 0) {
        int64_t cy = j * scale + scale / 2, a = cy - (k - 1) / 2;
        if ((int64_t)py >= a && (int64_t)py < a + k)
            ff_fill(row, x0, x0 + RIGHT_TICK * k - 1, ff_colour_black);
    }
    /* Labels 7 dots high centered on their row: the nearest few. */
    for (m = j / every - 1; m <= j / every + 1; m++) {
        int64_t jj = m * every, top;
        if (jj < 0 || jj >= h)
            continue;
        top = jj * scale + scale / 2 - (7 * k) / 2;
        if ((int64_t)py >= top && (int64_t)py < top + (int64_t)LINE_ROWS * k && top >= 0) {
            snprintf(label, sizeof label, "%lld", (long long)jj);
            ff_text_row(row, width, label, x0 + (RIGHT_TICK + RIGHT_GAP) * k, k, (int)((py - top) / k),
                        ff_colour_black);
        }
    }
}
