/* legend.h - the key below a picture (man 1 ffpng, "The key"): a title
 * naming the layer and its unit, a colour bar with labelled ticks, and a
 * swatch for each other colour drawn (wall, unreachable, goal, terrain
 * classes, direction colours, each overlay and agent state), flowed into
 * lines across the picture; and the coordinate strips of --grid.
 *
 * Sizes are in dots of k x k pixels (k = 1, 2 from a map 600 pixels wide,
 * 3 from 900), so the key stays legible on large pictures.
 */
#ifndef FF_LEGEND_H
#define FF_LEGEND_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How a key item's swatch is drawn. */
typedef enum {
    FF_KEY_SQUARE = 0,  /* a filled square: a cell colour */
    FF_KEY_DISC,        /* a disc ringed in black: points, agents, goals */
    FF_KEY_LINE         /* a line in a black casing: paths */
} ff_key_shape;

typedef struct {
    uint8_t rgb[3];
    ff_key_shape shape;
    char label[40];
    uint32_t x, y;      /* the swatch's top-left pixel, in the picture */
} ff_key_item;

#define FF_KEY_ITEMS 48
#define FF_KEY_TICKS 16

/* The key's content and layout. */
typedef struct {
    int k;                  /* pixels per dot, >= 1 */
    uint32_t top, rows;     /* first picture row and height in pixels (0: no key) */
    char title[128];
    int bar;                /* 1: a colour bar from low to high */
    uint32_t bar_x0, bar_x1;    /* the bar's columns, [x0, x1) */
    uint32_t bar_y0, bar_y1;    /* its rows in the picture, [y0, y1) */
    double low, high;
    int nticks;
    double tick[FF_KEY_TICKS];
    char tick_label[FF_KEY_TICKS][24];
    int nitems;
    ff_key_item item[FF_KEY_ITEMS];
    uint32_t swatch;        /* a swatch's side, pixels */
} ff_legend;

/* Start a key: k from the map's width, the title. */
void ff_legend_init(ff_legend *lg, uint64_t map_width, const char *title);

/* Add a swatch (items past FF_KEY_ITEMS are dropped). */
void ff_legend_add(ff_legend *lg, const uint8_t *rgb, ff_key_shape shape, const char *label);

/* Add a colour bar over [low, high]. */
void ff_legend_bar(ff_legend *lg, double low, double high);

/* The narrowest picture the key fits: its title, its widest item, a bar
 * of 120 dots, margins. */
uint64_t ff_legend_min_width(const ff_legend *lg);

/* Lay the key out across a picture `width` pixels wide from row top:
 * ticks, item positions, rows. */
void ff_legend_layout(ff_legend *lg, uint32_t width, uint32_t top);

/* Fill row py of the picture (a key row: top <= py < top + rows), width
 * pixels; colour_of(ctx, v, out) gives the bar's colour at value v, the
 * same function the cells use. */
void ff_legend_row(const ff_legend *lg, uint8_t *row, uint32_t width, uint32_t py,
                   void (*colour_of)(const void *ctx, double v, uint8_t out[3]), const void *ctx);

/* ---- --grid: cell coordinates every n cells along the bottom and right
 * edges of the map ---- */

/* Height of the bottom strip and width of the right strip, pixels, for a
 * map of w x h cells (k as the key's). */
uint32_t ff_grid_strip_rows(int k);
uint32_t ff_grid_strip_cols(int k, int32_t h);

/* Row py of the bottom strip (0 = its first row): ticks under the centers
 * of cells 0, n, 2n, ... and their numbers where they fit. */
void ff_grid_bottom_row(uint8_t *row, uint32_t map_width, uint32_t py, int k, int scale, int n,
                        int32_t w);

/* The right strip's pixels of map row py, from column x0 (the map's
 * right edge): ticks beside rows 0, n, 2n, ... and their numbers. */
void ff_grid_right_row(uint8_t *row, uint32_t x0, uint32_t width, uint32_t py, int k, int scale,
                       int n, int32_t h);

#ifdef __cplusplus
}
#endif

#endif
