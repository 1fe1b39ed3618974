/* pngmap.c - a grey PNG as a map (painted maps); see pngmap.h.
 *
 * libpng's low-level API, not the simplified one: the simplified API
 * converts grey levels through the file's gAMA chunk, and a painted level
 * must be read as painted.  The only transforms asked for are the
 * expansion of 1, 2 and 4-bit grey to 8 bits and of a palette to RGB:
 * an RGB, RGBA or palette image (as image editors save a grey picture)
 * is a map when every pixel is grey (r == g == b) and opaque. */
#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "pngmap.h"

typedef struct {
    const unsigned char *data;
    size_t size, at;
    char message[200];
    int out_of_memory;  /* an allocation of libpng's failed */
} png_source;

/* libpng's allocations, so that running out of memory is told from a bad
 * file (libpng reports both through png_error). */
static png_voidp png_alloc(png_structp png, png_alloc_size_t n)
{
    void *p = malloc(n);
    if (!p)
        ((png_source *)png_get_mem_ptr(png))->out_of_memory = 1;
    return p;
}

static void png_release(png_structp png, png_voidp p)
{
    (void)png;
    free(p);
}

static void read_bytes(png_structp png, png_bytep out, size_t n)
{
    png_source *src = png_get_io_ptr(png);

    if (n > src->size - src->at)
        png_error(png, "truncated PNG");
    memcpy(out, src->data + src->at, n);
    src->at += n;
}

static void on_error(png_structp png, png_const_charp msg)
{
    png_source *src = png_get_error_ptr(png);

    snprintf(src->message, sizeof src->message, "%s", msg);
    png_longjmp(png, 1);
}

/* The grey levels of the n pixels of 'pixels', each 'channels' bytes
 * (grey, grey and alpha, RGB or RGBA, as libpng gives them), into
 * levels; NULL when every pixel is grey and opaque, otherwise the kind of
 * image the first other pixel makes the file. */
static const char *grey_levels(const unsigned char *pixels, size_t n, int channels,
                               unsigned char *levels)
{
    int has_alpha = channels == 2 || channels == 4;
    size_t i;

    for (i = 0; i < n; i++) {
        const unsigned char *p = pixels + i * (size_t)channels;

        if (channels >= 3 && (p[1] != p[0] || p[2] != p[0]))
            return "colour";
        if (has_alpha && p[channels - 1] != 255)
            return channels == 2 ? "grey with alpha" : "colour";
        levels[i] = p[0];
    }
    return NULL;
}

static void on_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

/* The one refusal of a PNG that is not a grey map, 'kind' of image. */
static ff_status refuse(ff_error *err, const char *name, const char *kind)
{
    return ff_error_set(err, FF_EINPUT, name, 0, 0,
                        "%s PNG: paint the map in 8-bit grey without alpha "
                        "(0 = wall, 1..255 = cost)", kind);
}

ff_status ff_map_parse_png(const unsigned char *data, size_t size, const char *name,
                           const ff_map_options *opt, ff_grid *g, ff_error *err)
{
    png_source src = { data, size, 0, "", 0 };
    png_structp png;
    png_infop info = NULL;
    unsigned char *volatile levels = NULL;
    unsigned char *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    png_uint_32 w, h, y;
    int depth, colour, interlace, channels;
    const char *not_grey;
    size_t i, n, row_bytes;

    /* Grey 255 costs 255 x scale: it must stay a float, or the lightest
     * cells would turn into walls (inf). */
    if (!ff_range_ok(FF_RANGE_PNG_SCALE, opt->png_scale) || !(255 * opt->png_scale <= FF_COST_MAX))
        return ff_error_set(err, FF_EUSAGE, name, 0, 0, "--png-scale %g must be a number %s",
                            opt->png_scale, ff_range_text(FF_RANGE_PNG_SCALE));
    png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, &src, on_error, on_warning, &src, png_alloc,
                                   png_release);
    if (!png || !(info = png_create_info_struct(png))) {
        png_destroy_read_struct(&png, NULL, NULL);
        return ff_error_set(err, FF_ENOMEM, name, 0, 0, "out of memory");
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        if (pixels != levels)
            free(pixels);
        free(levels);
        free(rows);
        ff_grid_free(g);
        if (src.out_of_memory)
            return ff_error_set(err, FF_ENOMEM, name, 0, 0, "out of memory for the PNG");
        return ff_error_set(err, FF_EINPUT, name, 0, 0, "bad PNG: %s", src.message);
    }
    png_set_read_fn(png, &src, read_bytes);
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
    /* A painted map needs no ancillary chunk, and libpng allocates one
     * whole at the size its header says (a 61-byte file declaring a 2 GB
     * sPLT chunk got 2 GB): skip them all unread. */
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
    png_read_info(png, info);
    png_get_IHDR(png, info, &w, &h, &depth, &colour, &interlace, NULL, NULL);
    if (depth > 8) {
        png_destroy_read_struct(&png, &info, NULL);
        return refuse(err, name, "16-bit");
    }
    channels = png_get_channels(png, info);
    if (ff_check_size(w, h, opt->max_cells, name, 0, err) != FF_OK) {
        png_destroy_read_struct(&png, &info, NULL);
        return FF_EINPUT;
    }
    /* Deflate packs at most 1032 bytes into one (258-byte matches in two
     * bits): a header that claims more rows than the file can hold is
     * refused before the pixels are allocated. */
    if ((uint64_t)h * (1 + ((uint64_t)w * (uint64_t)depth * (uint64_t)channels + 7) / 8) >
        ((uint64_t)size + 1) * 1032) {
        png_destroy_read_struct(&png, &info, NULL);
        return ff_error_set(err, FF_EINPUT, name, 0, 0,
                            "bad PNG: %lux%lu pixels cannot be held in %zu bytes (truncated?)",
                            (unsigned long)w, (unsigned long)h, size);
    }
    if (colour == PNG_COLOR_TYPE_PALETTE)
        png_set_palette_to_rgb(png);
    else if (depth < 8)
        png_set_expand_gray_1_2_4_to_8(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    channels = png_get_channels(png, info);
    n = (size_t)w * (size_t)h;
    row_bytes = (size_t)w * (size_t)channels;
    levels = malloc(n);
    pixels = channels > 1 ? malloc(n * (size_t)channels) : levels;
    rows = malloc((size_t)h * sizeof *rows);
    if (!levels || !pixels || !rows) {
        png_destroy_read_struct(&png, &info, NULL);
        free(levels);
        if (pixels != levels)
            free(pixels);
        free(rows);
        return ff_error_set(err, FF_ENOMEM, name, 0, 0, "out of memory for %zu pixels", n);
    }
    for (y = 0; y < h; y++)
        rows[y] = pixels + (size_t)y * row_bytes;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    if (pixels != levels) {
        not_grey = grey_levels(pixels, n, channels, levels);
        free(pixels);
        if (not_grey) {
            free(levels);
            return refuse(err, name, not_grey);
        }
    }
    if (ff_grid_alloc(g, w, h, opt->max_cells, name, err) != FF_OK) {
        free(levels);
        return err ? err->status : FF_ENOMEM;
    }
    for (i = 0; i < n; i++)
        g->cost[i] = levels[i] == 0 ? INFINITY : (float)(levels[i] * opt->png_scale);
    free(levels);
    return FF_OK;
}
